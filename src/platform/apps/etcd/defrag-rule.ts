/**
 * The rule that decides whether `hearth etcd-defrag` defragments a member: a
 * CEL expression over the member's `dbSize`, `dbSizeInUse` (bytes, int),
 * `dbQuota` (the backend quota in bytes, int) and `dbQuotaUsage` (dbSize /
 * dbQuota, double), as in ahrtr/etcd-defrag's `--defrag-rule`. A rule is
 * compiled once and refused up front when it does not parse, names anything
 * else, or does not yield a bool.
 */
import { CelScalar, celEnv, isCelError, parse, plan } from "@bufbuild/cel";
import { errorText } from "../../../client/index.js";

/** Cozystack's rule: the quota is 80 % used, or over 200 MiB could be freed. */
export const DEFAULT_DEFRAG_RULE = "dbQuotaUsage > 0.8 || dbSize - dbSizeInUse > 200*1024*1024";

/** etcd's own backend quota when `--quota-backend-bytes` is not set: 2 GiB. */
export const ETCD_DEFAULT_QUOTA_BYTES = 2n * 1024n * 1024n * 1024n;

export interface MemberSizes {
  dbSize: bigint;
  dbSizeInUse: bigint;
  dbQuota: bigint;
}

const env = celEnv({
  variables: {
    dbSize: CelScalar.INT,
    dbSizeInUse: CelScalar.INT,
    dbQuota: CelScalar.INT,
    dbQuotaUsage: CelScalar.DOUBLE,
  },
});

const compile = (source: string) => plan(env, parse(source));

export interface DefragRule {
  source: string;
  matches(sizes: MemberSizes): boolean;
}

function bindings(s: MemberSizes) {
  const usage = s.dbQuota > 0n ? Number(s.dbSize) / Number(s.dbQuota) : 0;
  return { dbSize: s.dbSize, dbSizeInUse: s.dbSizeInUse, dbQuota: s.dbQuota, dbQuotaUsage: usage };
}

const celTypeName = (v: unknown) =>
  typeof v === "bigint" ? "an int" : typeof v === "number" ? "a double" : `a ${typeof v}`;

/** Compiles `source`; throws an Error saying what is wrong with it. */
export function compileDefragRule(source: string): DefragRule {
  const bad = (why: string) =>
    new Error(
      `invalid --defrag-rule ${JSON.stringify(source)}: ${why} (variables: dbSize, dbSizeInUse, dbQuota, dbQuotaUsage)`,
    );
  let program: ReturnType<typeof compile>;
  try {
    program = compile(source);
  } catch (e) {
    throw bad(errorText(e));
  }
  const run = (s: MemberSizes): boolean => {
    const result = program(bindings(s));
    if (isCelError(result)) throw bad(result.message);
    if (typeof result !== "boolean") throw bad(`it yields ${celTypeName(result)}, not a bool`);
    return result;
  };
  // A trial run over sample sizes finds unknown names and non-bool results now.
  run({ dbSize: 1n, dbSizeInUse: 1n, dbQuota: ETCD_DEFAULT_QUOTA_BYTES });
  return { source, matches: run };
}
