/**
 * GET `/api/v1/namespaces/<ns>/pods/<name>/log`: kube-apiserver's pod log
 * subresource. The apiserver checks the container and the options, then
 * proxies to the node agent that runs the pod (node-connection.ts). `follow` streams until the container's
 * run ends, the client goes away or the server stops.
 */
import { ApiError, BadRequestError, MethodNotAllowedError, type Pod } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { parseInt64 } from "../handlers/list-options.js";
import { trackLongRunning } from "../metrics.js";
import { agentUrl, type NodeConnection, nodeConnection } from "../node-connection.js";

function isTrue(v: string | null): boolean {
  return v === "true" || v === "1";
}

/** The container whose log is asked for; kube's wording for a missing or wrong name. */
export function logContainer(pod: Pod, asked: string | null): string {
  const names = [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])].map(
    (c) => c.name,
  );
  const podName = pod.metadata.name ?? "";
  if (!asked) {
    if ((pod.spec.containers ?? []).length === 1) return pod.spec.containers[0]!.name;
    throw new BadRequestError(
      `a container name must be specified for pod ${podName}, choose one of: [${names.join(" ")}]`,
    );
  }
  if (!names.includes(asked))
    throw new BadRequestError(`container ${asked} is not valid for pod ${podName}`);
  return asked;
}

function checkOptions(query: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of ["tailLines", "limitBytes", "sinceSeconds"]) {
    const v = query.get(name);
    if (v === null) continue;
    // kube converts the query to PodLogOptions first: an int64 that does not parse is a 400.
    const n = parseInt64(v);
    const min = name === "tailLines" ? 0 : 1;
    if (n < min)
      throw new ApiError(
        422,
        "Invalid",
        `PodLogOptions "" is invalid: ${name}: Invalid value: ${v}: must be greater than ${min === 0 ? "or equal to 0" : "0"}`,
      );
    out.set(name, String(n));
  }
  for (const name of ["follow", "previous", "timestamps"])
    if (isTrue(query.get(name))) out.set(name, "true");
  // Other parameters are ignored, as kube's conversion of the query to
  // PodLogOptions reads only the fields it knows: kubectl's `timeout` (from
  // --request-timeout) among them, which kube does not apply to a log stream.
  return out;
}

export async function handlePodLog(ctx: RequestContext): Promise<void> {
  if (ctx.req.method !== "GET")
    throw new MethodNotAllowedError(
      "the server does not allow this method on the requested resource",
    );
  const pod = (await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!)) as Pod;
  const container = logContainer(pod, ctx.query.get("container"));
  const query = checkOptions(ctx.query);
  const nodeName = pod.spec.nodeName;
  if (!nodeName) {
    // kube-apiserver: a pod not yet on a node has no log, and no error.
    ctx.res.writeHead(200, { "Content-Type": "text/plain" });
    ctx.res.end();
    return;
  }
  const node = await nodeConnection(ctx.server, nodeName);
  const path = `/containerLogs/${encodeURIComponent(pod.metadata.namespace ?? "")}/${encodeURIComponent(pod.metadata.name ?? "")}/${encodeURIComponent(container)}?${query}`;
  // kube counts a log stream as a long-running CONNECT while it is served.
  const endTracking = trackLongRunning(ctx.info, ctx.query);
  try {
    await proxy(ctx, node, path);
  } finally {
    endTracking();
  }
}

function proxy(ctx: RequestContext, node: NodeConnection, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const upstream = node.request(path, { method: "GET" });
    const stop = () => upstream.destroy();
    ctx.res.on("close", stop);
    upstream.on("error", (e) => {
      ctx.res.off("close", stop);
      if (ctx.res.headersSent) {
        ctx.res.end();
        resolve();
      } else
        reject(new ApiError(500, "InternalError", `Get "${agentUrl(node, path)}": ${e.message}`));
    });
    upstream.on("response", (res) => {
      const code = res.statusCode ?? 500;
      const type = res.headers["content-type"] ?? "text/plain";
      ctx.res.writeHead(code, { "Content-Type": type, "Cache-Control": "no-cache, private" });
      // A followed log may stay quiet for long: the client gets the headers now.
      ctx.res.flushHeaders();
      res.pipe(ctx.res);
      res.on("end", () => resolve());
      res.on("close", () => resolve());
    });
    upstream.end();
  });
}
