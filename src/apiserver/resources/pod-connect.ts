/**
 * kube-apiserver's connect subresources of a Pod: `pods/exec`, `pods/attach`
 * (GET or POST, an upgrade to WebSocket `v5`/`v4.channel.k8s.io` or to
 * SPDY/3.1) and `pods/portforward` (WebSocket `SPDY/3.1+portforward.k8s.io`
 * or SPDY/3.1). The apiserver checks the pod and the container with kube's
 * wording, then proxies the upgrade to the node agent that runs the pod
 * (node-connection.ts) and, once the agent has switched protocols, copies
 * bytes both ways; the agent speaks to the runtime (docs/streaming.md).
 */
import type { Socket } from "node:net";
import { ApiError, BadRequestError, MethodNotAllowedError, type Pod } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { markUpgraded } from "../http/upgraded.js";
import { trackLongRunning } from "../metrics.js";
import { nodeConnection } from "../node-connection.js";
import { logContainer } from "./pod-log.js";

/** The headers of an upgrade the agent must see as the client sent them. */
const UPGRADE_HEADERS = [
  "connection",
  "upgrade",
  "sec-websocket-key",
  "sec-websocket-version",
  "sec-websocket-protocol",
  "sec-websocket-extensions",
  "x-stream-protocol-version",
];

/** The query the agent gets: kube's PodExecOptions / PodAttachOptions / PodPortForwardOptions. */
function agentQuery(kind: "exec" | "attach" | "portforward", q: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  if (kind === "portforward") {
    for (const p of q.getAll("ports")) for (const one of p.split(",")) out.append("port", one);
    return out;
  }
  if (kind === "exec") for (const c of q.getAll("command")) out.append("command", c);
  for (const name of ["stdin", "stdout", "stderr", "tty"]) {
    const v = q.get(name);
    if (v === "true" || v === "1") out.set(name, "true");
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
    const headers: Record<string, string | string[]> = {};
    for (const h of UPGRADE_HEADERS) {
      const v = ctx.req.headersDistinct[h];
      if (v) headers[h] = v;
    }
    const endTracking = trackLongRunning(ctx.info, ctx.query);
    try {
      await proxyUpgrade(
        ctx,
        node.request(`${path}?${agentQuery(kind, ctx.query)}`, { method: method, headers }),
      );
    } finally {
      endTracking();
    }
  };
}

function proxyUpgrade(
  ctx: RequestContext,
  upstream: import("node:http").ClientRequest,
): Promise<void> {
  const client = ctx.req.socket as Socket;
  return new Promise((resolve, reject) => {
    upstream.on("upgrade", (res, socket, head) => {
      markUpgraded(ctx.req);
      const lines = [`HTTP/1.1 101 ${res.statusMessage ?? "Switching Protocols"}`];
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
      client.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) client.write(head);
      // Interactive bytes (a keystroke, a small reply) go at once, not after Nagle's wait.
      client.setNoDelay(true);
      (socket as Socket).setNoDelay?.(true);
      socket.pipe(client);
      client.pipe(socket);
      const close = () => {
        socket.destroy();
        client.destroy();
        ctx.server.signal.removeEventListener("abort", close);
        resolve();
      };
      // Upgraded sockets are the handler's: the server's own close does not reach them.
      ctx.server.signal.addEventListener("abort", close, { once: true });
      socket.on("close", close);
      socket.on("error", close);
      client.on("close", close);
      client.on("error", close);
    });
    upstream.on("response", (res) => {
      // The agent refused before switching (container not running, …): its answer, as it is.
      const type = res.headers["content-type"] ?? "text/plain";
      ctx.res.writeHead(res.statusCode ?? 500, { "Content-Type": type });
      res.pipe(ctx.res);
      res.on("end", () => resolve());
    });
    // kube's UpgradeAwareHandler: a node that cannot be reached is an internal error.
    upstream.on("error", (e) =>
      reject(new ApiError(500, "InternalError", `error dialing backend: ${e.message}`)),
    );
    upstream.end();
  });
}
