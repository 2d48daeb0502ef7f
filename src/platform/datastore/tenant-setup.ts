/**
 * A control plane's place in an etcd DataStore (Kamaji's `status.storage.setup`):
 * its schema, whose keys live under `/<schema>/` — with the trailing slash, so
 * schema `t1` never covers `/t1x/` (Kamaji #201 deleted a neighbour's keys
 * without it) — and the etcd user, named by the client certificate's CN, that
 * may read and write only there.
 */

export interface TenantSetup {
  schema: string;
  user: string;
}

/** etcd's administrator; a control plane must never be it (its removal would delete root). */
const RESERVED = new Set(["root"]);
/** ASCII without `/`, so the prefix is exactly one path segment and its range end is plain. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/;

/** A schema or user that cannot be set up; retrying cannot fix it. */
export class InvalidTenantSetupError extends Error {
  constructor(
    readonly field: "schema" | "user",
    readonly value: string,
    why: string,
  ) {
    super(`invalid datastore ${field} ${JSON.stringify(value)}: ${why}`);
    this.name = "InvalidTenantSetupError";
  }
}

export function validateTenantSetup(setup: TenantSetup): void {
  for (const field of ["schema", "user"] as const) {
    const v = setup[field];
    if (!NAME.test(v))
      throw new InvalidTenantSetupError(
        field,
        v,
        "must be 1-253 characters of letters, digits, '.', '_' or '-', starting with a letter or digit",
      );
    if (RESERVED.has(v)) throw new InvalidTenantSetupError(field, v, "is reserved for etcd's root");
  }
}

/** `/<schema>/`: every key of the control plane starts with it. */
export const tenantPrefix = (schema: string) => `/${schema}/`;

/**
 * The end of etcd's half-open range of keys starting with `prefix` (etcd's
 * `GetPrefixRangeEnd`): the prefix with its last byte below 0xff incremented.
 */
export function prefixRangeEnd(prefix: string | Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--)
    if ((end[i] ?? 0xff) < 0xff) {
      end[i] = (end[i] ?? 0) + 1;
      return end.subarray(0, i + 1);
    }
  // No such key: etcd's "\0" means "to the end of the keyspace".
  return Buffer.from([0]);
}
