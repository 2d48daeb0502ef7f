/**
 * Whether an etcd DataStore enforces its roles. Per-control-plane roles only
 * isolate anything when etcd runs with client-certificate auth and auth
 * enabled; etcd 3.4 has no AuthStatus call, so the probe asks as a user that
 * does not exist: a certificate signed by the DataStore's CA with CN
 * `hearth-auth-probe`, reading one key. Refused → enforced; answered → every
 * certificate the CA signs reaches every key (not fit for sharing).
 */
import { issueLeaf } from "../../pki/index.js";
import { dialEtcd, ETCD_CALL_MS, loadEtcd3 } from "../operators/etcd/index.js";
import type { DataStoreConnection } from "./connection.js";

/**
 * The probe's CN. It reads the bare key `/hearth-auth-probe`, outside any
 * control plane's `/<schema>/`, so even a setup of that name is refused it.
 */
export const AUTH_PROBE_USER = "hearth-auth-probe";

/** True when etcd refuses a user it does not know; other failures (unreachable) are thrown. */
export async function authEnforced(
  conn: DataStoreConnection,
  callMs = ETCD_CALL_MS,
): Promise<boolean> {
  const probe = await issueLeaf(conn.ca, {
    commonName: AUTH_PROBE_USER,
    usage: ["client"],
    days: 1,
  });
  const e = await loadEtcd3();
  const client = await dialEtcd(
    conn.endpoints,
    { caPem: conn.ca.certPem, certPem: probe.certPem, keyPem: probe.keyPem },
    { callMs },
  );
  try {
    await client.kv.range({ key: Buffer.from(`/${AUTH_PROBE_USER}`), count_only: true });
    return false;
  } catch (err) {
    if (
      err instanceof e.EtcdPermissionDeniedError ||
      err instanceof e.EtcdUserNotFoundError ||
      err instanceof e.EtcdAuthenticationFailedError
    )
      return true;
    throw err;
  } finally {
    client.close();
  }
}
