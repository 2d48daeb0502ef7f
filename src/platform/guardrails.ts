/**
 * The platform's deletion guardrails, as ValidatingAdmissionPolicies (the way
 * Cozystack ships its no-delete guardrail):
 * - `hearth-no-delete`: nothing labelled `platform.cozystack.io/no-delete=true`
 *   (tenant-root's namespace and its Tenant) can be deleted; removing the label
 *   is the documented way out. The policies carry the label too, but as in kube
 *   no policy applies to policies, so a broken one can always be removed.
 * - `hearth-tenant-namespace`: a namespace a Tenant owns is deleted only by the
 *   platform (the apps engine's uninstall, or the garbage collector after a
 *   parent namespace went); anyone else is told to delete the Tenant. A cluster
 *   admin can force it by labelling the namespace
 *   `platform.cozystack.io/allow-direct-delete=true` first.
 */
import type { KubeObject } from "../api/types.js";
import { LABEL_NO_DELETE, PARENT_ANNOTATION } from "./apps/tenant/naming.js";
import { LABEL_APP_KIND } from "./engine/module.js";

export const PLATFORM_USER = "system:hearth:platform";
export const CONTROLLER_MANAGER_USER = "system:hearth:controller-manager";
export const ALLOW_DIRECT_DELETE_LABEL = "platform.cozystack.io/allow-direct-delete";

const ADMISSION_API = "admissionregistration.k8s.io/v1";

function policy(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: ADMISSION_API,
    kind: "ValidatingAdmissionPolicy",
    metadata: { name, labels: { [LABEL_NO_DELETE]: "true" } },
    spec: { failurePolicy: "Fail", ...spec },
  };
}

function binding(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: ADMISSION_API,
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name, labels: { [LABEL_NO_DELETE]: "true" } },
    spec: { policyName: name, validationActions: ["Deny"], ...spec },
  };
}

export function guardrailObjects(): KubeObject[] {
  const noDelete = "hearth-no-delete";
  const tenantNs = "hearth-tenant-namespace";
  const trusted = `['${PLATFORM_USER}', '${CONTROLLER_MANAGER_USER}']`;
  return [
    policy(noDelete, {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ["*"], apiVersions: ["*"], operations: ["DELETE"], resources: ["*"] },
        ],
      },
      validations: [
        {
          expression: "false",
          messageExpression: `'this object is protected by the label ${LABEL_NO_DELETE}=true and cannot be deleted'`,
          reason: "Forbidden",
        },
      ],
    }),
    binding(noDelete, {
      matchResources: { objectSelector: { matchLabels: { [LABEL_NO_DELETE]: "true" } } },
    }),
    policy(tenantNs, {
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [""],
            apiVersions: ["v1"],
            operations: ["DELETE"],
            resources: ["namespaces"],
          },
        ],
      },
      validations: [
        {
          expression: `request.userInfo.username in ${trusted} || (has(oldObject.metadata.labels) && '${ALLOW_DIRECT_DELETE_LABEL}' in oldObject.metadata.labels && oldObject.metadata.labels['${ALLOW_DIRECT_DELETE_LABEL}'] == 'true')`,
          messageExpression: `'namespace ' + oldObject.metadata.name + ' belongs to the Tenant ' + oldObject.metadata.labels['apps.cozystack.io/application.name'] + '; delete the Tenant instead: kubectl delete tenants.apps.cozystack.io ' + oldObject.metadata.labels['apps.cozystack.io/application.name'] + ' -n ' + (has(oldObject.metadata.annotations) && '${PARENT_ANNOTATION}' in oldObject.metadata.annotations ? oldObject.metadata.annotations['${PARENT_ANNOTATION}'] : 'tenant-root') + ' (to force a direct delete, label the namespace ${ALLOW_DIRECT_DELETE_LABEL}=true)'`,
          reason: "Forbidden",
        },
      ],
    }),
    binding(tenantNs, {
      matchResources: { objectSelector: { matchLabels: { [LABEL_APP_KIND]: "Tenant" } } },
    }),
  ];
}
