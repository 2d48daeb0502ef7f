/**
 * Dialling an etcd cluster as the platform does (gRPC over TLS with a client
 * certificate, a deadline on every unary call so a dead member cannot hold a
 * reconcile): the etcd operator's EtcdApi and the DataStore's tenant setup
 * share it. etcd3 and its gRPC stack (some 25 MB of RSS) load on the first dial.
 */
import type { Etcd3 } from "etcd3";

export interface EtcdCredentials {
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** A unary call's default deadline. */
export const ETCD_CALL_MS = 5_000;

let etcd3: Promise<typeof import("etcd3")> | undefined;

/** The etcd3 module, loaded once (its error classes are what `instanceof` needs). */
export function loadEtcd3(): Promise<typeof import("etcd3")> {
  etcd3 ??= import("etcd3");
  return etcd3;
}

/**
 * A client of `endpoints` (`https://host:port`), authenticated by the client
 * certificate; each unary call bounded by `callMs`. `serverName` is the name
 * the server's certificate must carry when the endpoints are addresses that
 * name resolved to.
 */
export async function dialEtcd(
  endpoints: string[],
  creds: EtcdCredentials,
  opts: { callMs?: number; serverName?: string } = {},
): Promise<Etcd3> {
  const callMs = opts.callMs ?? ETCD_CALL_MS;
  const { Etcd3 } = await loadEtcd3();
  return new Etcd3({
    hosts: endpoints,
    credentials: {
      rootCertificate: Buffer.from(creds.caPem),
      certChain: Buffer.from(creds.certPem),
      privateKey: Buffer.from(creds.keyPem),
    },
    ...(opts.serverName
      ? { grpcOptions: { "grpc.ssl_target_name_override": opts.serverName } }
      : {}),
    dialTimeout: 3_000,
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + callMs }),
  });
}
