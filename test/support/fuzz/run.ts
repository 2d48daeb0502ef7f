/**
 * The fuzz runner: sends a seed's requests one by one to a server where nothing
 * else writes and checks, after each, the properties of issue 11:
 * - no 5xx but the ones kube itself returns (the request says which);
 * - a request that was refused (any status but 2xx, or no answer) moved no
 *   revision: nothing was created, changed or deleted;
 * - a request kube surely refuses is not accepted;
 * and after each batch that the server is alive (/healthz). After a request
 * that succeeded and wrote, it lets in-server follow-ups settle (ClusterRole
 * aggregation and the cleanup of a deleted CRD, the only writers inside the
 * server that react to a request's write) and re-creates the sentinels the
 * writes removed.
 */
import type { Backend, StorageEvent } from "../../../src/storage/index.js";
import { FuzzGenerator } from "./generate.js";
import { describe, type FuzzRequest } from "./request.js";
import { type Answer, Sender } from "./send.js";
import type { Sentinels } from "./sentinels.js";

export type ViolationKind = "5xx" | "write" | "accepted" | "no-answer" | "down";

export interface Violation {
  kind: ViolationKind;
  index: number;
  request: FuzzRequest;
  answer: Answer;
  /** For "write": what the refused request wrote. */
  writes?: string[];
}

export interface RunResult {
  seed: number;
  sent: number;
  statuses: Map<number, number>;
  violations: Violation[];
  /** The slowest requests (ms, what), slowest first. */
  slowest: [number, string][];
  /** Milliseconds spent in requests, and in settling and repairing after them. */
  timing: { requests: number; upkeep: number };
}

export interface RunOptions {
  url: string;
  backend: Backend;
  sentinels: Sentinels;
  seed: number;
  count: number;
  batch?: number;
}

export async function runFuzz(opts: RunOptions): Promise<RunResult> {
  const gen = new FuzzGenerator(opts.seed);
  const sender = new Sender(opts.url);
  const result: RunResult = {
    seed: opts.seed,
    sent: 0,
    statuses: new Map(),
    violations: [],
    slowest: [],
    timing: { requests: 0, upkeep: 0 },
  };
  const batch = opts.batch ?? 100;
  const stuckCrds = new Set<string>();
  try {
    for (let i = 0; i < opts.count; i++) {
      const req = gen.next();
      const before = await opts.backend.currentRevision();
      const started = performance.now();
      const answer = await sender.send(req);
      const took = performance.now() - started;
      result.timing.requests += took;
      if (answer.status === -1) continue; // Node's client would not send it; nothing to check
      result.slowest.push([Math.round(took), `#${i} ${req.what} → ${answer.status}`]);
      result.slowest.sort((a, b) => b[0] - a[0]);
      result.slowest.length = Math.min(result.slowest.length, 5);
      result.sent++;
      result.statuses.set(answer.status, (result.statuses.get(answer.status) ?? 0) + 1);
      const after = await opts.backend.currentRevision();
      const ok = answer.status >= 200 && answer.status < 300;
      const add = (kind: ViolationKind, writes?: string[]) =>
        result.violations.push({
          kind,
          index: i,
          request: req,
          answer,
          ...(writes ? { writes } : {}),
        });
      if (!ok && after !== before) add("write", await changes(opts.backend, before, after));
      if (answer.status >= 500 && !kubeAnswers5xx(req, answer)) add("5xx");
      if (answer.status === 0 && !req.raw) add("no-answer");
      if (ok && req.mustRefuse) add("accepted");
      if (ok && after !== before) {
        const upkeep = performance.now();
        let keys = (await events(opts.backend, before, after)).map((e) => e.kv.key);
        if (keys.some((k) => k.startsWith(CRDS))) await crdsSettled(opts.backend, stuckCrds);
        if (keys.some((k) => k.startsWith(CLUSTER_ROLES) || k.startsWith(CRDS))) {
          const settled = await settle(opts.backend, sender);
          if (settled !== after)
            keys = keys.concat((await events(opts.backend, after, settled)).map((e) => e.kv.key));
        }
        await opts.sentinels.repair(keys);
        result.timing.upkeep += performance.now() - upkeep;
      }
      if ((i + 1) % batch === 0 || i === opts.count - 1) {
        const health = await sender.send(healthz);
        if (health.status !== 200) {
          add("down");
          break;
        }
      }
    }
  } finally {
    sender.close();
  }
  return result;
}

