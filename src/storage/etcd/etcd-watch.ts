/**
 * One Backend watch as one etcd watch stream: start at `after + 1` with the
 * previous value of each key (prev_kv), turn etcd events into StorageEvents,
 * and end exactly once — by abort (silently), by etcd cancelling the watch
 * (compacted history → CompactedError carrying etcd's compact revision), by
 * the stream failing, or by the backend closing (`end(error)`).
 */
import type { Etcd3, IEvent, IWatchResponse } from "etcd3";
import type { StorageEvent, WatchOptions } from "../backend.js";
import { CompactedError } from "../errors.js";
import { type KeySpace, translateEtcdError } from "./etcd-client.js";

export interface EtcdWatch {
  /** Resolves once etcd has created the watch; rejects if it refuses or cancels it first. */
  established: Promise<void>;
  /** Ends the watch, telling the watcher `error` (if it has not ended already). */
  end(error: Error): void;
}

export interface EtcdWatchRequest {
  client: Etcd3;
  keys: KeySpace;
  prefix: string;
  options: WatchOptions;
  signal: AbortSignal;
  /** Told the compact revision when etcd cancels the watch for compaction. */
  onCompacted: (revision: number) => void;
  /** Called once when the watch ends, however it ends. */
  onEnd: () => void;
}

export function startEtcdWatch(req: EtcdWatchRequest): EtcdWatch {
  const { keys, options } = req;
  let resolveEstablished!: () => void;
  let rejectEstablished!: (e: unknown) => void;
  const established = new Promise<void>((res, rej) => {
    resolveEstablished = res;
    rejectEstablished = rej;
  });
  let created = false;
  let ended = false;
  let cancelStream = () => {};

  const end = (error: Error | undefined) => {
    if (ended) return;
    ended = true;
    req.signal.removeEventListener("abort", onAbort);
    cancelStream();
    req.onEnd();
    if (!error) return;
    if (created) options.onError?.(error);
    else rejectEstablished(error);
  };
  const onAbort = () => {
    end(undefined);
    // An abort before etcd answered still settles the caller's promise.
    resolveEstablished();
  };
  // A signal aborted already never fires "abort": no stream is opened for it,
  // and it ends on the next microtask, once the caller holds the watch.
  if (req.signal.aborted) {
    ended = true;
    queueMicrotask(() => {
      req.onEnd();
      resolveEstablished();
    });
    return { established, end };
  }
  req.signal.addEventListener("abort", onAbort, { once: true });

  const onResponse = (res: IWatchResponse) => {
    if (ended) return;
    const compacted = Number(res.compact_revision);
    if (compacted > 0) {
      req.onCompacted(compacted);
      end(new CompactedError(options.after, compacted));
      return;
    }
    if (res.canceled) {
      end(
        new Error(`etcd cancelled the watch on ${keys.prefix}${req.prefix}: ${res.cancel_reason}`),
      );
      return;
    }
    if (res.created && !created) {
      created = true;
      resolveEstablished();
    }
    for (const event of res.events) {
      if (ended) return;
      try {
        options.onEvent(toStorageEvent(keys, event));
      } catch (error) {
        // A callback must not throw; one that does loses its watch (as in WatchHub).
        end(asError(error));
      }
    }
  };

  req.client.watchClient
    .watch()
    .then((stream) => {
      cancelStream = () => stream.cancel();
      if (ended) {
        stream.cancel();
        return;
      }
      stream.on("data", onResponse);
      stream.on("error", (e: unknown) => end(asError(translateEtcdError(e))));
      stream.on("end", () => end(new Error("etcd closed the watch stream")));
      stream.write({
        create_request: {
          key: keys.key(req.prefix),
          range_end: keys.rangeEnd(req.prefix),
          start_revision: options.after + 1,
          prev_kv: true,
        },
      });
    })
    .catch((e: unknown) => end(asError(translateEtcdError(e))));

  return { established, end };
}

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

function toStorageEvent(keys: KeySpace, event: IEvent): StorageEvent {
  const prev = event.prev_kv ? keys.toKeyValue(event.prev_kv) : undefined;
  if (String(event.type) === "Delete" || Number(event.type) === 1) {
    // etcd's delete event carries only the key and the deletion's revision.
    const kv = {
      key: keys.toKeyValue(event.kv).key,
      value: prev?.value ?? "",
      createRevision: prev?.createRevision ?? 0,
      modRevision: Number(event.kv.mod_revision),
    };
    return prev ? { type: "delete", kv, prev } : { type: "delete", kv };
  }
  const kv = keys.toKeyValue(event.kv);
  return prev ? { type: "put", kv, prev } : { type: "put", kv };
}
