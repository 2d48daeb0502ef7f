/**
 * kube-apiserver's connect subresources of a Pod: `pods/exec`, `pods/attach`
 * (GET or POST, an upgrade to WebSocket `v5`/`v4.channel.k8s.io` or to
 * SPDY/3.1) and `pods/portforward` (WebSocket `SPDY/3.1+portforward.k8s.io`
 * or SPDY/3.1). The apiserver checks the pod and the container with kube's
 * wording, then proxies the upgrade to the node agent that runs the pod
 * (node-connection.ts) and, once the agent has switched protocols, copies
 * bytes both ways; the agent speaks to the runtime (docs/streaming.md).
 */
import { BadRequestError, MethodNotAllowedError, type Pod } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { nodeConnection } from "../node-connection.js";
import { logContainer } from "./pod-log.js";
import { proxyUpgrade, upgradeHeaders } from "./upgrade-proxy.js";

/** PodExecOptions' stream flags and the kubelet API's names for them. */
const KUBELET_STREAM_PARAMS = [
  ["stdin", "input"],
  ["stdout", "output"],
  ["stderr", "error"],
  ["tty", "tty"],
] as const;

/** The query the agent gets: kube's PodExecOptions / PodAttachOptions / PodPortForwardOptions. */
function agentQuery(kind: "exec" | "attach" | "portforward", q: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  if (kind === "portforward") {
    for (const p of q.getAll("ports")) for (const one of p.split(",")) out.append("port", one);
    return out;
  }
  if (kind === "exec") for (const c of q.getAll("command")) out.append("command", c);
  // kube-apiserver's streamParams: the kubelet's names for the streams, "1" for on.
  for (const [name, kubelet] of KUBELET_STREAM_PARAMS) {
    const v = q.get(name);
    if (v === "true" || v === "1") out.set(kubelet, "1");
  }
  return out;
}

function checkPorts(q: URLSearchParams): void {
  for (const p of q.getAll("ports"))
    for (const one of p.split(",")) {
      const n = Number(one);
      if (!/^\d+$/.test(one) || n < 1 || n > 65535)
        throw new BadRequestError(
          `invalid port: ${JSON.stringify(one)}: must be between 1 and 65535`,
        );
    }
}

export function connectHandler(kind: "exec" | "attach" | "portforward") {
  return async (ctx: RequestContext): Promise<void> => {
    const method = ctx.req.method;
    if (method !== "GET" && method !== "POST")
      throw new MethodNotAllowedError(
        "the server does not allow this method on the requested resource",
      );
    const pod = (await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!)) as Pod;
    const podName = pod.metadata.name ?? "";
    let path: string;
    const ns = encodeURIComponent(pod.metadata.namespace ?? "");
    const name = encodeURIComponent(podName);
    if (kind === "portforward") {
      checkPorts(ctx.query);
      path = `/portForward/${ns}/${name}`;
    } else {
      const container = logContainer(pod, ctx.query.get("container"));
      const route = kind === "exec" ? "exec" : "attach";
      path = `/${route}/${ns}/${name}/${encodeURIComponent(container)}`;
    }
    const nodeName = pod.spec.nodeName;
    if (!nodeName) throw new BadRequestError(`pod ${podName} does not have a host assigned`);
    if (!ctx.req.headers.upgrade) throw new BadRequestError("Upgrade request required");
    const node = await nodeConnection(ctx.server, nodeName);
    await proxyUpgrade(
      ctx,
      node.request(`${path}?${agentQuery(kind, ctx.query)}`, {
        method,
        headers: upgradeHeaders(ctx),
      }),
    );
  };
}
