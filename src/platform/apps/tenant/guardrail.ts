/**
 * The Tenant's guardrail, `hearth-tenant-namespace`: a namespace a Tenant owns
 * is deleted only by the platform (the apps engine's uninstall, or the garbage
 * collector after a parent namespace went); anyone else is told to delete the
 * Tenant. A cluster admin can force it by labelling the namespace
 * `platform.cozystack.io/allow-direct-delete=true` first.
 */
import type { KubeObject } from "../../../api/index.js";
import { LABEL_APP_KIND } from "../../engine/module.js";
import { binding, CONTROLLER_MANAGER_USER, PLATFORM_USER, policy } from "../../guardrails.js";
import { PARENT_ANNOTATION } from "./naming.js";

export const ALLOW_DIRECT_DELETE_LABEL = "platform.cozystack.io/allow-direct-delete";

export function tenantGuardrail(): KubeObject[] {
  const tenantNs = "hearth-tenant-namespace";
  const trusted = `['${PLATFORM_USER}', '${CONTROLLER_MANAGER_USER}']`;
  return [
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
