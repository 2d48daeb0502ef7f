/**
 * PATCH: JSON patch, merge patch, strategic merge patch (built-in kinds only: a
 * custom kind has no patch strategy, so kube answers 415 for it) and server-side
 * apply, which creates the object when absent. A patch is applied to the current
 * state and stored at its revision; a concurrent write makes it retry.
 */

import {
  ApiError,
  BadRequestError,
  ConflictError,
  isObject,
  type KubeObject,
  NotFoundError,
  rfc3339,
  STALE_OBJECT_MESSAGE,
} from "../../api/index.js";
import { parseJson, parseYaml, readBody } from "../http/body.js";
import { sendJson } from "../http/respond.js";
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  decodePatchType,
  serverSideApply,
} from "../patch/index.js";
import { apiVersionOf } from "../resources/resource-type.js";
import { admitCreate, admitUpdate, checkEnvelope } from "./admit.js";
import { admit, type RequestContext, warningHeaders } from "./context.js";
import { checkWriteOptions, isDryRun } from "./request-options.js";
import { checkNamespaceAcceptsContent, persistUpdate, storeNew } from "./write.js";

const PATCH_TYPES =
  "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";
const MAX_ATTEMPTS = 5;

export async function handlePatch(ctx: RequestContext): Promise<void> {
  const t = ctx.type;
  const contentType = ctx.req.headers["content-type"];
  const type = decodePatchType(contentType ?? "");
  // kube's PatchResource checks the type against the kind's supported ones first.
  if (!type || (type === "strategic" && !t.strategicMergePatch)) {
    throw new ApiError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES}${t.strategicMergePatch ? ", application/strategic-merge-patch+json" : ""}`,
    );
  }
  const text = await readBody(ctx.req);
  // The options are checked before the patch is decoded, as kube-apiserver does.
  checkWriteOptions(ctx.query, "PatchOptions", type);
  const patch = type === "apply" ? parseYaml(text) : parseJson(text);
  if (type === "apply") checkApplyMetadata(patch);
  for (let attempt = 1; ; attempt++) {
    const old = await ctx.server.store.tryGet(t, ctx.info.namespace, ctx.info.name!);
    try {
      const result = old
        ? await patchExisting(ctx, type, patch, old)
        : await applyCreate(ctx, type, patch);
      sendJson(ctx.res, result.created ? 201 : 200, result.object, warningHeaders(ctx));
      return;
    } catch (e) {
      // A concurrent writer moved the object: patch the new state, unless the patch pinned a revision.
      const pinned =
        isObject(patch) && isObject(patch.metadata) && patch.metadata.resourceVersion !== undefined;
      if (
        e instanceof ConflictError &&
        e.message.endsWith(STALE_OBJECT_MESSAGE) &&
        !pinned &&
        attempt < MAX_ATTEMPTS
      )
        continue;
      throw e;
    }
  }
}

/**
 * managedFields belong to the server in an apply: kube's field manager refuses a
 * patch that sets them (`GetManagedFields() != nil`, so any list, even empty).
 */
function checkApplyMetadata(patch: unknown): void {
  if (isObject(patch) && isObject(patch.metadata) && Array.isArray(patch.metadata.managedFields))
    throw new BadRequestError("metadata.managedFields must be nil");
}

async function applyCreate(
  ctx: RequestContext,
  type: string,
  patch: unknown,
): Promise<{ object: KubeObject; created: boolean }> {
  const t = ctx.type;
  if (type !== "apply")
    throw new NotFoundError({ group: t.group, resource: t.plural, name: ctx.info.name });
  const applied = checkEnvelope(ctx, structuredClone(patch));
  if (applied.metadata.name !== ctx.info.name) {
    throw new BadRequestError(
      `the name of the object (${applied.metadata.name}) does not match the name on the URL (${ctx.info.name})`,
    );
  }
  const merged = applyConfiguration(ctx, undefined, applied);
  const obj = admitCreate(ctx, merged, { keepManagedFields: true });
  await checkNamespaceAcceptsContent(ctx, obj.metadata.namespace);
  await admit(ctx, "CREATE", obj, undefined);
  if (isDryRun(ctx)) return { object: obj, created: true };
  return { object: await storeNew(ctx, obj), created: true };
}

/** Server-side apply of `applied` by this request's field manager onto `live`. */
function applyConfiguration(
  ctx: RequestContext,
  live: KubeObject | undefined,
  applied: KubeObject,
): KubeObject {
  return serverSideApply({
    live,
    applied: stripForApply(applied),
    manager: ctx.query.get("fieldManager")!,
    force: ctx.query.get("force") === "true",
    schema: ctx.type.schema,
    apiVersion: apiVersionOf(ctx.type),
    now: rfc3339(),
  });
}

function stripForApply(obj: KubeObject): KubeObject {
  const {
    uid: _u,
    creationTimestamp: _c,
    generation: _g,
    managedFields: _m,
    resourceVersion: _r,
    ...metadata
  } = obj.metadata;
  return { ...obj, metadata };
}

async function patchExisting(
  ctx: RequestContext,
  type: string,
  patch: unknown,
  old: KubeObject,
): Promise<{ object: KubeObject; created: boolean }> {
  const t = ctx.type;
  let next: KubeObject;
  switch (type) {
    case "json":
      next = applyJsonPatch(old, patch);
      break;
    case "merge":
      next = applyMergePatch(old, patch);
      break;
    case "strategic":
      next = applyStrategicMergePatch(old, patch, t.schema);
      break;
    default:
      next = applyConfiguration(ctx, old, checkEnvelope(ctx, structuredClone(patch)));
  }
  if (!isObject(next) || !isObject(next.metadata))
    throw new BadRequestError("the patch removed the object's metadata");
  const rv = next.metadata.resourceVersion;
  if (rv !== undefined && rv !== old.metadata.resourceVersion) {
    throw new ConflictError(
      { group: t.group, resource: t.plural, name: ctx.info.name },
      STALE_OBJECT_MESSAGE,
    );
  }
  next.metadata.resourceVersion = old.metadata.resourceVersion;
  const envelope = checkEnvelope(ctx, next);
  // An apply has recorded its own managedFields entry; other patches are Updates.
  const admitted = admitUpdate(ctx, envelope, old, { keepManagedFields: type === "apply" });
  const stored = await persistUpdate(ctx, admitted, old);
  return { object: stored, created: false };
}
