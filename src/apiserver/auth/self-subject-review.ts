/**
 * authentication.k8s.io/v1 SelfSubjectReview (`kubectl auth whoami`): the user
 * the request authenticated as — or impersonates — with uid, groups and extra.
 */
import type { KubeObject } from "../../api/index.js";
import { selfSubjectReviewSchema } from "../schemas/authentication.js";
import { reviewType, withStatus } from "./review-type.js";

export const selfSubjectReviewType = reviewType({
  group: "authentication.k8s.io",
  kind: "SelfSubjectReview",
  plural: "selfsubjectreviews",
  namespaced: false,
  schema: selfSubjectReviewSchema,
  review(ctx, body: KubeObject) {
    const u = ctx.user;
    return withStatus(body, {
      userInfo: {
        username: u.username,
        ...(u.uid ? { uid: u.uid } : {}),
        groups: u.groups,
        ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
      },
    });
  },
});
