/**
 * GET of one object and LIST of a collection, as objects or Tables. Every query
 * parameter is parsed and validated before the first read.
 */
import { negotiate, sendJson } from "../http/respond.js";
import { apiVersionOf } from "../resources/resource-type.js";
import { toTable } from "../resources/table.js";
import type { RequestContext } from "./context.js";
import { selectorFilter } from "./filter.js";
import { parseListOptions, parseResourceVersion } from "./list-options.js";

export async function handleGet(ctx: RequestContext): Promise<void> {
  const { rendering, includeObject } = negotiate(ctx.req, ctx.query);
  // A get is served from the latest state, which is "not older than" any revision the server has.
  const minRevision = parseResourceVersion(ctx.query.get("resourceVersion")) ?? 0;
  const obj = await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!, minRevision);
  if (rendering === "table") {
    sendJson(
      ctx.res,
      200,
      toTable(ctx.type, [obj], {
        includeObject,
        withHeaders: true,
        resourceVersion: obj.metadata.resourceVersion,
      }),
    );
    return;
  }
  sendJson(ctx.res, 200, obj);
}

export async function handleList(ctx: RequestContext): Promise<void> {
  const { rendering, includeObject } = negotiate(ctx.req, ctx.query);
  const t = ctx.type;
  const opts = parseListOptions(ctx.query, false);
  const query = {
    namespace: ctx.info.namespace,
    limit: opts.limit,
    continue: opts.continue,
    resourceVersion: opts.resourceVersion,
    resourceVersionMatch: opts.resourceVersionMatch,
    filter: selectorFilter(t, ctx.query),
  };
  if (rendering === "object") {
    const raw = await ctx.server.store.listRaw(t, query);
    if (raw) {
      sendJson(ctx.res, 200, listBody(apiVersionOf(t), t.listKind, raw.items, raw));
      return;
    }
  }
  const page = await ctx.server.store.list(t, query);
  if (rendering === "table") {
    sendJson(
      ctx.res,
      200,
      toTable(t, page.items, {
        includeObject,
        withHeaders: true,
        resourceVersion: page.resourceVersion,
        continue: page.continue,
        remainingItemCount: page.remainingItemCount,
      }),
    );
    return;
  }
  sendJson(
    ctx.res,
    200,
    listBody(
      apiVersionOf(t),
      t.listKind,
      page.items.map((o) => JSON.stringify(o)),
      page,
    ),
  );
}

/** Builds the list JSON by concatenating the items' JSON. */
function listBody(
  apiVersion: string,
  listKind: string,
  items: string[],
  meta: { resourceVersion: string; continue?: string; remainingItemCount?: number },
): string {
  const metadata = JSON.stringify({
    resourceVersion: meta.resourceVersion,
    ...(meta.continue ? { continue: meta.continue } : {}),
    ...(meta.remainingItemCount !== undefined
      ? { remainingItemCount: meta.remainingItemCount }
      : {}),
  });
  return `{"kind":${JSON.stringify(listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${metadata},"items":[${items.join(",")}]}`;
}
