/**
 * Authentication and authorization: who a request is (static tokens, client
 * certificates, ServiceAccount tokens, impersonation), how authorizers combine,
 * and the computed review kinds of authentication.k8s.io and authorization.k8s.io.
 */
import type { ResourceType } from "../resources/resource-type.js";
import {
  localSubjectAccessReviewType,
  selfSubjectAccessReviewType,
  subjectAccessReviewType,
} from "./access-reviews.js";
import { selfSubjectRulesReviewType } from "./rules-review.js";
import { selfSubjectReviewType } from "./self-subject-review.js";

export { unionAuthenticator } from "./authenticator-union.js";
export { privilegedGroups, unionAuthorizer } from "./authorizer-union.js";
export { ClientCertificateAuthenticator, verifyClientChain } from "./client-certificate.js";
export { impersonate } from "./impersonation.js";
export { ServiceAccountTokenAuthenticator } from "./service-account-authenticator.js";
export {
  DEFAULT_ISSUER,
  ServiceAccountTokens,
  serviceAccountGroups,
  serviceAccountUsername,
} from "./service-account-tokens.js";
export { ANONYMOUS_ADMIN, StaticTokenAuthenticator } from "./static-tokens.js";
export { loadTokenFile, parseTokenFile } from "./token-file.js";
export { handleTokenRequest } from "./token-request.js";
export * from "./types.js";

/** The create-only kinds that answer questions about the requesting user. */
export const AUTH_REVIEW_TYPES: ResourceType[] = [
  selfSubjectReviewType,
  localSubjectAccessReviewType,
  selfSubjectAccessReviewType,
  selfSubjectRulesReviewType,
  subjectAccessReviewType,
];
