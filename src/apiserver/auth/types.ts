/**
 * Who is asking and whether they may: the user a request authenticated as, the
 * attributes an authorizer decides on (kube-apiserver's `authorizer.Attributes`),
 * and the two interfaces the router calls.
 */
import type { IncomingMessage } from "node:http";

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface Authenticator {
  /** The user, or undefined when the request carries no valid credentials. */
  authenticate(req: IncomingMessage): Promise<UserInfo | undefined> | UserInfo | undefined;
}

export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** For non-resource requests: the URL path. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

export interface Decision {
  allowed: boolean;
  /** Why not (or why), for Forbidden messages and SubjectAccessReview status. */
  reason: string;
}

/** What a user may do in a namespace (authorization.k8s.io SubjectRulesReviewStatus). */
export interface RulesResult {
  resourceRules: {
    verbs: string[];
    apiGroups: string[];
    resources: string[];
    resourceNames?: string[];
  }[];
  nonResourceRules: { verbs: string[]; nonResourceURLs: string[] }[];
  /** True when some authorizer cannot list its rules. */
  incomplete: boolean;
  evaluationError?: string;
}

export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): Promise<Decision> | Decision;
  /** The rules that apply to `user` in `namespace`, for authorizers that can list them. */
  rulesFor?(user: UserInfo, namespace: string): RulesResult;
}

/** Whether an answer is still to come (a promise or another thenable), as `await` decides. */
export function isPromiseLike<T>(answer: T): answer is Extract<T, PromiseLike<unknown>> {
  return typeof (answer as { then?: unknown } | undefined)?.then === "function";
}

/** Everything is allowed (tests and benchmarks without credentials). */
export const ALLOW_ALL: Authorizer = {
  authorize: () => ({ allowed: true, reason: "" }),
  rulesFor: () => ({
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }],
    nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
    incomplete: false,
  }),
};

/** The group every authenticated request belongs to, as kube-apiserver adds it. */
export const AUTHENTICATED_GROUP = "system:authenticated";
/** The group kube-apiserver allows everything, before any other authorizer. */
export const MASTERS_GROUP = "system:masters";
