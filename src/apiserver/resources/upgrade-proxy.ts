/**
 * kube's UpgradeAwareHandler for the apiserver's connections to node agents
 * (pods/exec, pods/attach, pods/portforward and upgrades through
 * nodes/proxy): the upgrade goes to the agent with the client's upgrade
 * headers; once the agent answers 101 the bytes are copied both ways, never
 * read.
 */
import type { ClientRequest } from "node:http";
import type { Socket } from "node:net";
import { ApiError } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { markUpgraded } from "../http/upgraded.js";
import { trackLongRunning } from "../metrics.js";

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

/** The client's upgrade headers, to send on to the agent. */
export function upgradeHeaders(ctx: RequestContext): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const h of UPGRADE_HEADERS) {
    const v = ctx.req.headersDistinct[h];
    if (v) headers[h] = v;
  }
  return headers;
}

/**
 * Sends `upstream` (an upgrade request to the agent) and, once the agent has
 * switched protocols, writes its 101 to the client and copies bytes both ways
 * until either side closes or the server stops; a refusal is passed on as
 * the agent wrote it. The request counts as long-running while it lasts.
 */
export async function proxyUpgrade(ctx: RequestContext, upstream: ClientRequest): Promise<void> {
  const endTracking = trackLongRunning(ctx.info, ctx.query);
  try {
    await copyUpgraded(ctx, upstream);
  } finally {
    endTracking();
  }
}

function copyUpgraded(ctx: RequestContext, upstream: ClientRequest): Promise<void> {
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
