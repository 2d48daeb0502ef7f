/**
 * The Namespace kind and its lifecycle in the apiserver, as kube-apiserver's
 * namespace registry: `spec.finalizers: [kubernetes]` by default; a DELETE marks it
 * `Terminating` and a repeated DELETE while content is being removed is a
 * Conflict; only the `/finalize` subresource changes `spec.finalizers` (a plain
 * update keeps them, as kube's strategy does); the namespace is removed once both
 * `spec.finalizers` and `metadata.finalizers` are empty. The namespace controller
 * empties it and removes the `kubernetes` finalizer.
 */
import {
  ConflictError,
  isObject,
  type KubeObject,
  MethodNotAllowedError,
  STALE_OBJECT_MESSAGE,
} from "../../api/index.js";
import { admitUpdate, checkEnvelope } from "../handlers/admit.js";
import { type RequestContext, warningHeaders } from "../handlers/context.js";
import { persistUpdate } from "../handlers/write.js";
import { decodeBody, readBodyBytes } from "../http/body.js";
import { sendJson } from "../http/respond.js";
import { namespaceSchema } from "../schemas/index.js";
import { validateNamespace } from "./namespace-validation.js";
import type { ResourceType } from "./resource-type.js";
import { STANDARD_VERBS } from "./resource-type.js";

export const KUBERNETES_FINALIZER = "kubernetes";
export const PROTECTED_NAMESPACES = ["default", "kube-system", "kube-public"];

type NamespaceSpec = { finalizers?: string[] };
type NamespaceStatus = { phase?: string; conditions?: unknown[] };

export function specFinalizers(obj: KubeObject): string[] {
  return ((obj.spec as NamespaceSpec | undefined)?.finalizers ?? []).slice();
}

/** kube-apiserver labels every namespace with its own name. */
function nameLabel(obj: KubeObject): void {
  obj.metadata.labels = {
    ...(obj.metadata.labels ?? {}),
    "kubernetes.io/metadata.name": obj.metadata.name ?? "",
  };
}

function phaseOf(obj: KubeObject): string {
  return (obj.status as NamespaceStatus | undefined)?.phase ?? "";
}

/**
 * PUT /api/v1/namespaces/<name>/finalize, as kube's finalize strategy: the body is
 * a whole Namespace, checked like any update (kind, name matching the URL,
 * schema — `spec.finalizers` must be a list of strings — resourceVersion), its
 * status ignored, and its `spec.finalizers` validated by name. A body that is
 * refused writes nothing and leaves the finalizers as they were.
 */
async function finalize(ctx: RequestContext): Promise<void> {
  if (ctx.req.method !== "PUT")
    throw new MethodNotAllowedError("only PUT is supported on namespaces/finalize");
  const body = checkEnvelope(
    ctx,
    decodeBody(await readBodyBytes(ctx.req), ctx.req.headers["content-type"]),
  );
  const old = await ctx.server.store.get(ctx.type, undefined, ctx.info.name!);
  const rv = body.metadata.resourceVersion;
  if (rv && rv !== old.metadata.resourceVersion)
    throw new ConflictError(
      { group: "", resource: "namespaces", name: ctx.info.name },
      STALE_OBJECT_MESSAGE,
    );
  // The plain update's prepareForUpdate keeps the stored finalizers; finalize takes the body's.
  const finalizeType: ResourceType = { ...ctx.type, prepareForUpdate: prepareForFinalize };
  const admitted = admitUpdate(
    { ...ctx, type: finalizeType, info: { ...ctx.info, subresource: undefined } },
    body,
    old,
  );
  sendJson(ctx.res, 200, await persistUpdate(ctx, admitted, old), warningHeaders(ctx));
}

function prepareForFinalize(obj: KubeObject, old: KubeObject): void {
  nameLabel(obj);
  if (old.metadata.deletionTimestamp) {
    obj.status = { ...((obj.status as object | undefined) ?? {}), phase: "Terminating" };
  }
}

export const namespaceType: ResourceType = {
  group: "",
  version: "v1",
  kind: "Namespace",
  listKind: "NamespaceList",
  plural: "namespaces",
  singular: "namespace",
  namespaced: false,
  shortNames: ["ns"],
  categories: [],
  verbs: STANDARD_VERBS,
  status: true,
  nameRule: "dns1123-label",
  strategicMergePatch: true,
  schema: namespaceSchema,
  columns: [
    { name: "Status", type: "string", description: "The status of the namespace", cell: phaseOf },
  ],
  selectableFields: (o) => ({ "status.phase": phaseOf(o) }),
  prepareForCreate(obj) {
    obj.status = { phase: "Active" };
    const spec = (isObject(obj.spec) ? obj.spec : {}) as NamespaceSpec;
    // As kube: every new namespace carries `kubernetes`, so its content is always removed.
    const finalizers = spec.finalizers ?? [];
    if (!finalizers.includes(KUBERNETES_FINALIZER)) finalizers.push(KUBERNETES_FINALIZER);
    spec.finalizers = finalizers;
    obj.spec = spec;
    nameLabel(obj);
  },
  prepareForUpdate(obj, old) {
    // Only `finalize` changes spec.finalizers: a plain update or patch keeps the stored ones.
    obj.spec = { ...(isObject(obj.spec) ? obj.spec : {}), finalizers: specFinalizers(old) };
    if ((old.spec as NamespaceSpec | undefined)?.finalizers === undefined)
      delete (obj.spec as NamespaceSpec).finalizers;
    prepareForFinalize(obj, old);
  },
  validate: validateNamespace,
  undeletable: (o) =>
    PROTECTED_NAMESPACES.includes(o.metadata.name ?? "")
      ? "this namespace may not be deleted"
      : undefined,
  pendingFinalizers: specFinalizers,
  prepareForDelete(obj) {
    if (obj.metadata.deletionTimestamp && specFinalizers(obj).length > 0) {
      throw new ConflictError(
        { group: "", resource: "namespaces", name: obj.metadata.name },
        "The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.",
      );
    }
    obj.status = { ...((obj.status as object | undefined) ?? {}), phase: "Terminating" };
  },
  subresourceHandlers: { finalize },
};
