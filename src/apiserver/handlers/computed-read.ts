/**
 * GET and LIST of a kind computed for each request (`computedRead`), as
 * kube-apiserver serves an aggregated read-only API such as metrics-server's:
 * the object or a list (with an empty resourceVersion: nothing is stored),
 * as JSON or a Table. Watch is refused as kube refuses it on a storage that
 * cannot watch (405 `watch is not supported on resources of kind …`), and
 * every other verb has no route (405).
 */
import { ApiError, MethodNotAllowedError } from "../../api/index.js";
import { negotiate, sendJson } from "../http/respond.js";
import { apiVersionOf, type ComputedRead, qualifiedPlural } from "../resources/resource-type.js";
import { toTable } from "../resources/table.js";
import type { RequestContext } from "./context.js";

export async function handleComputedRead(ctx: RequestContext, read: ComputedRead): Promise<void> {
  const { verb, subresource } = ctx.info;
  if (subresource)
    throw new ApiError(404, "NotFound", "the server could not find the requested resource");
  if (verb === "watch")
    throw new MethodNotAllowedError(
      `watch is not supported on resources of kind ${JSON.stringify(qualifiedPlural(ctx.type))}`,
    );
  if (verb !== "get" && verb !== "list")
    throw new MethodNotAllowedError(
      "the server does not allow this method on the requested resource",
    );
  const { rendering, includeObject } = negotiate(ctx.req, ctx.query);
  const items = verb === "get" ? [await read.get(ctx)] : await read.list(ctx);
  if (rendering === "table") {
    sendJson(ctx.res, 200, toTable(ctx.type, items, { includeObject, withHeaders: true }));
    return;
  }
  if (verb === "get") {
    sendJson(ctx.res, 200, items[0]);
    return;
  }
  sendJson(ctx.res, 200, {
    kind: ctx.type.listKind,
    apiVersion: apiVersionOf(ctx.type),
    metadata: {},
    items,
  });
}