/** Whether `answer` is the 5xx kube itself gives `req`: its status and its message. */
function kubeAnswers5xx(req: FuzzRequest, answer: Answer): boolean {
  const kube = req.kube5xx;
  if (kube === undefined || answer.status !== kube.status) return false;
  // An answer to HEAD has no body to carry the message.
  return req.method === "HEAD" ? answer.text === "" : kube.message.test(answer.text);
}

const CLUSTER_ROLES = "/registry/rbac.authorization.k8s.io/clusterroles/";
const CRDS = "/registry/apiextensions.k8s.io/customresourcedefinitions/";

/**
 * Waits (bounded) until no CRD is being deleted: the server's CRD cleanup
 * deletes a deleted CRD's objects and then the CRD on its own, in steps. A CRD
 * still going at the deadline (its objects' finalizers hold it) is `stuck` and
 * not waited for again.
 */
async function crdsSettled(backend: Backend, stuck: Set<string>): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const { items } = await backend.list(CRDS);
    const going = items
      .filter((kv) => !stuck.has(kv.key))
      .filter(
        (kv) =>
          (JSON.parse(kv.value) as { metadata?: { deletionTimestamp?: string } }).metadata
            ?.deletionTimestamp,
      );
    if (going.length === 0) return;
    if (Date.now() > deadline) {
      for (const kv of going) stuck.add(kv.key);
      return;
    }
    await new Promise((r) => setImmediate(r));
  }
}

const healthz: FuzzRequest = { method: "GET", target: "/healthz", headers: {}, what: "healthz" };

/**
 * The revision once in-server follow-ups of a write have landed: ClusterRole
 * aggregation reacts to a ClusterRole change within the server and writes on
 * its own. Settled when a round trip to the server passes with no new revision.
 */
async function settle(backend: Backend, sender: Sender): Promise<number> {
  const deadline = Date.now() + 5_000;
  let rev = await backend.currentRevision();
  for (;;) {
    await sender.send(healthz);
    const now = await backend.currentRevision();
    if (now === rev || Date.now() > deadline) return now;
    rev = now;
  }
}

/** The storage events with revisions in (from, to]. */
async function events(backend: Backend, from: number, to: number): Promise<StorageEvent[]> {
  const out: StorageEvent[] = [];
  const stop = new AbortController();
  let done!: () => void;
  const all = new Promise<void>((r) => {
    done = r;
  });
  await backend.watch(
    "/",
    {
      after: from,
      onEvent: (e) => {
        if (e.kv.modRevision <= to) out.push(e);
        if (e.kv.modRevision >= to) done();
      },
      onError: () => done(),
    },
    stop.signal,
  );
  const timer = setTimeout(done, 5_000);
  await all;
  clearTimeout(timer);
  stop.abort();
  return out;
}

/** What a refused request wrote, one line per storage event. */
async function changes(backend: Backend, from: number, to: number): Promise<string[]> {
  return (await events(backend, from, to)).map(
    (e) =>
      `${e.type === "delete" ? "deleted" : e.prev ? "changed" : "created"} ${e.kv.key} @${e.kv.modRevision}`,
  );
}

/** One violation, with all a person needs to reproduce it. */
export function report(seed: number, v: Violation): string {
  const r = v.request;
  const why =
    v.kind === "write"
      ? `a refused request wrote:\n    ${(v.writes ?? []).join("\n    ")}`
      : v.kind === "accepted"
        ? `accepted, but kube refuses ${r.mustRefuse}`
        : v.kind === "5xx"
          ? "a 5xx kube does not return"
          : v.kind === "no-answer"
            ? `no answer: ${v.answer.error}`
            : "the server is not alive (/healthz)";
  return [
    `[${v.kind}] seed ${seed} request #${v.index} (${r.what}): ${why}`,
    `  ${describe(r)}`,
    `  → ${v.answer.status} ${v.answer.text.slice(0, 600)}`,
  ].join("\n");
}

/** The class of a violation, for counting alike ones together: what went wrong, not where. */
export function violationClass(v: Violation): string {
  switch (v.kind) {
    case "accepted":
      return `accepted: ${v.request.mustRefuse}`;
    case "5xx":
    case "write":
      return `${v.kind === "write" ? "wrote, then answered" : "answered"} ${v.answer.status}: ${messageOf(v.answer)}`;
    case "no-answer":
      return `no answer: ${v.answer.error}`;
    default:
      return "server down";
  }
}

/** A Status message with names, numbers and quoted values blanked out. */
function messageOf(a: Answer): string {
  let message = a.text;
  try {
    message = String((JSON.parse(a.text) as { message?: unknown }).message ?? message);
  } catch {
    // not JSON: keep the text
  }
  return message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, "N")
    .slice(0, 100);
}
