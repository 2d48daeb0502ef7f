/**
 * The reads behind PodMetrics and NodeMetrics, as metrics-server's REST
 * storage does them: the pods (nodes) come from the API, chosen by the
 * request's namespace, name and selectors; their figures come from the
 * agents of the nodes they run on (ResourceUsage), and those not measured
 * yet are left out of a list (a get of one is NotFound). A pod or node that
 * does not exist is the core kind's NotFound, as metrics-server's listers
 * answer. Lists are sorted by namespace and name.
 */
import { type KubeObject, type Node, NotFoundError, type Pod } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { selectorFilter } from "../handlers/filter.js";
import type { ResourceType } from "../resources/resource-type.js";
import {
  METRICS_GROUP,
  type NodeMetrics,
  nodeMetrics,
  type PodMetrics,
  podMetrics,
} from "./metrics-objects.js";
import { podKey } from "./resource-scrape.js";

function coreType(ctx: RequestContext, plural: "pods" | "nodes"): ResourceType {
  const t = ctx.server.registry.lookup("", "v1", plural);
  if (!t) throw new Error(`${plural} are not served`);
  return t;
}

const byName = (a: KubeObject, b: KubeObject) =>
  (a.metadata.namespace ?? "").localeCompare(b.metadata.namespace ?? "") ||
  (a.metadata.name ?? "").localeCompare(b.metadata.name ?? "");

/** The Nodes named, as stored; missing ones are left out. */
async function nodesNamed(ctx: RequestContext, names: Set<string>): Promise<Node[]> {
  const t = coreType(ctx, "nodes");
  const nodes = await Promise.all(
    [...names].map((n) => ctx.server.store.tryGet(t, undefined, n) as Promise<Node | undefined>),
  );
  return nodes.filter((n): n is Node => n !== undefined);
}

async function metricsOfPods(ctx: RequestContext, pods: Pod[]): Promise<PodMetrics[]> {
  const usage = ctx.server.resourceUsage;
  if (!usage) return [];
  const nodeNames = new Set(pods.flatMap((p) => (p.spec.nodeName ? [p.spec.nodeName] : [])));
  const histories = await usage.measure(await nodesNamed(ctx, nodeNames));
  const out: PodMetrics[] = [];
  for (const pod of [...pods].sort(byName)) {
    const history = histories.get(pod.spec.nodeName ?? "");
    const measured = history?.podUsage(
      podKey(pod.metadata.namespace ?? "", pod.metadata.name ?? ""),
    );
    if (measured) out.push(podMetrics(pod, measured));
  }
  return out;
}

async function metricsOfNodes(ctx: RequestContext, nodes: Node[]): Promise<NodeMetrics[]> {
  const usage = ctx.server.resourceUsage;
  if (!usage) return [];
  const histories = await usage.measure(nodes);
  const out: NodeMetrics[] = [];
  for (const node of [...nodes].sort(byName)) {
    const measured = histories.get(node.metadata.name ?? "")?.nodeUsage();
    if (measured) out.push(nodeMetrics(node, measured));
  }
  return out;
}

export const podMetricsRead = {
  async get(ctx: RequestContext): Promise<KubeObject> {
    const namespace = ctx.info.namespace ?? "";
    const name = ctx.info.name ?? "";
    const pod = await ctx.server.store.get(coreType(ctx, "pods"), namespace, name);
    const [found] = await metricsOfPods(ctx, [pod as Pod]);
    if (!found)
      throw new NotFoundError({
        group: METRICS_GROUP,
        resource: "pods",
        name: `${namespace}/${name}`,
      });
    return found;
  },
  async list(ctx: RequestContext): Promise<KubeObject[]> {
    const filter = selectorFilter(ctx.type, ctx.query);
    const page = await ctx.server.store.list(coreType(ctx, "pods"), {
      namespace: ctx.info.namespace,
      ...(filter ? { filter } : {}),
    });
    return metricsOfPods(ctx, page.items as Pod[]);
  },
};

export const nodeMetricsRead = {
  async get(ctx: RequestContext): Promise<KubeObject> {
    const name = ctx.info.name ?? "";
    const node = await ctx.server.store.get(coreType(ctx, "nodes"), undefined, name);
    const [found] = await metricsOfNodes(ctx, [node as Node]);
    if (!found) throw new NotFoundError({ group: METRICS_GROUP, resource: "nodes", name });
    return found;
  },
  async list(ctx: RequestContext): Promise<KubeObject[]> {
    const filter = selectorFilter(ctx.type, ctx.query);
    const page = await ctx.server.store.list(coreType(ctx, "nodes"), filter ? { filter } : {});
    return metricsOfNodes(ctx, page.items as Node[]);
  },
};
