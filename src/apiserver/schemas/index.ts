/**
 * Schemas of the built-in kinds the server serves, inline (no `$ref`), faithful
 * to Kubernetes v1.32's OpenAPI including the SMP/SSA list and map extensions.
 *
 * Keying: `builtinSchemas` is keyed by `schemaKey(gvk)` = `<group>/<version>/<Kind>`
 * with the core group as the empty string, e.g. `"/v1/ConfigMap"`,
 * `"coordination.k8s.io/v1/Lease"`.
 */
import type { GroupVersionKind, Schema } from "../../api/index.js";
import { selfSubjectReviewSchema, tokenRequestSchema } from "./authentication.js";
import {
  localSubjectAccessReviewSchema,
  selfSubjectAccessReviewSchema,
  selfSubjectRulesReviewSchema,
  subjectAccessReviewSchema,
} from "./authorization.js";
import { configMapSchema } from "./config-map.js";
import { cronJobSchema } from "./cron-job.js";
import { customResourceDefinitionSchema } from "./custom-resource-definition.js";
import { controllerRevisionSchema, daemonSetSchema } from "./daemonset.js";
import { deploymentSchema, replicaSetSchema } from "./deployment.js";
import { endpointSliceSchema } from "./endpoint-slice.js";
import { endpointsSchema } from "./endpoints.js";
import { eventSchema } from "./event.js";
import { eventsV1EventSchema } from "./events-v1-event.js";
import { jobSchema } from "./job.js";
import { leaseSchema } from "./lease.js";
import { limitRangeSchema } from "./limit-range.js";
import { namespaceSchema } from "./namespace.js";
import { nodeSchema } from "./node.js";
import { persistentVolumeSchema } from "./persistent-volume.js";
import { persistentVolumeClaimSchema } from "./persistent-volume-claim.js";
import { podSchema } from "./pod.js";
import { evictionSchema, podDisruptionBudgetSchema } from "./pod-disruption-budget.js";
import {
  clusterRoleBindingSchema,
  clusterRoleSchema,
  roleBindingSchema,
  roleSchema,
} from "./rbac.js";
import { resourceQuotaSchema } from "./resource-quota.js";
import { secretSchema } from "./secret.js";
import { serviceSchema } from "./service.js";
import { serviceAccountSchema } from "./service-account.js";
import { statefulSetSchema } from "./statefulset.js";
import { storageClassSchema } from "./storage-class.js";

export { customResourceSchema } from "./custom-resource.js";
export { API_VERSION_DESCRIPTION, KIND_DESCRIPTION, kindSchema } from "./kind.js";
export { OBJECT_META_DESCRIPTION, objectMeta } from "./object-meta.js";
export { validatingAdmissionPolicySchema } from "./validating-admission-policy.js";
export { validatingAdmissionPolicyBindingSchema } from "./validating-admission-policy-binding.js";
export {
  clusterRoleBindingSchema,
  clusterRoleSchema,
  configMapSchema,
  controllerRevisionSchema,
  cronJobSchema,
  customResourceDefinitionSchema,
  daemonSetSchema,
  deploymentSchema,
  endpointSliceSchema,
  endpointsSchema,
  eventSchema,
  eventsV1EventSchema,
  evictionSchema,
  jobSchema,
  leaseSchema,
  limitRangeSchema,
  localSubjectAccessReviewSchema,
  namespaceSchema,
  nodeSchema,
  persistentVolumeClaimSchema,
  persistentVolumeSchema,
  podDisruptionBudgetSchema,
  podSchema,
  replicaSetSchema,
  resourceQuotaSchema,
  roleBindingSchema,
  roleSchema,
  secretSchema,
  selfSubjectAccessReviewSchema,
  selfSubjectReviewSchema,
  selfSubjectRulesReviewSchema,
  serviceAccountSchema,
  serviceSchema,
  statefulSetSchema,
  storageClassSchema,
  subjectAccessReviewSchema,
  tokenRequestSchema,
};

export function schemaKey(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}/${gvk.kind}`;
}

const all: Schema[] = [
  namespaceSchema,
  podSchema,
  nodeSchema,
  configMapSchema,
  secretSchema,
  serviceAccountSchema,
  eventSchema,
  leaseSchema,
  customResourceDefinitionSchema,
  eventsV1EventSchema,
  roleSchema,
  clusterRoleSchema,
  roleBindingSchema,
  clusterRoleBindingSchema,
  selfSubjectAccessReviewSchema,
  subjectAccessReviewSchema,
  localSubjectAccessReviewSchema,
  selfSubjectRulesReviewSchema,
  selfSubjectReviewSchema,
  tokenRequestSchema,
  serviceSchema,
  endpointsSchema,
  endpointSliceSchema,
  storageClassSchema,
  persistentVolumeSchema,
  persistentVolumeClaimSchema,
  jobSchema,
  cronJobSchema,
  resourceQuotaSchema,
  limitRangeSchema,
  deploymentSchema,
  replicaSetSchema,
  statefulSetSchema,
  daemonSetSchema,
  controllerRevisionSchema,
  podDisruptionBudgetSchema,
];

/** Every built-in kind's schema, keyed by `schemaKey`. */
export const builtinSchemas: Readonly<Record<string, Schema>> = Object.freeze(
  Object.fromEntries(
    all.map((s) => {
      const gvk = s["x-kubernetes-group-version-kind"]?.[0];
      if (!gvk) throw new Error("built-in schema without x-kubernetes-group-version-kind");
      return [schemaKey(gvk), s];
    }),
  ),
);

export function builtinSchema(gvk: GroupVersionKind): Schema | undefined {
  return builtinSchemas[schemaKey(gvk)];
}
