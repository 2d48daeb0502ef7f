/**
 * The Backend on etcd, as kube-apiserver stores its objects: every key under
 * one prefix, etcd's revision is the Backend's revision (so resourceVersion is
 * etcd's mod_revision), and each guarded write is one etcd transaction that
 * compares the key's create or mod revision. Several apiservers may share one
 * etcd: nothing here is learned from this process's own writes except the
 * compacted revision, which etcd also reports on every compacted read or watch.
 * See docs/etcd-backend.md.
 */
import {
  CompareResult,
  CompareTarget,
  type Etcd3,
  type IKeyValue,
  type IRangeResponse,
  type ITxnResponse,
} from "etcd3";
import type { Backend, KeyValue, ListOptions, ListResult, WatchOptions } from "../backend.js";
import {
  BackendClosedError,
  CompactedError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "../errors.js";
import { listStart } from "../keys.js";
import {
  createEtcdClient,
  ETCD_MAX_REQUEST_BYTES,
  type EtcdConnectionOptions,
  isCompactedError,
  KeySpace,
  tooLarge,
  translateEtcdError,
} from "./etcd-client.js";
import { type EtcdWatch, startEtcdWatch } from "./etcd-watch.js";

export interface EtcdBackendOptions extends EtcdConnectionOptions {
  /** Every key is stored as `prefix + key` (e.g. "/registry" → "/registry/registry/…"); may be "". */
  prefix: string;
  /**
   * Whether `compact()` compacts etcd (default true). Compaction is cluster-wide, so a
   * backend whose etcd user is limited to its prefix must leave it to etcd's
   * --auto-compaction-*; then `compact()` does nothing.
   */
  compact?: boolean;
  /**
   * Values larger than this are refused here with 413, before they reach etcd (default
   * 1.5 MiB, etcd's --max-request-bytes). Far larger requests would otherwise fail in
   * etcd's gRPC server with RESOURCE_EXHAUSTED, which the etcd3 client counts as a sick
   * host and stops calling it for a while.
   */
  maxValueBytes?: number;
}

export async function openEtcdBackend(opts: EtcdBackendOptions): Promise<EtcdBackend> {
  const backend = new EtcdBackend(createEtcdClient(opts), opts.prefix, {
    compacts: opts.compact ?? true,
    maxValueBytes: opts.maxValueBytes ?? ETCD_MAX_REQUEST_BYTES,
  });
  try {
    await backend.currentRevision();
  } catch (e) {
    // Refused (no access, wrong CA, unreachable): release the client's channels.
    await backend.close();
    throw e;
  }
  return backend;
}

export class EtcdBackend implements Backend {
  readonly #client: Etcd3;
  readonly #keys: KeySpace;
  readonly #watches = new Set<EtcdWatch>();
  /** The newest compact revision etcd has told this process of (or it compacted to itself). */
  #compacted = 0;
  #closed = false;

  readonly compacts: boolean;
  readonly #maxValueBytes: number;

  constructor(client: Etcd3, prefix: string, opts: { compacts: boolean; maxValueBytes: number }) {
    this.#client = client;
    this.#keys = new KeySpace(prefix);
    this.compacts = opts.compacts;
    this.#maxValueBytes = opts.maxValueBytes;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    const res = await this.#call(() => this.#client.kv.range({ key: this.#keys.key(key) }));
    const kv = res.kvs[0];
    return kv ? this.#keys.toKeyValue(kv) : undefined;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    const limit = options.limit && options.limit > 0 ? options.limit : 0;
    const start = listStart(prefix, options.after);
    const revision = options.revision && options.revision > 0 ? options.revision : 0;
    const res = await this.#call(
      () =>
        this.#client.kv.range({
          key: this.#keys.key(start),
          range_end: this.#keys.rangeEnd(prefix),
          limit,
          revision,
        }),
      revision,
    );
    const items = res.kvs.map((kv) => this.#keys.toKeyValue(kv));
    return {
      items,
      revision: revision || Number(res.header.revision),
      more: res.more,
      remaining: Number(res.count) - items.length,
    };
  }

  async count(prefix: string): Promise<number> {
    const res = await this.#call(() =>
      this.#client.kv.range({
        key: this.#keys.key(prefix),
        range_end: this.#keys.rangeEnd(prefix),
        count_only: true,
      }),
    );
    return Number(res.count);
  }

  async create(key: string, value: string): Promise<KeyValue> {
    this.#checkSize(value);
    const k = this.#keys.key(key);
    const res = await this.#txn({
      compare: [
        { key: k, target: CompareTarget.Create, result: CompareResult.Equal, create_revision: 0 },
      ],
      success: [{ request_put: { key: k, value: Buffer.from(value) } }],
    });
    if (!res.succeeded) throw new KeyExistsError(key);
    const revision = Number(res.header.revision);
    return { key, value, createRevision: revision, modRevision: revision };
  }

  async update(key: string, value: string, expectedRevision: number): Promise<KeyValue> {
    this.#checkSize(value);
    const k = this.#keys.key(key);
    const res = await this.#txn({
      compare: [exists(k), modRevisionIs(k, expectedRevision)],
      success: [{ request_put: { key: k, value: Buffer.from(value), prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) this.#refused(key, res);
    const prev = res.responses[0]!.response_put.prev_kv;
    const revision = Number(res.header.revision);
    return { key, value, createRevision: Number(prev.create_revision), modRevision: revision };
  }

  async delete(key: string, expectedRevision?: number): Promise<KeyValue> {
    const k = this.#keys.key(key);
    const res = await this.#txn({
      compare:
        expectedRevision === undefined
          ? [exists(k)]
          : [exists(k), modRevisionIs(k, expectedRevision)],
      success: [{ request_delete_range: { key: k, prev_kv: true } }],
      failure: [{ request_range: { key: k } }],
    });
    if (!res.succeeded) this.#refused(key, res);
    const last = this.#keys.toKeyValue(res.responses[0]!.response_delete_range.prev_kvs[0]!);
    return { ...last, modRevision: Number(res.header.revision) };
  }

  async watch(prefix: string, options: WatchOptions, signal: AbortSignal): Promise<void> {
    this.#assertOpen();
    if (options.after < this.#compacted) throw new CompactedError(options.after, this.#compacted);
    if (options.after > 0) await this.#assertReadable(prefix, options.after);
    if (signal.aborted) return;
    const watch = startEtcdWatch({
      client: this.#client,
      keys: this.#keys,
      prefix,
      options,
      signal,
      onCompacted: (revision) => this.#learnCompacted(revision),
      onEnd: () => this.#watches.delete(watch),
    });
    this.#watches.add(watch);
    await watch.established;
  }

  async currentRevision(): Promise<number> {
    // Any read's header carries the store's revision; the prefix key itself is
    // inside what a prefix-limited user may read.
    const res = await this.#call(() =>
      this.#client.kv.range({ key: this.#keys.key(""), count_only: true }),
    );
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    this.#assertOpen();
    return this.#compacted;
  }

  /** Compacts etcd's history (cluster-wide) up to `revision`, if this backend may. */
  async compact(revision: number): Promise<void> {
    this.#assertOpen();
    if (!this.compacts) return;
    const target = Math.min(revision, await this.currentRevision());
    if (target <= this.#compacted) return;
    try {
      await this.#call(() => this.#client.kv.compact({ revision: target }));
    } catch (e) {
      // Another apiserver compacted as far already: nothing is left to do.
      if (!(e instanceof CompactedError)) throw e;
    }
    this.#learnCompacted(target);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const watch of [...this.#watches]) watch.end(new BackendClosedError());
    this.#client.close();
  }

  /**
   * Throws CompactedError if history at `revision` is gone. etcd confirms a watch
   * from compacted history as created and only then cancels it, which would end the
   * watch with onError after `watch()` resolved; a read at the revision fails at once.
   * (A compaction between the two still ends the watch by onError.) A future
   * revision is readable for a watch: its events are yet to come.
   */
  async #assertReadable(prefix: string, revision: number): Promise<void> {
    try {
      await this.#call(
        () =>
          this.#client.kv.range({
            key: this.#keys.key(prefix),
            range_end: this.#keys.rangeEnd(prefix),
            revision,
            count_only: true,
          }),
        revision,
      );
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }

  #learnCompacted(revision: number): void {
    this.#compacted = Math.max(this.#compacted, revision);
  }

  #checkSize(value: string): void {
    if (Buffer.byteLength(value) > this.#maxValueBytes) throw tooLarge();
  }

  #assertOpen(): void {
    if (this.#closed) throw new BackendClosedError();
  }

  /** Runs one etcd call with its errors translated; `revision` is the one a read asked for. */
  async #call<T>(call: () => Promise<T>, revision = 0): Promise<T> {
    this.#assertOpen();
    try {
      return await call();
    } catch (e) {
      if (this.#closed) throw new BackendClosedError();
      if (isCompactedError(e)) {
        // etcd's unary error does not say where it compacted: at least past `revision`.
        this.#learnCompacted(revision + 1);
        throw new CompactedError(revision, this.#compacted);
      }
      throw translateEtcdError(e);
    }
  }

  #txn(req: Parameters<Etcd3["kv"]["txn"]>[0]): Promise<ITxnResponse> {
    return this.#call(() => this.#client.kv.txn(req));
  }

  /** A guarded write refused: the key is gone, or it is at another revision. */
  #refused(key: string, res: ITxnResponse): never {
    const range: IRangeResponse = res.responses[0]!.response_range;
    const current: IKeyValue | undefined = range.kvs[0];
    if (!current) throw new KeyNotFoundError(key);
    throw new RevisionMismatchError(key, this.#keys.toKeyValue(current));
  }
}

// A missing key's mod_revision compares equal to 0, so a guard on the revision
// alone would let `update(key, v, 0)` create the key: every guard also asks
// that the key exist.
const exists = (key: Buffer) => ({
  key,
  target: CompareTarget.Create,
  result: CompareResult.Greater,
  create_revision: 0,
});

const modRevisionIs = (key: Buffer, revision: number) => ({
  key,
  target: CompareTarget.Mod,
  result: CompareResult.Equal,
  mod_revision: revision,
});
