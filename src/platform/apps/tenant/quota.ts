/**
 * A tenant's quota (Cozystack `templates/quota.yaml`): `resourceQuotas` becomes
 * the ResourceQuota `tenant-quota` — cpu, memory and ephemeral-storage limit
 * both `requests.X` and `limits.X`, storage becomes `requests.storage`, counts
 * pass through — with a LimitRange giving containers defaults (limits 250m /
 * 128Mi, requests 25m / 128Mi) so pods without resources still fit a quota.
 */
import type { KubeObject } from "../../../api/index.js";

export const QUOTA_NAME = "tenant-quota";
export const LIMIT_RANGE_NAME = "tenant-limits";
const SPLIT = new Set(["cpu", "memory", "ephemeral-storage"]);

/** `resourceQuotas` as ResourceQuota `hard` keys. */
export function hardLimits(quotas: Record<string, string | number>): Record<string, string> {
  const hard: Record<string, string> = {};
  for (const [key, value] of Object.entries(quotas)) {
    const v = String(value);
    if (SPLIT.has(key)) {
      hard[`requests.${key}`] = v;
      hard[`limits.${key}`] = v;
    } else if (key === "storage") hard["requests.storage"] = v;
    else hard[key] = v;
  }
  return hard;
}

export function quotaObjects(
  namespace: string,
  quotas: Record<string, string | number>,
): KubeObject[] {
  const out: KubeObject[] = [
    {
      apiVersion: "v1",
      kind: "LimitRange",
      metadata: { name: LIMIT_RANGE_NAME, namespace },
      spec: {
        limits: [
          {
            type: "Container",
            default: { cpu: "250m", memory: "128Mi" },
            defaultRequest: { cpu: "25m", memory: "128Mi" },
          },
        ],
      },
    },
  ];
  if (Object.keys(quotas).length > 0)
    out.push({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: QUOTA_NAME, namespace },
      spec: { hard: hardLimits(quotas) },
    });
  return out;
}
