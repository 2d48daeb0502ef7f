/**
 * The kinds whose protobuf bodies we decode, by apiVersion and kind. DeleteOptions
 * is registered by kube in every group version (metav1.AddToGroupVersion), so any
 * `v1` / `<group>/v1` is accepted for it.
 */

import { Deployment, ReplicaSet } from "./apps-messages.js";
import {
  SelfSubjectAccessReview,
  SelfSubjectReview,
  SelfSubjectRulesReview,
  SubjectAccessReview,
  TokenRequest,
} from "./auth-messages.js";
import { CronJob, Job } from "./batch-messages.js";
import { Lease } from "./coordination-messages.js";
import { ConfigMap, Event, Namespace, Secret, ServiceAccount } from "./core-messages.js";
import { DeleteOptions } from "./meta-messages.js";
import { Pod } from "./pod-messages.js";
import { Eviction, PodDisruptionBudget } from "./policy-messages.js";
import { ClusterRole, Role, RoleBinding } from "./rbac-messages.js";
import type { Message } from "./schema.js";
import { Service } from "./service-messages.js";

const CORE_V1 = (v: string) => v === "v1";
const BATCH_V1 = (v: string) => v === "batch/v1";
const APPS_V1 = (v: string) => v === "apps/v1";
const RBAC_V1 = (v: string) => v === "rbac.authorization.k8s.io/v1";
const AUTHZ_V1 = (v: string) => v === "authorization.k8s.io/v1";
const POLICY = (v: string) => v === "policy/v1";
const AUTHN_V1 = (v: string) => v === "authentication.k8s.io/v1";

const BY_KIND: ReadonlyMap<string, { apiVersion: (v: string) => boolean; message: Message }> =
  new Map([
    ["Namespace", { apiVersion: CORE_V1, message: Namespace }],
    ["ConfigMap", { apiVersion: CORE_V1, message: ConfigMap }],
    ["Secret", { apiVersion: CORE_V1, message: Secret }],
    ["ServiceAccount", { apiVersion: CORE_V1, message: ServiceAccount }],
    ["Event", { apiVersion: CORE_V1, message: Event }],
    ["Pod", { apiVersion: CORE_V1, message: Pod }],
    ["Service", { apiVersion: CORE_V1, message: Service }],
    ["Job", { apiVersion: BATCH_V1, message: Job }],
    ["CronJob", { apiVersion: BATCH_V1, message: CronJob }],
    ["Deployment", { apiVersion: APPS_V1, message: Deployment }],
    ["ReplicaSet", { apiVersion: APPS_V1, message: ReplicaSet }],
    ["PodDisruptionBudget", { apiVersion: POLICY, message: PodDisruptionBudget }],
    [
      "Eviction",
      { apiVersion: (v: string) => POLICY(v) || v === "policy/v1beta1", message: Eviction },
    ],
    ["Lease", { apiVersion: (v: string) => v === "coordination.k8s.io/v1", message: Lease }],
    ["Role", { apiVersion: RBAC_V1, message: Role }],
    ["ClusterRole", { apiVersion: RBAC_V1, message: ClusterRole }],
    ["RoleBinding", { apiVersion: RBAC_V1, message: RoleBinding }],
    ["ClusterRoleBinding", { apiVersion: RBAC_V1, message: RoleBinding }],
    ["SelfSubjectAccessReview", { apiVersion: AUTHZ_V1, message: SelfSubjectAccessReview }],
    ["SubjectAccessReview", { apiVersion: AUTHZ_V1, message: SubjectAccessReview }],
    ["LocalSubjectAccessReview", { apiVersion: AUTHZ_V1, message: SubjectAccessReview }],
    ["SelfSubjectRulesReview", { apiVersion: AUTHZ_V1, message: SelfSubjectRulesReview }],
    ["SelfSubjectReview", { apiVersion: AUTHN_V1, message: SelfSubjectReview }],
    ["TokenRequest", { apiVersion: AUTHN_V1, message: TokenRequest }],
    [
      "DeleteOptions",
      { apiVersion: (v: string) => /^([a-z0-9.-]+\/)?v1$/.test(v), message: DeleteOptions },
    ],
  ]);

/** The message table for apiVersion/kind, or undefined when we do not decode it. */
export function messageFor(apiVersion: string, kind: string): Message | undefined {
  const entry = BY_KIND.get(kind);
  return entry?.apiVersion(apiVersion) ? entry.message : undefined;
}

export function isKnownKind(kind: string): boolean {
  return BY_KIND.has(kind);
}
