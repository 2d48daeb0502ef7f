/**
 * The Service rules of a node in the kernel, in the place of the userspace
 * proxy: one controller on a Manager watches Services and the labelled
 * EndpointSlices through the shared cache and, on any change, rebuilds the
 * whole table from the cache in one nft transaction. Every event maps to one
 * request key, so a burst of changes queued while a rebuild runs makes one
 * rebuild more, not one per event; a failed rebuild is retried by the runtime
 * with back-off. After each rebuild the conntrack entries it left stale (UDP
 * and SCTP flows to endpoints gone, or from before a port had endpoints; see
 * stale-flows.ts) are deleted; a deletion that fails is warned of and retried
 * after the next rebuild, which it asks for with back-off; it never holds the
 * rules back. When the Manager stops, the table is deleted (after a rebuild
 * still in flight), so a clean stop leaves no rule behind.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { Node } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  type Cache,
  type Manager,
  onStop,
  type ReconcileContext,
  type ReconcileResult,
  runOnOwnManager,
  type TypedReconciler,
} from "../../runtime/index.js";
import { podsOf } from "../pod-scope.js";
import { clashingRoutes, listRoutes, podRoutes, routingChanged } from "../routes/index.js";
import { deleteArgs, deleteFlows } from "./conntrack.js";
import { hasHostPorts, hostPortRules, type PodObject } from "./host-ports.js";
import { applyScript, deleteTable, tableContents } from "./nft.js";
import { renderRuleset } from "./ruleset.js";
import type { ServicePortRule } from "./service-ports.js";
import { type FlowFilter, staleFlows } from "./stale-flows.js";
import { type EndpointSliceObject, SERVICE_NAME_LABEL, type ServiceObject } from "./types.js";

const SERVICE = { apiVersion: "v1", kind: "Service" };
const ENDPOINT_SLICE = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" };
const NODE = { apiVersion: "v1", kind: "Node" };
const POD = { apiVersion: "v1", kind: "Pod" };
/** Only slices that name their Service are of use; the server filters the rest. */
const SLICES = { scope: { labelSelector: SERVICE_NAME_LABEL } };
/** The one request: the table is rebuilt whole, whatever changed. */
const TABLE = { name: "table" };

export interface ServiceRulesOptions {
  /** The nftables table (`ip <table>`), one per Hearth: see `tableNameFor`. */
  table: string;
  podCIDR: string;
  serviceCIDR?: string;
  nodeIPs: string[];
  /** This node's name: with it, its pods' host ports are rules too (NodeFacts.hostPorts). */
  nodeName?: string;
  /**
   * See NodeFacts.podBridge. With it, the Nodes are watched too: the other
   * nodes' pod CIDRs that podRoutes routes (NodeFacts.routedCIDRs) are let
   * through the forward rule, in the same transaction as the rest.
   */
  podBridge?: string;
  /** The nft binary (default `nft` on PATH). */
  nft?: string;
  /** The conntrack binary (default `conntrack` on PATH, Debian package conntrack). */
  conntrack?: string;
  /** Told of objects left out of the rules (invalid addresses, names, ports). */
  warn?(msg: string): void;
}

/** The table of the Hearth whose data directory is `dataDir`: `hearth-<8 hex>`. */
export function tableNameFor(dataDir: string): string {
  return `hearth-${createHash("sha256").update(resolve(dataDir)).digest("hex").slice(0, 8)}`;
}

class ServiceRulesReconciler implements TypedReconciler {
  private cache: Cache | undefined;
  /** The rebuild running now, awaited before the table is deleted at stop. */
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private lastSkipped = "";
  /** The service ports the table holds, to tell which flows the next rebuild leaves stale. */
  private ports: ServicePortRule[] = [];
  /** Stale flows whose deletion failed: tried again after the next rebuild. */
  private pendingFlows: FlowFilter[] = [];
  private lastFlowErrors = "";

  constructor(private readonly opts: ServiceRulesOptions) {}

  register(manager: Manager): void {
    this.cache = manager.cache;
    let builder = manager
      .controller("service-rules")
      .watches(SERVICE, () => [TABLE])
      .watches(ENDPOINT_SLICE, () => [TABLE], SLICES);
    if (this.opts.podBridge !== undefined)
      builder = builder.watches(NODE, () => [TABLE], { predicates: [routingChanged] });
    if (this.opts.nodeName !== undefined)
      builder = builder.watches(
        POD,
        (pod) => (hasHostPorts(pod as PodObject) ? [TABLE] : []),
        podsOf(this.opts.nodeName),
      );
    builder.complete(this);
    manager.add(onStop(() => this.stop()));
  }

