/**
 * The routes of a node to the other nodes' pods: one controller on the node
 * agent's Manager watches the Nodes through the shared cache and, on any
 * change, makes this network namespace's routes `<podCIDR> via <InternalIP>`
 * (proto HEARTH_ROUTE_PROTOCOL) what `podRoutes` says, from the whole cache
 * (one request key, so a burst of Node changes costs one pass). A route whose
 * prefix overlaps a route of the machine that is not Hearth's (a host
 * network, another Hearth's bridge) is not added: `ip route replace` would
 * take it over. What was added is recorded before it is added
 * (route-inventory.ts); routes no Node wants any more are deleted, and every
 * one when the Manager stops.
 */
import type { Node } from "../../api/index.js";
import {
  type Cache,
  type Manager,
  onStop,
  type ReconcileContext,
  type TypedReconciler,
} from "../../runtime/index.js";
import { netsOverlap, parseIpv4Net } from "../ipv4.js";
import {
  deleteRoute,
  type IpOptions,
  listRoutes,
  type RouteLine,
  replaceRoute,
} from "./ip-route.js";
import { type PodRoute, podRoutes, type RoutingSelf, routingChanged } from "./pod-routes.js";
import {
  type RouteEntry,
  readRouteInventory,
  removeRouteInventory,
  routeInventoryPath,
  routeKey,
  writeRouteInventory,
} from "./route-inventory.js";

const NODE = { apiVersion: "v1", kind: "Node" };
const ROUTES = { name: "routes" };

export interface PodRoutesOptions extends RoutingSelf, IpOptions {
  /** Where the inventory of added routes lives (`DIR/pod-routes.json`). */
  dataDir: string;
  /** Told of Nodes left out and routes not added, once per change of the message. */
  warn?(msg: string): void;
}

/** The lines of `routes` that are not Hearth's and overlap `cidr`: what a replace would take over. */
export function clashingRoutes(routes: RouteLine[], cidr: string): string[] {
  const net = parseIpv4Net(cidr)!;
  return routes
    .filter((r) => !r.hearth && r.dst !== "default" && r.dst !== "")
    .filter((r) => netsOverlap(parseIpv4Net(r.dst)!, net))
    .map((r) => r.text);
}

class PodRouteReconciler implements TypedReconciler {
  private cache: Cache | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private lastSaid = "";
  private readonly file: string;

  constructor(private readonly opts: PodRoutesOptions) {
    this.file = routeInventoryPath(opts.dataDir);
  }

  register(manager: Manager): void {
    this.cache = manager.cache;
    manager
      .controller("pod-routes")
      .watches(NODE, () => [ROUTES], { predicates: [routingChanged] })
      .complete(this);
    manager.add(onStop(() => this.stop()));
  }

  async reconcile(_req: unknown, _ctx: ReconcileContext): Promise<void> {
    const cache = this.cache;
    if (!cache) throw new Error("pod routes: reconcile before register");
    if (this.stopped) return;
    const run = this.sync(cache);
    this.running = run.catch(() => {});
    await run;
  }

  private async sync(cache: Cache): Promise<void> {
    const nodes = (await cache.list<Node>(NODE, { noCopy: true })).items;
    const plan = podRoutes(nodes, this.opts);
    const machine = await listRoutes(this.opts);
    const said = [...plan.skipped];
    const wanted: PodRoute[] = [];
    for (const r of plan.routes) {
      const clash = clashingRoutes(machine, r.cidr);
      if (clash.length === 0) wanted.push(r);
      else said.push(`Node ${r.node}: pod CIDR ${r.cidr} overlaps ${clash.join("; ")}: not routed`);
    }
    const text = said.join("\n");
    if (text && text !== this.lastSaid) this.opts.warn?.(`pod routes: left out:\n${text}`);
    this.lastSaid = text;
    if (this.stopped) return;

    const held = readRouteInventory(this.file);
    writeRouteInventory(this.file, [...held, ...wanted]);
    const errors: string[] = [];
    for (const r of wanted)
      await replaceRoute(r, this.opts).catch((e: unknown) => errors.push(String(e)));
    const keep = new Set(wanted.map(routeKey));
    const gone = held.filter((r) => !keep.has(routeKey(r)));
    const left = await this.remove(gone, errors);
    writeRouteInventory(this.file, [...wanted, ...left]);
    if (errors.length > 0)
      throw new Error(`cannot set the routes to other nodes' pods: ${errors.join("; ")}`);
  }

  /** Deletes `routes`; returns those that could not be (kept in the inventory for the next try). */
  private async remove(routes: RouteEntry[], errors: string[]): Promise<RouteEntry[]> {
    const left: RouteEntry[] = [];
    for (const r of routes)
      await deleteRoute(r, this.opts).catch((e: unknown) => {
        errors.push(String(e));
        left.push(r);
      });
    return left;
  }

  private async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
    const errors: string[] = [];
    const left = await this.remove(readRouteInventory(this.file), errors);
    if (left.length > 0) {
      writeRouteInventory(this.file, left);
      this.opts.warn?.(`pod routes: not removed at stop: ${errors.join("; ")}`);
    } else removeRouteInventory(this.file);
  }
}

/** Keeps this node's routes to the other nodes' pod CIDRs on `manager`; they go when it stops. */
export function registerPodRoutes(manager: Manager, opts: PodRoutesOptions): void {
  new PodRouteReconciler(opts).register(manager);
}
