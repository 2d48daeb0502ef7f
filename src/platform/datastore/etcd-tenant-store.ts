/**
 * A control plane's user, role and keys in an etcd DataStore, managed as the
 * DataStore's root (Kamaji's etcd `Setup`, with every step idempotent):
 *
 *   ensure: user (no password: etcd authenticates it by the client
 *           certificate's CN) → role `<schema>` with READWRITE on exactly
 *           [`/<schema>/`, prefix end) (other permissions the role carries are
 *           revoked) → the role granted to the user (other roles it holds are
 *           revoked: it reaches its prefix only). Each step skips what exists.
 *   remove: role deleted (etcd revokes it from every user, so the control
 *           plane loses access before its data goes — Kamaji #700) → keys under
 *           `/<schema>/` deleted (never `/<schema>x/`: the trailing slash,
 *           Kamaji #201) → user deleted. What is already gone is fine.
 *
 * Roles only bite when etcd runs with `--client-cert-auth` and auth enabled
 * (a root user); the etcd operator does that for `spec.auth.enabled`.
 */
import { createHash } from "node:crypto";
import type { Etcd3, IPermission } from "etcd3";
import { dialEtcd, ETCD_CALL_MS, loadEtcd3 } from "../operators/etcd/index.js";
import type { DataStoreConnection } from "./connection.js";
import {
  prefixRangeEnd,
  type TenantSetup,
  tenantPrefix,
  validateTenantSetup,
} from "./tenant-setup.js";

/** What a prefix holds at one revision, to compare a copy with its source. */
export interface PrefixDigest {
  count: number;
  /** sha256 over each key and value, in key order, each length-prefixed. */
  sha256: string;
  revision: string;
}

const PAGE = 500;

export class EtcdTenantStore {
  private constructor(
    private readonly client: Etcd3,
    private readonly errors: typeof import("etcd3"),
  ) {}

  /** Dials the DataStore as its root user; `close()` when done. */
  static async connect(conn: DataStoreConnection, callMs = ETCD_CALL_MS): Promise<EtcdTenantStore> {
    const client = await dialEtcd(conn.endpoints, conn.root, { callMs });
    return new EtcdTenantStore(client, await loadEtcd3());
  }

  async ensure(setup: TenantSetup): Promise<void> {
    validateTenantSetup(setup);
    const { auth } = this.client;
    const e = this.errors;
    await auth
      .userAdd({ name: setup.user, options: { no_password: true } })
      .catch(tolerate(e.EtcdUserExistsError));
    await auth.roleAdd({ name: setup.schema }).catch(tolerate(e.EtcdRoleExistsError));
    await this.ensurePermission(setup.schema);
    const { roles } = await auth.userGet({ name: setup.user });
    for (const role of roles ?? [])
      if (role !== setup.schema) await auth.userRevokeRole({ name: setup.user, role });
    if (!(roles ?? []).includes(setup.schema))
      await auth.userGrantRole({ user: setup.user, role: setup.schema });
  }

  /** The role's one permission, READWRITE on the schema's prefix; nothing wider, nothing else. */
  private async ensurePermission(schema: string): Promise<void> {
    const { auth } = this.client;
    const key = Buffer.from(tenantPrefix(schema));
    const end = prefixRangeEnd(tenantPrefix(schema));
    const wanted = (p: IPermission) =>
      p.permType === "Readwrite" && key.equals(p.key) && end.equals(p.range_end);
    const { perm } = await auth.roleGet({ role: schema });
    for (const p of perm ?? [])
      if (!wanted(p))
        await auth.roleRevokePermission({ role: schema, key: p.key, range_end: p.range_end });
    if (!(perm ?? []).some(wanted))
      await auth.roleGrantPermission({
        name: schema,
        perm: { permType: "Readwrite", key, range_end: end },
      });
  }

  async remove(setup: TenantSetup): Promise<void> {
    validateTenantSetup(setup);
    const { auth, kv } = this.client;
    const e = this.errors;
    await auth.roleDelete({ role: setup.schema }).catch(tolerate(e.EtcdRoleNotFoundError));
    const prefix = tenantPrefix(setup.schema);
    await kv.deleteRange({ key: Buffer.from(prefix), range_end: prefixRangeEnd(prefix) });
    await auth.userDelete({ name: setup.user }).catch(tolerate(e.EtcdUserNotFoundError));
  }

  /** How many keys start with `prefix`. */
  async keyCount(prefix: string): Promise<number> {
    const res = await this.client.kv.range({
      key: Buffer.from(prefix),
      range_end: prefixRangeEnd(prefix),
      count_only: true,
    });
    return Number(res.count);
  }

  /** Count and checksum of every key and value under `prefix`, read page by page at one revision. */
  async digest(prefix: string): Promise<PrefixDigest> {
    const hash = createHash("sha256");
    const end = prefixRangeEnd(prefix);
    let from = Buffer.from(prefix);
    let revision: string | undefined;
    let count = 0;
    for (;;) {
      const res = await this.client.kv.range({
        key: from,
        range_end: end,
        limit: PAGE,
        ...(revision ? { revision } : {}),
      });
      revision ??= res.header.revision;
      for (const kv of res.kvs) {
        for (const part of [kv.key, kv.value]) {
          const len = Buffer.alloc(4);
          len.writeUInt32BE(part.length);
          hash.update(len).update(part);
        }
        count++;
      }
      const last = res.kvs[res.kvs.length - 1];
      if (!res.more || !last) break;
      from = Buffer.concat([last.key, Buffer.from([0])]);
    }
    return { count, sha256: hash.digest("hex"), revision: revision ?? "0" };
  }

  close(): void {
    this.client.close();
  }
}

/** A catch handler that swallows errors of class `cls` ("exists" / "not found") and rethrows others. */
function tolerate(cls: abstract new (...args: never[]) => Error) {
  return (e: unknown) => {
    if (!(e instanceof cls)) throw e;
  };
}
