/**
 * The shape of a computed, create-only kind (SelfSubjectAccessReview,
 * SelfSubjectReview…): only `create` is served, nothing is stored, and the
 * response is the request with its `status` filled in. The body is checked
 * against the kind's schema first, as kube's typed decoder does, so a review
 * only ever sees fields of the types it declares.
 */
import type { KubeObject, Schema } from "../../api/index.js";
import { checkSchema } from "../handlers/admit.js";
import type { RequestContext } from "../handlers/context.js";
import type { ResourceType } from "../resources/resource-type.js";

export function reviewType(base: {
  group: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  schema: Schema;
  review(ctx: RequestContext, body: KubeObject): Promise<KubeObject> | KubeObject;
}): ResourceType {
  return {
    group: base.group,
    version: "v1",
    kind: base.kind,
    listKind: `${base.kind}List`,
    plural: base.plural,
    singular: base.kind.toLowerCase(),
    namespaced: base.namespaced,
    shortNames: [],
    categories: [],
    verbs: ["create"],
    status: false,
    nameRule: "path-segment",
    strategicMergePatch: true,
    columns: [],
    schema: base.schema,
    virtualCreate: async (ctx: RequestContext, body: KubeObject) =>
      base.review(ctx, checkSchema(ctx, body)),
  };
}

/** The request as the response: metadata kept (kube leaves it as sent), status replaced. */
export function withStatus(body: KubeObject, status: Record<string, unknown>): KubeObject {
  const { status: _ignored, ...rest } = body;
  return { ...rest, status } as KubeObject;
}
