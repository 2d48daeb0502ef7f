/**
 * Field tables for the request bodies kubectl sends to the review and token
 * endpoints: authorization/v1 SelfSubjectAccessReview, SubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectRulesReview, and authentication/v1
 * SelfSubjectReview and TokenRequest. `status` is the server's to fill and is
 * not decoded; SubjectAccessReview `spec.extra` (a map of lists) is skipped.
 */
import { LabelSelectorRequirement, ObjectMeta } from "./meta-messages.js";
import { always, list, message, omitEmpty, pointer } from "./schema.js";

const FieldSelectorRequirement = message("FieldSelectorRequirement", [
  always(1, "key", "string"),
  always(2, "operator", "string"),
  list(3, "values", "string"),
]);

const ResourceAttributes = message("ResourceAttributes", [
  omitEmpty(1, "namespace", "string"),
  omitEmpty(2, "verb", "string"),
  omitEmpty(3, "group", "string"),
  omitEmpty(4, "version", "string"),
  omitEmpty(5, "resource", "string"),
  omitEmpty(6, "subresource", "string"),
  omitEmpty(7, "name", "string"),
  pointer(
    8,
    "fieldSelector",
    message("FieldSelectorAttributes", [
      omitEmpty(1, "rawSelector", "string"),
      list(2, "requirements", FieldSelectorRequirement),
    ]),
  ),
  pointer(
    9,
    "labelSelector",
    message("LabelSelectorAttributes", [
      omitEmpty(1, "rawSelector", "string"),
      list(2, "requirements", LabelSelectorRequirement),
    ]),
  ),
]);

const NonResourceAttributes = message("NonResourceAttributes", [
  omitEmpty(1, "path", "string"),
  omitEmpty(2, "verb", "string"),
]);

export const SelfSubjectAccessReview = message("SelfSubjectAccessReview", [
  always(1, "metadata", ObjectMeta),
  always(
    2,
    "spec",
    message("SelfSubjectAccessReviewSpec", [
      pointer(1, "resourceAttributes", ResourceAttributes),
      pointer(2, "nonResourceAttributes", NonResourceAttributes),
    ]),
  ),
]);

const SubjectAccessReviewSpec = message("SubjectAccessReviewSpec", [
  pointer(1, "resourceAttributes", ResourceAttributes),
  pointer(2, "nonResourceAttributes", NonResourceAttributes),
  omitEmpty(3, "user", "string"),
  list(4, "groups", "string"),
  omitEmpty(6, "uid", "string"),
]);

/** SubjectAccessReview and LocalSubjectAccessReview share one shape. */
export const SubjectAccessReview = message("SubjectAccessReview", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", SubjectAccessReviewSpec),
]);

export const SelfSubjectRulesReview = message("SelfSubjectRulesReview", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", message("SelfSubjectRulesReviewSpec", [omitEmpty(1, "namespace", "string")])),
]);

export const SelfSubjectReview = message("SelfSubjectReview", [always(1, "metadata", ObjectMeta)]);

export const TokenRequest = message("TokenRequest", [
  always(1, "metadata", ObjectMeta),
  always(
    2,
    "spec",
    message("TokenRequestSpec", [
      list(1, "audiences", "string"),
      pointer(4, "expirationSeconds", "int64"),
      pointer(
        3,
        "boundObjectRef",
        message("BoundObjectReference", [
          omitEmpty(1, "kind", "string"),
          omitEmpty(2, "apiVersion", "string"),
          omitEmpty(3, "name", "string"),
          omitEmpty(4, "uid", "string"),
        ]),
      ),
    ]),
  ),
]);
