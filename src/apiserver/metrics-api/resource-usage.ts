/**
 * Where the metrics API's figures come from: each node agent's
 * `/metrics/resource`, scraped when a request asks for the node and kept in
 * a UsageHistory per node (the last two scrapes). A node scraped less than
 * `freshMs` ago is not scraped again, and requests arriving while a scrape
 * runs share it, so one `kubectl top` (or several at once) reads each node
 * once. When the last scrape is older than `staleMs` (or there is none), the
 * node is sampled twice, `freshMs` apart, so the figures describe the last
 * second rather than the time since someone last asked; otherwise the
 * window is the time since the previous scrape (between `freshMs` and
 * `staleMs`). A node that cannot be reached, or answers with an error, is
 * left out of the answer and logged once until it answers again.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Node } from "../../api/index.js";
import {
  agentGet,
  agentUrl,
  type NodeClientTls,
  type NodeConnection,
  nodeConnectionOf,
} from "../node-connection.js";
import { readResourceMetrics } from "./resource-scrape.js";
import { UsageHistory } from "./usage-history.js";

export interface ResourceUsageOptions {
  /** A node scraped less than this long ago (ms) is not scraped again; also the first window. */
  freshMs?: number;
  /** A last scrape older than this (ms) is not measured from: the node is sampled twice. */
  staleMs?: number;
  /** How long one scrape may take (ms). */
  timeoutMs?: number;
  log?: (msg: string, err?: unknown) => void;
  /** The apiserver's client certificate for the node API (node-connection.ts). */
  tls?: NodeClientTls;
  /** The text of a node's `/metrics/resource` (tests); the agent's by default. */
  scrape?: (node: NodeConnection, signal: AbortSignal) => Promise<string>;
  /** A monotonic clock in ms (tests); `performance.now` by default. */
  now?: () => number;
}

interface NodeEntry {
  history: UsageHistory;
  /** When the last scrape was tried (the clock), failed or not. */
  triedAt?: number;
  /** When the last scrape succeeded. */
  scrapedAt?: number;
  pending?: Promise<boolean>;
  reachable: boolean;
  usedAt: number;
}

const METRICS_PATH = "/metrics/resource";

async function scrapeAgent(node: NodeConnection, signal: AbortSignal): Promise<string> {
  const { status, body } = await agentGet(node, METRICS_PATH, signal);
  if (status !== 200)
    throw new Error(`Get "${agentUrl(node, METRICS_PATH)}": ${status}: ${body.slice(0, 200)}`);
  return body;
}

export class ResourceUsage {
  private readonly entries = new Map<string, NodeEntry>();
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly timeoutMs: number;
  private readonly log: (msg: string, err?: unknown) => void;
  private readonly scrape: (node: NodeConnection, signal: AbortSignal) => Promise<string>;
  private readonly now: () => number;
  private readonly tls: NodeClientTls | undefined;

  constructor(
    private readonly signal: AbortSignal,
    opts: ResourceUsageOptions = {},
  ) {
    this.freshMs = opts.freshMs ?? 1000;
    this.staleMs = opts.staleMs ?? 60_000;
    this.timeoutMs = opts.timeoutMs ?? 5000;
    this.log = opts.log ?? (() => {});
    this.scrape = opts.scrape ?? scrapeAgent;
    this.now = opts.now ?? (() => performance.now());
    this.tls = opts.tls;
  }

  /** The usage histories of `nodes`, brought up to date; nodes that could not be read are left out. */
  async measure(nodes: Node[]): Promise<Map<string, UsageHistory>> {
    const now = this.now();
    const answers = await Promise.all(
      nodes.map(async (node) => {
        const name = node.metadata.name ?? "";
        const entry = this.entry(name, now);
        const ok = await this.refresh(entry, node, now);
        return [name, ok ? entry.history : undefined] as const;
      }),
    );
    this.prune(now);
    const out = new Map<string, UsageHistory>();
    for (const [name, history] of answers) if (history) out.set(name, history);
    return out;
  }

  private entry(name: string, now: number): NodeEntry {
    let entry = this.entries.get(name);
    if (!entry) {
      entry = { history: new UsageHistory(), reachable: true, usedAt: now };
      this.entries.set(name, entry);
    }
    entry.usedAt = now;
    return entry;
  }

  private refresh(entry: NodeEntry, node: Node, now: number): Promise<boolean> {
    if (entry.pending) return entry.pending;
    if (entry.triedAt !== undefined && now - entry.triedAt < this.freshMs)
      return Promise.resolve(entry.reachable);
    const stale = entry.scrapedAt === undefined || now - entry.scrapedAt > this.staleMs;
    const run = async () => {
      try {
        if (!(await this.scrapeOnce(entry, node))) return false;
        if (stale) {
          await delay(this.freshMs, undefined, { signal: this.signal });
          return await this.scrapeOnce(entry, node);
        }
        return true;
      } catch {
        // Only the server's stop ends the wait above.
        return false;
      } finally {
        entry.pending = undefined;
      }
    };
    entry.pending = run();
    return entry.pending;
  }

  /** One scrape into the node's history; false (logged on the first failure) when it fails. */
  private async scrapeOnce(entry: NodeEntry, node: Node): Promise<boolean> {
    const name = node.metadata.name ?? "";
    try {
      const connection = nodeConnectionOf(node, this.tls);
      const signal = AbortSignal.any([this.signal, AbortSignal.timeout(this.timeoutMs)]);
      const text = await this.scrape(connection, signal);
      entry.history.store(readResourceMetrics(text));
      entry.triedAt = entry.scrapedAt = this.now();
      if (!entry.reachable) this.log(`metrics: node ${name} answers again`);
      entry.reachable = true;
      return true;
    } catch (e) {
      entry.triedAt = this.now();
      if (entry.reachable && !this.signal.aborted)
        this.log(`metrics: cannot read the resource usage of node ${name}; it is left out`, e);
      entry.reachable = false;
      return false;
    }
  }

  /** Forgets nodes nobody asked about for ten stale periods (deleted Nodes among them). */
  private prune(now: number): void {
    for (const [name, entry] of this.entries)
      if (!entry.pending && now - entry.usedAt > 10 * this.staleMs) this.entries.delete(name);
  }
}