  async reconcile(_req: unknown, ctx: ReconcileContext): Promise<ReconcileResult> {
    const cache = this.cache;
    if (!cache) throw new Error("service rules: reconcile before register");
    if (this.stopped) return {};
    const run = this.rebuild(cache, ctx.signal);
    this.running = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  private async rebuild(cache: Cache, signal: AbortSignal): Promise<ReconcileResult> {
    const services = (await cache.list<ServiceObject>(SERVICE, { noCopy: true })).items;
    const slices = (
      await cache.list<EndpointSliceObject>(ENDPOINT_SLICE, { ...SLICES, noCopy: true })
    ).items;
    const nft = { ...(this.opts.nft ? { nft: this.opts.nft } : {}), signal };
    const existing = await tableContents(this.opts.table, nft);
    const hostPorts = await this.hostPorts(cache);
    const facts = {
      ...this.opts,
      routedCIDRs: await this.routedCIDRs(cache),
      hostPorts: hostPorts.rules,
    };
    const rendered = renderRuleset(this.opts.table, services, slices, facts, existing);
    const { text, ports } = rendered;
    const skipped = [...hostPorts.skipped, ...rendered.skipped];
    const said = skipped.join("\n");
    if (said && said !== this.lastSkipped) this.opts.warn?.(`service rules: left out:\n${said}`);
    this.lastSkipped = said;
    if (this.stopped) return {};
    await applyScript(text, nft).catch((e: unknown) => {
      throw new Error(
        `cannot rebuild the Service rules in table ${this.opts.table}: ${String(e)}`,
        {
          cause: e,
        },
      );
    });
    const stale = [...this.pendingFlows, ...staleFlows(this.ports, ports)];
    this.ports = ports;
    this.pendingFlows = await this.deleteStaleFlows(stale, signal);
    return this.pendingFlows.length > 0 ? { requeue: true } : {};
  }

  /** Deletes the entries of each of `flows` (each once); resolves to those that failed. */
  private async deleteStaleFlows(flows: FlowFilter[], signal: AbortSignal): Promise<FlowFilter[]> {
    const unique = new Map(flows.map((f) => [deleteArgs(f).join(" "), f]));
    const failed: FlowFilter[] = [];
    const errors: string[] = [];
    const opts = { ...(this.opts.conntrack ? { conntrack: this.opts.conntrack } : {}), signal };
    for (const flow of unique.values())
      await deleteFlows(flow, opts).catch((e: unknown) => {
        failed.push(flow);
        errors.push(`${flow.why}: ${String(e)}`);
      });
    const said = errors.join("\n");
    // A deletion cut short by a stop or a deadline is kept without a word.
    if (said && said !== this.lastFlowErrors && !signal.aborted)
      this.opts.warn?.(
        `service rules: cannot delete stale conntrack entries (tried again):\n${said}`,
      );
    this.lastFlowErrors = said;
    return failed;
  }

  /** The host ports of the pods bound to this node (none without a node name). */
  private async hostPorts(cache: Cache) {
    if (this.opts.nodeName === undefined) return { rules: [], skipped: [] };
    const scope = podsOf(this.opts.nodeName);
    const pods = (await cache.list<PodObject>(POD, { ...scope, noCopy: true })).items;
    return hostPortRules(pods);
  }

  /**
   * The other nodes' pod CIDRs this node routes (none without a pod bridge of
   * Hearth's): the routes controller's plan, without the CIDRs it leaves
   * unrouted because a route of the machine covers them.
   */
  private async routedCIDRs(cache: Cache): Promise<string[]> {
    if (this.opts.podBridge === undefined) return [];
    const nodes = (await cache.list<Node>(NODE, { noCopy: true })).items;
    const self = { name: this.opts.nodeName ?? "", podCIDR: this.opts.podCIDR };
    const { routes } = podRoutes(nodes, self);
    if (routes.length === 0) return [];
    const machine = await listRoutes();
    // Each routed node's pod CIDR and its own address: the host of a node reaches the pods of
    // the others (as every kube node does), from its InternalIP.
    const routed = routes.filter((r) => clashingRoutes(machine, r.cidr).length === 0);
    return [...new Set(routed.flatMap((r) => [r.cidr, `${r.via}/32`]))];
  }

  private async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    await deleteTable(this.opts.table, this.opts.nft ? { nft: this.opts.nft } : {});
  }
}

/** Keeps the Service rules on `manager` (the node agent's); the table goes when the Manager stops. */
export function registerServiceRules(manager: Manager, opts: ServiceRulesOptions): void {
  new ServiceRulesReconciler(opts).register(manager);
}

/** Keeps the Service rules on a Manager of their own until `signal` aborts; resolves once the table is gone. */
export function startServiceRules(
  client: Client,
  signal: AbortSignal,
  opts: ServiceRulesOptions & { log?(msg: string, err?: unknown): void },
): Promise<void> {
  return runOnOwnManager(client, signal, (m) => registerServiceRules(m, opts), {
    ...(opts.log ? { log: opts.log } : {}),
  });
}
