/** Role-based access control: the RBAC kinds, their cache, the authorizer, aggregation and bootstrap policy. */
export { aggregatedRules, ClusterRoleAggregator } from "./aggregation.js";
export { ensureBootstrapPolicy } from "./bootstrap.js";
export { EscalationCheck } from "./escalation.js";
export {
  clusterRoleBindingType,
  clusterRoleType,
  RBAC_TYPES,
  roleBindingType,
  roleType,
} from "./kinds.js";
export { PolicyCache, type PolicyReader } from "./policy-cache.js";
export { RBACAuthorizer } from "./rbac-authorizer.js";
export { ruleAllows } from "./rule-matching.js";
export { RBAC_GROUP } from "./types.js";
