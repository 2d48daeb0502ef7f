/** GET of one object and LIST of a collection, as objects or Tables. */
import { BadRequestError } from "../../api/errors.js";
import { negotiate, sendJson } from "../http/respond.js";
import { apiVersionOf } from "../resources/resource-type.js";
import { toTable } from "../resources/table.js";
import type { RequestContext } from "./context.js";
import { selectorFilter } from "./filter.js";

export async function handleGet(ctx: RequestContext): Promise<void> {
  const { rendering, includeObject } = negotiate(ctx.req);
  const obj = await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!);
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

export function parseLimit(query: URLSearchParams): number | undefined {
  const raw = query.get("limit");
  if (raw === null || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new BadRequestError(`invalid limit: ${raw}`);
  return n;
}

export async function handleList(ctx: RequestContext): Promise<void> {
  const { rendering, includeObject } = negotiate(ctx.req);
  const t = ctx.type;
  const rv = ctx.query.get("resourceVersion") ?? undefined;
  if (rv && rv !== "0" && !/^\d+$/.test(rv))
    throw new BadRequestError(`invalid resource version: ${rv}`);
  const query = {
    namespace: ctx.info.namespace,
    limit: parseLimit(ctx.query),
    continue: ctx.query.get("continue") ?? undefined,
    resourceVersion: rv,
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
