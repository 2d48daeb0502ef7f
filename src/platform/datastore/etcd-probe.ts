/**
 * The DataStore's health check: reachable and authenticated, by real calls.
 * Each endpoint gets its own client and a `Status` call (the TLS handshake
 * proves the CA and the client certificate); then one that answered is asked
 * for etcd's user list, which needs the platform's user to exist and to have
 * the root role when etcd's auth is on (the role Kamaji's setup needs to add
 * a control plane's user and role). Every call is bounded (3 s dial, 5 s per
 * call), so a dead DataStore costs one short pass. gRPC's errors are typed
 * here, at the boundary: a refused or untrusted certificate is
 * `Unauthenticated`, no answer is `Unreachable`.
 */
import type { Etcd3 } from "etcd3";
import { errorText } from "../../client/index.js";
import { dialEtcd } from "../operators/etcd/index.js";
import type { NotReady } from "./content-refs.js";
import type { EtcdTarget } from "./etcd-endpoints.js";
import type { DataStoreTls } from "./tls-credentials.js";

export type ProbeResult = { ready: true; message: string } | ({ ready: false } & NotReady);

/** gRPC's message without its boilerplate. */
function short(e: unknown): string {
  return errorText(e)
    .replace(/^\d+ [A-Z_]+: /, "")
    .replace(/No connection established\. Last error: (Error: )?/, "")
    .replace(/\s*\(\d{4}-\d\d-\d\dT[^)]*\)/, "")
    .replace(/\.?\s*Resolution note:.*$/s, "")
    .trim();
}

/** A TLS failure: the server refused our certificate, or we could not trust its. */
const tlsFailure = (e: unknown) =>
  /certificate|SSL|handshake|self[- ]signed|unable to verify/i.test(errorText(e));

const errorName = (e: unknown) => (e instanceof Error ? e.constructor.name : "");

export async function probeEtcd(targets: EtcdTarget[], tls: DataStoreTls): Promise<ProbeResult> {
  const creds = { caPem: tls.caPem, certPem: tls.certPem, keyPem: tls.keyPem };
  const clients: Etcd3[] = [];
  try {
    const answers = await Promise.all(
      targets.map(async (t) => {
        try {
          const c = await dialEtcd(
            [t.url],
            creds,
            t.serverName ? { serverName: t.serverName } : {},
          );
          clients.push(c);
          return { t, c, status: await c.maintenance.status() };
        } catch (e) {
          return { t, error: e };
        }
      }),
    );
    const failed = answers.filter((a) => "error" in a);
    const answered = answers.filter((a) => "status" in a);
    const failures = failed.map((a) => `${a.t.endpoint}: ${short(a.error)}`).join("; ");
    if (answered.length === 0) {
      const reason = failed.some((a) => tlsFailure(a.error)) ? "Unauthenticated" : "Unreachable";
      return { ready: false, reason, message: `no endpoint answered: ${failures}` };
    }
    const first = answered[0]!;
    try {
      await first.c!.auth.userList();
    } catch (e) {
      const name = errorName(e);
      if (name === "EtcdUserNotFoundError")
        return {
          ready: false,
          reason: "Unauthenticated",
          message: `etcd at ${first.t.endpoint} has no user "${tls.user}" (the client certificate's CN)`,
        };
      if (name === "EtcdPermissionDeniedError")
        return {
          ready: false,
          reason: "PermissionDenied",
          message: `etcd user "${tls.user}" may not manage users and roles (it needs the root role)`,
        };
      return { ready: false, reason: "Unreachable", message: `${first.t.endpoint}: ${short(e)}` };
    }
    const ok = answered.map((a) => a.t.endpoint).join(", ");
    return {
      ready: true,
      message:
        `etcd ${first.status!.version} answered at ${ok} as user "${tls.user}"` +
        (failures ? `; not answering: ${failures}` : ""),
    };
  } finally {
    for (const c of clients) c.close();
  }
}
