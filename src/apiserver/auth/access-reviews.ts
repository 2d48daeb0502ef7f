/**
 * authorization.k8s.io/v1 SelfSubjectAccessReview (may I?), SubjectAccessReview
 * (may this user?) and LocalSubjectAccessReview (may this user, in this
 * namespace?): each asks the server's authorizer and answers in `status`
 * (`allowed`, `reason`, `evaluationError`), as `kubectl auth can-i` reads it.
 */

import type { KubeObject } from "../../api/index.js";
import {
  BadRequestError,
  type FieldError,
  InvalidError,
  invalidValue,
  requiredValue,
} from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import {
  localSubjectAccessReviewSchema,
  selfSubjectAccessReviewSchema,
  subjectAccessReviewSchema,
} from "../schemas/authorization.js";
import { reviewType, withStatus } from "./review-type.js";
import type { AuthorizationAttributes, UserInfo } from "./types.js";

const GROUP = "authorization.k8s.io";

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: { path?: string; verb?: string } | null;
  user?: string;
  groups?: string[] | null;
  uid?: string;
  extra?: Record<string, string[]> | null;
}

function specOf(body: KubeObject): AccessReviewSpec {
  const spec = body.spec;
  return typeof spec === "object" && spec !== null ? (spec as AccessReviewSpec) : {};
}

/** kube's ValidateSelfSubjectAccessReviewSpec: exactly one kind of attributes. */
function validateAttributes(spec: AccessReviewSpec): FieldError[] {
  if (spec.resourceAttributes && spec.nonResourceAttributes)
    return [
      invalidValue(
        "spec.nonResourceAttributes",
        spec.nonResourceAttributes,
        "cannot be specified in combination with resourceAttributes",
      ),
    ];
  if (!spec.resourceAttributes && !spec.nonResourceAttributes)
    return [
      requiredValue(
        "spec.resourceAttributes",
        "exactly one of nonResourceAttributes or resourceAttributes must be specified",
      ),
    ];
  return [];
}

function check(kind: string, errors: FieldError[]): void {
  if (errors.length > 0) throw new InvalidError({ group: GROUP, kind, name: "" }, errors);
}

export function attributesFor(user: UserInfo, spec: AccessReviewSpec): AuthorizationAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? "",
      isResourceRequest: true,
      path: "",
      apiGroup: r.group ?? "",
      apiVersion: r.version ?? "",
      resource: r.resource ?? "",
      subresource: r.subresource ?? "",
      namespace: r.namespace ?? "",
      name: r.name ?? "",
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return {
    user,
    verb: n.verb ?? "",
    isResourceRequest: false,
    path: n.path ?? "",
    apiGroup: "",
    apiVersion: "",
    resource: "",
    subresource: "",
    namespace: "",
    name: "",
  };
}

async function answer(ctx: RequestContext, body: KubeObject, user: UserInfo): Promise<KubeObject> {
  const decision = await ctx.server.authorizer.authorize(attributesFor(user, specOf(body)));
  return withStatus(body, {
    allowed: decision.allowed,
    ...(decision.reason ? { reason: decision.reason } : {}),
  });
}

/** The user a SubjectAccessReview asks about (no groups are added). */
function subjectOf(kind: string, spec: AccessReviewSpec): UserInfo {
  if (!spec.user && (spec.groups ?? []).length === 0)
    check(kind, [
      invalidValue("spec.user", spec.user ?? "", "at least one of user or group must be specified"),
    ]);
  return {
    username: spec.user ?? "",
    groups: spec.groups ?? [],
    ...(spec.uid ? { uid: spec.uid } : {}),
    ...(spec.extra ? { extra: spec.extra } : {}),
  };
}

export const selfSubjectAccessReviewType = reviewType({
  group: GROUP,
  kind: "SelfSubjectAccessReview",
  plural: "selfsubjectaccessreviews",
  namespaced: false,
  schema: selfSubjectAccessReviewSchema,
  review(ctx, body) {
    check("SelfSubjectAccessReview", validateAttributes(specOf(body)));
    return answer(ctx, body, ctx.user);
  },
});

export const subjectAccessReviewType = reviewType({
  group: GROUP,
  kind: "SubjectAccessReview",
  plural: "subjectaccessreviews",
  namespaced: false,
  schema: subjectAccessReviewSchema,
  review(ctx, body) {
    const spec = specOf(body);
    check("SubjectAccessReview", validateAttributes(spec));
    return answer(ctx, body, subjectOf("SubjectAccessReview", spec));
  },
});

export const localSubjectAccessReviewType = reviewType({
  group: GROUP,
  kind: "LocalSubjectAccessReview",
  plural: "localsubjectaccessreviews",
  namespaced: true,
  schema: localSubjectAccessReviewSchema,
  review(ctx, body) {
    const namespace = ctx.info.namespace ?? "";
    if (namespace === "") throw new BadRequestError("namespace is required on this type: ");
    const spec = specOf(body);
    const errors = validateAttributes(spec);
    const attrNs = spec.resourceAttributes?.namespace ?? "";
    if (spec.resourceAttributes && attrNs !== namespace)
      errors.push(
        invalidValue("spec.resourceAttributes.namespace", attrNs, "must match metadata.namespace"),
      );
    if (spec.nonResourceAttributes)
      errors.push(
        invalidValue(
          "spec.nonResourceAttributes",
          spec.nonResourceAttributes,
          "disallowed on this kind of request",
        ),
      );
    check("LocalSubjectAccessReview", errors);
    return answer(ctx, body, subjectOf("LocalSubjectAccessReview", spec));
  },
});
