/**
 * The rbac.authorization.k8s.io/v1 object shapes the authorizer reads: PolicyRule,
 * Subject, RoleRef and the four kinds, plus kube's names for their constants.
 */
import type { KubeObject } from "../../api/index.js";

export const RBAC_GROUP = "rbac.authorization.k8s.io";

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface Role extends KubeObject {
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends Role {
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorObject[] };
}

export interface RoleBinding extends KubeObject {
  subjects?: Subject[];
  roleRef: RoleRef;
}

/** Labels and annotations kube puts on its bootstrap policy. */
export const AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";
export const BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";

export function rulesOf(role: Role | undefined): PolicyRule[] {
  return role?.rules ?? [];
}
