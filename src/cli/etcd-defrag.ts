/**
 * `hearth etcd-defrag --endpoints URL[,URL…] [--cacert F --cert F --key F]
 * [--cluster] [--defrag-rule EXPR] [--compaction] [--etcd-storage-quota-bytes N]
 * [--dry-run]`: defragments etcd members whose status matches the rule (see
 * `platform/apps/etcd/defrag.ts`), the job the Etcd app's hourly CronJob runs.
 * Prints a line per member; exits non-zero when a member failed. Bad flags or a
 * rule that does not compile are refused before anything is contacted.
 */
import { readFileSync } from "node:fs";
import { errorText } from "../client/index.js";
import {
  compileDefragRule,
  DEFAULT_DEFRAG_RULE,
  defragment,
  ETCD_DEFAULT_QUOTA_BYTES,
  type EtcdTls,
} from "../platform/index.js";
import { parseArgs } from "./args.js";

const BOOLEANS = ["cluster", "compaction", "dry-run"];
const VALUES = ["endpoints", "cacert", "cert", "key", "defrag-rule", "etcd-storage-quota-bytes"];
const KNOWN = [...BOOLEANS, ...VALUES];

function readFlagFile(flag: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new Error(`--${flag} ${path}: ${errorText(e)}`);
  }
}

function endpointsFlag(value: string | undefined): string[] {
  if (!value) throw new Error("--endpoints is required (e.g. https://127.0.0.1:2379)");
  const urls = value.split(",").map((s) => s.trim());
  for (const u of urls)
    if (!/^https?:\/\/[^/\s]+:\d+\/?$/.test(u))
      throw new Error(`--endpoints: ${JSON.stringify(u)} is not a URL such as https://host:2379`);
  return urls;
}

function quotaFlag(value: string | undefined): bigint {
  if (value === undefined) return ETCD_DEFAULT_QUOTA_BYTES;
  if (!/^[1-9][0-9]*$/.test(value))
    throw new Error(
      `--etcd-storage-quota-bytes must be a positive integer, got ${JSON.stringify(value)}`,
    );
  return BigInt(value);
}

function tlsFlags(flags: Map<string, string>): EtcdTls | undefined {
  const [ca, cert, key] = [flags.get("cacert"), flags.get("cert"), flags.get("key")];
  if (!!cert !== !!key) throw new Error("--cert and --key go together");
  if ((cert || key) && !ca) throw new Error("--cert and --key need --cacert");
  if (!ca) return undefined;
  return {
    ca: readFlagFile("cacert", ca),
    ...(cert ? { cert: readFlagFile("cert", cert) } : {}),
    ...(key ? { key: readFlagFile("key", key) } : {}),
  };
}

export async function etcdDefrag(argv: string[]): Promise<void> {
  for (const a of argv)
    if (a.startsWith("--") && !KNOWN.includes(a.slice(2).split("=")[0]!))
      throw new Error(`etcd-defrag: unknown flag ${a.split("=")[0]}`);
  const args = parseArgs(argv, BOOLEANS);
  if (args.positional.length > 0)
    throw new Error(`etcd-defrag: unexpected argument ${JSON.stringify(args.positional[0])}`);
  const rule = compileDefragRule(args.flags.get("defrag-rule") ?? DEFAULT_DEFRAG_RULE);
  const endpoints = endpointsFlag(args.flags.get("endpoints"));
  const tls = tlsFlags(args.flags);
  const on = (flag: string) => args.flags.get(flag) === "true";
  const result = await defragment({
    endpoints,
    ...(tls ? { tls } : {}),
    cluster: on("cluster"),
    compaction: on("compaction"),
    dryRun: on("dry-run"),
    quotaBytes: quotaFlag(args.flags.get("etcd-storage-quota-bytes")),
    rule,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  if (!result.ok) {
    const failed = result.members.filter((m) => m.action === "failed").map((m) => m.endpoint);
    throw new Error(`etcd-defrag failed on ${failed.join(", ")}`);
  }
}
