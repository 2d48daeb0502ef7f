/**
 * How Hearth connects to etcd: an `etcd3` client from endpoints and TLS
 * material (PEM text or file paths, as kube-apiserver's --etcd-cafile/
 * --etcd-certfile/--etcd-keyfile), the mapping of a Backend key to an etcd key
 * under a prefix, and etcd's error messages turned into storage errors.
 */
import { readFileSync } from "node:fs";
import { Etcd3, type IKeyValue } from "etcd3";
import { RequestEntityTooLargeError } from "../../api/index.js";
import type { KeyValue } from "../backend.js";
import { BackendClosedError } from "../errors.js";
import { prefixEnd } from "../keys.js";

export interface EtcdTlsOptions {
  /** CA bundle that signed etcd's serving certificate (PEM text or a file path). */
  ca: string;
  /** Client certificate and key (PEM or paths); with auth on, the certificate's CN is the etcd user. */
  cert?: string;
  key?: string;
}

export interface EtcdConnectionOptions {
  /** Client URLs, `https://host:2379` or `http://…`. */
  endpoints: string[];
  tls?: EtcdTlsOptions;
}

/** Unary calls that take longer than this fail (streams have no deadline). */
const CALL_TIMEOUT_MS = 30_000;

/** PEM text as is, or the contents of the file it names. */
function pem(value: string): Buffer {
  return value.includes("-----BEGIN") ? Buffer.from(value) : readFileSync(value);
}

export function createEtcdClient(opts: EtcdConnectionOptions): Etcd3 {
  const { tls } = opts;
  return new Etcd3({
    hosts: opts.endpoints,
    ...(tls
      ? {
          credentials: {
            rootCertificate: pem(tls.ca),
            ...(tls.cert ? { certChain: pem(tls.cert) } : {}),
            ...(tls.key ? { privateKey: pem(tls.key) } : {}),
          },
        }
      : {}),
    // A LIST of many objects can exceed gRPC's default 4 MiB receive limit.
    grpcOptions: { "grpc.max_receive_message_length": -1 },
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + CALL_TIMEOUT_MS }),
    dialTimeout: 10_000,
  });
}

/** Backend keys live under one etcd prefix (kube-apiserver's --etcd-prefix). */
export class KeySpace {
  constructor(readonly prefix: string) {}

  /** The etcd key; etcd has no empty key, so "" (a range from the start) is "\0". */
  key(key: string): Buffer {
    const full = this.prefix + key;
    return full ? Buffer.from(full) : Buffer.from([0]);
  }

  /** The end of the etcd range holding every key that starts with `prefix`. */
  rangeEnd(prefix: string): Buffer {
    const end = prefixEnd(this.prefix + prefix);
    // No end ("\0" in etcd's terms): every key from the start on.
    return end === undefined ? Buffer.from([0]) : Buffer.from(end);
  }

  toKeyValue(kv: IKeyValue): KeyValue {
    return {
      key: kv.key.toString().slice(this.prefix.length),
      value: kv.value.toString(),
      createRevision: Number(kv.create_revision),
      modRevision: Number(kv.mod_revision),
    };
  }
}

/** etcd's message when a read or watch asks for history it has compacted away. */
export const isCompactedError = (e: unknown) =>
  e instanceof Error && e.message.includes("required revision has been compacted");

/** etcd's default --max-request-bytes. */
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

export function tooLarge(cause?: unknown): RequestEntityTooLargeError {
  return new RequestEntityTooLargeError(
    "Request entity too large: the object exceeds etcd's request size limit (--max-request-bytes, 1.5 MiB by default)",
    { cause },
  );
}

/** Turns etcd's errors that have a storage or API meaning into those; others pass as they are. */
export function translateEtcdError(e: unknown): unknown {
  if (!(e instanceof Error)) return e;
  if (e.name === "ClientClosedError") return new BackendClosedError();
  if (e.message.includes("request is too large")) return tooLarge(e);
  if (e.message.includes("required revision is a future revision")) {
    return new RangeError(e.message);
  }
  return e;
}
