/**
 * `hearth etcd-defrag`'s work, as ahrtr/etcd-defrag (the tool Cozystack's
 * CronJob runs) does it on the etcd3 client: find the members (with
 * `cluster`, every member's client URL from MemberList), optionally compact
 * the keyspace at the current revision, read each member's maintenance status,
 * and defragment the members the rule matches — followers first and the leader
 * last, because a defragmenting member stalls, and a stalled leader stalls
 * everyone. One line per member; a member that fails does not stop the others
 * but makes the result not ok.
 */
import type { Etcd3, IOptions } from "etcd3";
import { errorText } from "../../../client/index.js";
import type { DefragRule, MemberSizes } from "./defrag-rule.js";

export interface EtcdTls {
  ca: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

export interface DefragOptions {
  endpoints: string[];
  tls?: EtcdTls;
  /** Defragment every member of the cluster, not only `endpoints`. */
  cluster: boolean;
  rule: DefragRule;
  /** Compact at the current revision (physically) before defragmenting. */
  compaction: boolean;
  /** The backend quota `dbQuota` stands for. */
  quotaBytes: bigint;
  dryRun: boolean;
  log(line: string): void;
}

export interface MemberOutcome {
  endpoint: string;
  memberId?: string;
  leader?: boolean;
  sizes?: MemberSizes;
  action: "defragmented" | "skipped" | "would defragment" | "failed";
  /** dbSize after a defragmentation. */
  dbSizeAfter?: bigint;
  error?: string;
}

const DIAL_TIMEOUT_MS = 10_000;

/** etcd3 (and its gRPC stack) loads on first use: `hearth up` imports this module but never calls it. */
function connect(Client: typeof Etcd3, hosts: string[], tls: EtcdTls | undefined): Etcd3 {
  const options: IOptions = { hosts, dialTimeout: DIAL_TIMEOUT_MS };
  if (tls)
    options.credentials = {
      rootCertificate: tls.ca,
      ...(tls.key ? { privateKey: tls.key } : {}),
      ...(tls.cert ? { certChain: tls.cert } : {}),
    };
  return new Client(options);
}

const message = errorText;
const hexId = (id: string) => BigInt(id).toString(16);

/** The first client URL of every member that has one (unstarted learners have none). */
async function clusterEndpoints(client: Etcd3): Promise<string[]> {
  const { members } = await client.cluster.memberList({});
  const urls = members.map((m) => m.clientURLs[0]).filter((u): u is string => !!u);
  if (urls.length === 0) throw new Error("MemberList returned no member with a client URL");
  return [...new Set(urls)];
}

async function compact(client: Etcd3, log: (line: string) => void): Promise<void> {
  const status = await client.maintenance.status();
  const revision = status.header.revision;
  try {
    await client.kv.compact({ revision, physical: true });
    log(`compacted the keyspace at revision ${revision}`);
  } catch (e) {
    // Nothing was written since the last compaction: there is nothing to compact.
    if (!/required revision has been compacted/.test(message(e))) throw e;
    log(`revision ${revision} is already compacted`);
  }
}

interface Member {
  endpoint: string;
  client: Etcd3;
  outcome: MemberOutcome;
}

async function readStatus(m: Member, quota: bigint): Promise<void> {
  const s = await m.client.maintenance.status();
  m.outcome.memberId = hexId(s.header.member_id);
  m.outcome.leader = s.header.member_id === s.leader;
  m.outcome.sizes = {
    dbSize: BigInt(s.dbSize),
    dbSizeInUse: BigInt(s.dbSizeInUse),
    dbQuota: quota,
  };
}

function describe(o: MemberOutcome): string {
  const who = `${o.endpoint}${o.memberId ? ` (member ${o.memberId}${o.leader ? ", leader" : ""})` : ""}`;
  const sizes = o.sizes
    ? ` dbSize=${o.sizes.dbSize} dbSizeInUse=${o.sizes.dbSizeInUse} dbQuota=${o.sizes.dbQuota}`
    : "";
  const after = o.dbSizeAfter !== undefined ? ` → dbSize=${o.dbSizeAfter}` : "";
  const error = o.error ? `: ${o.error}` : "";
  return `${who}:${sizes} ${o.action}${after}${error}`;
}

/** Runs one pass; `ok` is false when any member could not be read or defragmented. */
export async function defragment(
  opts: DefragOptions,
): Promise<{ ok: boolean; members: MemberOutcome[] }> {
  const { Etcd3 } = await import("etcd3");
  const seed = connect(Etcd3, opts.endpoints, opts.tls);
  const members: Member[] = [];
  try {
    const endpoints = opts.cluster ? await clusterEndpoints(seed) : opts.endpoints;
    if (opts.compaction && !opts.dryRun) await compact(seed, opts.log);
    for (const endpoint of endpoints) {
      const m: Member = {
        endpoint,
        client: connect(Etcd3, [endpoint], opts.tls),
        outcome: { endpoint, action: "skipped" },
      };
      members.push(m);
      try {
        await readStatus(m, opts.quotaBytes);
      } catch (e) {
        m.outcome.action = "failed";
        m.outcome.error = `status: ${message(e)}`;
      }
    }
    // Followers first, the leader last (a stable sort keeps the endpoints' order otherwise).
    const order = [...members].sort(
      (a, b) => Number(!!a.outcome.leader) - Number(!!b.outcome.leader),
    );
    for (const m of order) {
      const o = m.outcome;
      if (o.action === "failed" || !o.sizes) {
        opts.log(describe(o));
        continue;
      }
      if (!opts.rule.matches(o.sizes)) o.action = "skipped";
      else if (opts.dryRun) o.action = "would defragment";
      else
        try {
          await m.client.maintenance.defragment();
          o.dbSizeAfter = BigInt((await m.client.maintenance.status()).dbSize);
          o.action = "defragmented";
        } catch (e) {
          o.action = "failed";
          o.error = `defragment: ${message(e)}`;
        }
      opts.log(describe(o));
    }
  } finally {
    for (const m of members) m.client.close();
    seed.close();
  }
  const outcomes = members.map((m) => m.outcome);
  return { ok: outcomes.every((o) => o.action !== "failed"), members: outcomes };
}
