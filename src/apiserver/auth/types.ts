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

export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): Promise<Decision> | Decision;
}

export const ALLOW_ALL: Authorizer = { authorize: () => ({ allowed: true, reason: "" }) };

/** The users every authenticated request belongs to, as kube-apiserver adds them. */
export const AUTHENTICATED_GROUP = "system:authenticated";
export const MASTERS_GROUP = "system:masters";
