/**
 * WATCH: one compact JSON event per line, headers flushed at once. Without a
 * resourceVersion (or with "0") the current state comes first as ADDED events;
 * with one, every change after it. A revision older than the compacted one ends
 * the stream with an ERROR event carrying a 410 Expired Status. Objects entering or
 * leaving the selector are ADDED / DELETED. Bookmarks on request. A slow reader
 * that falls too far behind is disconnected and resumes from its last revision.
 * The query is validated before the stream starts (see list-options.ts); a
 * resourceVersion the server has not reached yet is watched from, as kube's
 * watch cache does: its events arrive once they happen.
 */

import type { KubeObject, WatchEventType } from "../../api/index.js";
import { ApiError, ExpiredError } from "../../api/index.js";
import type { StorageEvent } from "../../storage/index.js";
import { CompactedError } from "../../storage/index.js";
import { negotiate } from "../http/respond.js";
import { trackLongRunning } from "../metrics.js";
import { apiVersionOf } from "../resources/resource-type.js";
import { toTable } from "../resources/table.js";
import { listPrefix } from "../store/keys.js";
import {
  decodeAs,
  decodeObject,
  rawWithRevision,
  storedResource,
  tooOldMessage,
} from "../store/object-store.js";
import type { RequestContext } from "./context.js";
import { selectorFilter } from "./filter.js";
import { parseListOptions } from "./list-options.js";

/** Events buffered for one slow watcher before it is disconnected. */
const MAX_PENDING = 10_000;
const DEFAULT_TIMEOUT_S = 1800;
/** The longest delay a Node timer takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * How long the watch runs: kube's `timeoutSeconds` (a negative one ends the
 * watch at once, as Go's timer does), else the server default of 30–60 min.
 */
function watchTimeoutMs(timeoutSeconds: number | undefined): number {
  if (timeoutSeconds === undefined) return DEFAULT_TIMEOUT_S * (1 + Math.random()) * 1000;
  return Math.max(0, Math.min(timeoutSeconds * 1000, MAX_TIMER_MS));
}

export async function handleWatch(ctx: RequestContext): Promise<void> {
  const t = ctx.type;
  const { rendering, includeObject } = negotiate(ctx.req, ctx.query);
  const opts = parseListOptions(ctx.query, true);
  const rv = opts.resourceVersion ?? 0;
  const selector = selectorFilter(t, ctx.query);
  const filter = selector ?? (() => true);
  const bookmarks = opts.allowWatchBookmarks;

  const res = ctx.res;
  const abort = new AbortController();
  const stop = () => abort.abort();
  ctx.req.on("close", stop);
  ctx.server.signal.addEventListener("abort", stop, { once: true });
  const timer = setTimeout(stop, watchTimeoutMs(opts.timeoutSeconds));
  let bookmarkTimer: NodeJS.Timeout | undefined;

  let firstTable = true;
  let lastRevision = 0;
  let pending = 0;
  const send = (type: WatchEventType, obj: unknown) => {
    if (abort.signal.aborted) return;
    let object = obj;
    if (rendering === "table" && type !== "BOOKMARK" && type !== "ERROR") {
      object = toTable(t, [obj as KubeObject], { includeObject, withHeaders: firstTable });
      firstTable = false;
    }
    const ok = res.write(`${JSON.stringify({ type, object })}\n`);
    if (!ok && ++pending > MAX_PENDING) stop();
  };
  res.on("drain", () => {
    pending = 0;
  });

  res.writeHead(200, {
    "Content-Type": "application/json",
    "Cache-Control": "no-cache, private",
    "Transfer-Encoding": "chunked",
  });
  res.flushHeaders();

  // Counted from here, once the query is known good, as kube counts from its storage watch.
  const endTracking = trackLongRunning(ctx.info, ctx.query);
  try {
    let after: number;
    if (rv === 0) {
      const page = await ctx.server.store.list(t, { namespace: ctx.info.namespace, filter });
      for (const obj of page.items) send("ADDED", obj);
      after = Number(page.resourceVersion);
    } else {
      after = rv;
    }
    lastRevision = after;
    // Every watcher of a kind gets the same event object: an unfiltered JSON watcher
    // reuses the line the first one encoded instead of parsing and encoding again.
    const shared = !selector && !t.storage && rendering === "object";
    const onEvent = (ev: StorageEvent) => {
      lastRevision = ev.kv.modRevision;
      if (shared) {
        if (abort.signal.aborted) return;
        const ok = res.write(sharedLine(ev));
        if (!ok && ++pending > MAX_PENDING) stop();
        return;
      }
      const out = toWatchEvent(ev, filter, (kv) => decodeAs(t, kv));
      if (out) send(out.type, out.object);
    };
    await ctx.server.backend.watch(
      listPrefix(storedResource(t), ctx.info.namespace),
      { after, onEvent, onError: stop },
      abort.signal,
    );
    if (bookmarks) {
      bookmarkTimer = setInterval(async () => {
        // Past the last event sent only where the backend has delivered all up to it
        // (etcd's events arrive on their stream later: a bookmark ahead would skip them).
        const backend = ctx.server.backend;
        const current = backend.deliversOnCommit
          ? await backend.currentRevision().catch(() => lastRevision)
          : lastRevision;
        lastRevision = Math.max(lastRevision, current);
        send("BOOKMARK", {
          kind: t.kind,
          apiVersion: apiVersionOf(t),
          metadata: { resourceVersion: String(lastRevision) },
        });
      }, ctx.server.bookmarkIntervalMs);
    }
    await new Promise<void>((resolve) => {
      if (abort.signal.aborted) resolve();
      else abort.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } catch (e) {
    if (e instanceof CompactedError) {
      send("ERROR", new ExpiredError(tooOldMessage(e.requested, e.compacted)).toStatus());
    } else if (e instanceof ApiError) {
      send("ERROR", e.toStatus());
    } else {
      throw e;
    }
  } finally {
    endTracking();
    abort.abort();
    clearTimeout(timer);
    if (bookmarkTimer) clearInterval(bookmarkTimer);
    ctx.req.off("close", stop);
    ctx.server.signal.removeEventListener("abort", stop);
    res.end();
  }
}

const sharedLines = new WeakMap<StorageEvent, string>();

/** The watch line of an event for watchers without a selector, encoded once. */
function sharedLine(ev: StorageEvent): string {
  let line = sharedLines.get(ev);
  if (line === undefined) {
    const type: WatchEventType = ev.type === "delete" ? "DELETED" : ev.prev ? "MODIFIED" : "ADDED";
    line = `{"type":"${type}","object":${rawWithRevision(ev.kv)}}\n`;
    sharedLines.set(ev, line);
  }
  return line;
}

/** Maps a storage event to a watch event for this selector, or none; `decode` reads a stored object. */
export function toWatchEvent(
  ev: StorageEvent,
  filter: (o: KubeObject) => boolean,
  decode: (kv: StorageEvent["kv"]) => KubeObject = decodeObject,
): { type: WatchEventType; object: KubeObject } | undefined {
  const obj = decode(ev.kv);
  if (ev.type === "delete") return filter(obj) ? { type: "DELETED", object: obj } : undefined;
  const matches = filter(obj);
  const prev = ev.prev ? decode(ev.prev) : undefined;
  const matched = prev ? filter(prev) : false;
  if (matches && prev && matched) return { type: "MODIFIED", object: obj };
  if (matches) return { type: "ADDED", object: obj };
  if (matched && prev) {
    prev.metadata.resourceVersion = String(ev.kv.modRevision);
    return { type: "DELETED", object: prev };
  }
  return undefined;
}
