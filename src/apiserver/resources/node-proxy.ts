/**
 * `/api/v1/nodes/<name>/proxy/<path>`: kube-apiserver's node proxy, for
 * those RBAC lets `<verb>` `nodes/proxy` (kube's rule for the kubelet API:
 * the node API serves logs, stats and streams, so only administrators get
 * it). The request goes to the node API as the apiserver (node-connection.ts)
 * with its method, query and body; the answer comes back as the agent gave it.
 * An upgrade is proxied as pods/exec's is (upgrade-proxy.ts), so the node
 * API's streaming routes (`/exec/NS/P/C?command=…&output=1`, `/attach/…`,
 * `/portForward/NS/P`) are reachable this way too, as a kubelet's are.
 */
import { ApiError } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { nodeConnection } from "../node-connection.js";
import { proxyUpgrade, upgradeHeaders } from "./upgrade-proxy.js";

export async function handleNodeProxy(ctx: RequestContext): Promise<void> {
  const name = ctx.info.name!;
  const url = new URL(ctx.req.url ?? "/", "http://apiserver");
  const marker = `/nodes/${name}/proxy`;
  const at = url.pathname.indexOf(marker);
  const rest = at < 0 ? "/" : url.pathname.slice(at + marker.length) || "/";
  const node = await nodeConnection(ctx.server, name);
  const method = ctx.req.method ?? "GET";
  if (ctx.req.headers.upgrade)
    return proxyUpgrade(
      ctx,
      node.request(`${rest}${url.search}`, { method, headers: upgradeHeaders(ctx) }),
    );
  const contentType = ctx.req.headers["content-type"];
  const upstream = node.request(`${rest}${url.search}`, {
    method,
    headers: contentType ? { "content-type": contentType } : {},
  });
  await new Promise<void>((resolve, reject) => {
    upstream.on("response", (res) => {
      ctx.res.writeHead(res.statusCode ?? 502, {
        "Content-Type": res.headers["content-type"] ?? "text/plain",
        "Cache-Control": "no-cache, private",
      });
      res.pipe(ctx.res);
      res.on("end", () => resolve());
      res.on("close", () => resolve());
    });
    upstream.on("error", (e) =>
      reject(new ApiError(500, "InternalError", `error trying to reach service: ${e.message}`)),
    );
    ctx.res.on("close", () => upstream.destroy());
    ctx.req.pipe(upstream);
  });
}
