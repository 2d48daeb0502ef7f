/**
 * GET, PUT and PATCH of `<plural>/<name>/scale` for custom kinds with a scale
 * subresource. The body is an `autoscaling/v1` Scale; a write sets the object's
 * spec replicas path and goes through the kind's own update path (schema, CEL
 * rules, admission, managedFields under subresource `scale`), then answers with
 * the Scale of the stored object. A PATCH is applied to the current Scale and
 * retried on a concurrent write, as the main resource's.
 */
import {
  ApiError,
  BadRequestError,
  ConflictError,
  InvalidError,
  isObject,
  type KubeObject,
  MethodNotAllowedError,
  STALE_OBJECT_MESSAGE,
} from "../../api/index.js";
import { admitUpdate } from "../handlers/admit.js";
import { type RequestContext, warningHeaders } from "../handlers/context.js";
import { checkWriteOptions } from "../handlers/request-options.js";
import { persistUpdate } from "../handlers/write.js";
import { decodeBody, parseJson, readBody, readBodyBytes } from "../http/body.js";
import { sendJson } from "../http/respond.js";
import { applyJsonPatch, applyMergePatch, decodePatchType } from "../patch/index.js";
import type { ScaleSubresource } from "../resources/resource-type.js";
import { type Scale, scaleErrors, scaleOf, withReplicas } from "./scale.js";

const MAX_ATTEMPTS = 5;

/** The handler of the `scale` subresource for a kind with these replica paths. */
export function scaleHandler(paths: ScaleSubresource): (ctx: RequestContext) => Promise<void> {
  return async (ctx) => {
    switch (ctx.info.verb) {
      case "get": {
        const obj = await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!);
        sendJson(ctx.res, 200, scaleOf(obj, paths));
        return;
      }
      case "update":
        return updateScale(ctx, paths);
      case "patch":
        return patchScale(ctx, paths);
      default:
        throw new MethodNotAllowedError(
          `${ctx.info.verb} is not supported on ${ctx.type.plural}/scale`,
        );
    }
  };
}

async function updateScale(ctx: RequestContext, paths: ScaleSubresource): Promise<void> {
  const bytes = await readBodyBytes(ctx.req);
  checkWriteOptions(ctx.query, "UpdateOptions");
  const body = decodeBody(bytes, ctx.req.headers["content-type"]);
  if (!isObject(body))
    throw new BadRequestError("the body of a scale update must be a Scale object");
  const old = await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!);
  const stored = await writeScale(ctx, paths, body, old);
  sendJson(ctx.res, 200, scaleOf(stored, paths), warningHeaders(ctx));
}

async function patchScale(ctx: RequestContext, paths: ScaleSubresource): Promise<void> {
  const type = decodePatchType(ctx.req.headers["content-type"] ?? "");
  if (!type || type === "apply") {
    throw new ApiError(
      415,
      "UnsupportedMediaType",
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json",
    );
  }
  const text = await readBody(ctx.req);
  // kube's PatchResource checks PatchOptions for every patch, the scale subresource's too.
  checkWriteOptions(ctx.query, "PatchOptions", type);
  const patch = parseJson(text);
  for (let attempt = 1; ; attempt++) {
    const old = await ctx.server.store.get(ctx.type, ctx.info.namespace, ctx.info.name!);
    const current = scaleOf(old, paths);
    const patched =
      type === "json" ? applyJsonPatch(current, patch) : applyMergePatch(current, patch);
    try {
      const stored = await writeScale(ctx, paths, patched, old);
      sendJson(ctx.res, 200, scaleOf(stored, paths), warningHeaders(ctx));
      return;
    } catch (e) {
      const pinned =
        isObject(patch) && isObject(patch.metadata) && "resourceVersion" in patch.metadata;
      if (e instanceof ConflictError && !pinned && attempt < MAX_ATTEMPTS) continue;
      throw e;
    }
  }
}

/** Validates `scale`, writes its replicas into `old` and stores the result. */
async function writeScale(
  ctx: RequestContext,
  paths: ScaleSubresource,
  scale: Record<string, unknown>,
  old: KubeObject,
): Promise<KubeObject> {
  const errors = scaleErrors(scale);
  if (errors.length > 0)
    throw new InvalidError({ group: "autoscaling", kind: "Scale", name: ctx.info.name }, errors);
  const meta = isObject(scale.metadata) ? scale.metadata : {};
  const rv = meta.resourceVersion;
  if (typeof rv === "string" && rv !== "" && rv !== old.metadata.resourceVersion) {
    throw new ConflictError(
      { group: ctx.type.group, resource: ctx.type.plural, name: ctx.info.name },
      STALE_OBJECT_MESSAGE,
    );
  }
  const replicas = (scale as Partial<Scale>).spec?.replicas ?? 0;
  const next = admitUpdate(ctx, withReplicas(old, paths, replicas), old);
  return persistUpdate(ctx, next, old);
}
