/**
 * authorization.k8s.io/v1 SelfSubjectRulesReview: what the requesting user may
 * do in `spec.namespace`, listed from the authorizer's rules (`kubectl auth
 * can-i --list`). An authorizer that cannot list rules makes it `incomplete`.
 */
import type { KubeObject } from "../../api/index.js";
import { selfSubjectRulesReviewSchema } from "../schemas/authorization.js";
import { reviewType, withStatus } from "./review-type.js";

export const selfSubjectRulesReviewType = reviewType({
  group: "authorization.k8s.io",
  kind: "SelfSubjectRulesReview",
  plural: "selfsubjectrulesreviews",
  namespaced: false,
  schema: selfSubjectRulesReviewSchema,
  review(ctx, body: KubeObject) {
    const spec = (body.spec ?? {}) as { namespace?: string };
    const rules = ctx.server.authorizer.rulesFor?.(ctx.user, spec.namespace ?? "") ?? {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
    };
    return withStatus(body, { ...rules });
  },
});
