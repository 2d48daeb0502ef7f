/**
 * The platform's deletion guardrail and identities, as ValidatingAdmissionPolicies (the way
 * Cozystack ships its no-delete guardrail):
 * - `hearth-no-delete`: nothing labelled `platform.cozystack.io/no-delete=true`
 *   (tenant-root's namespace and its Tenant) can be deleted; removing the label
 *   is the documented way out. The policies carry the label too, but as in kube
 *   no policy applies to policies, so a broken one can always be removed.
 * Components add their own with `policy` and `binding` (the Tenant's
 * `hearth-tenant-namespace`, `apps/tenant/guardrail.ts`).
 */
import type { KubeObject } from "../api/index.js";

export const PLATFORM_USER = "system:hearth:platform";
export const CONTROLLER_MANAGER_USER = "system:hearth:controller-manager";
/** Nothing carrying it (`=true`) can be deleted. */
export const LABEL_NO_DELETE = "platform.cozystack.io/no-delete";

const ADMISSION_API = "admissionregistration.k8s.io/v1";

export function policy(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: ADMISSION_API,
    kind: "ValidatingAdmissionPolicy",
    metadata: { name, labels: { [LABEL_NO_DELETE]: "true" } },
    spec: { failurePolicy: "Fail", ...spec },
  };
}

export function binding(name: string, spec: Record<string, unknown>): KubeObject {
  return {
    apiVersion: ADMISSION_API,
    kind: "ValidatingAdmissionPolicyBinding",
    metadata: { name, labels: { [LABEL_NO_DELETE]: "true" } },
    spec: { policyName: name, validationActions: ["Deny"], ...spec },
  };
}

/** The guardrail every start applies, whatever the components. */
export function guardrailObjects(): KubeObject[] {
  const noDelete = "hearth-no-delete";
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
  ];
}
