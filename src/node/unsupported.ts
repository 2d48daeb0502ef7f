/**
 * Fields a pod may carry that this node agent accepts but does not honour,
 * named so that the pod gets an event saying so instead of silence.
 */
import type { Pod } from "../api/index.js";

export function unsupportedFields(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? []) {
    if (v.emptyDir?.medium === "Memory")
      out.push(`volume ${v.name}: emptyDir medium Memory is a directory on disk`);
    if (v.emptyDir?.sizeLimit !== undefined)
      out.push(`volume ${v.name}: emptyDir sizeLimit is not enforced`);
  }
  if (pod.spec.serviceAccountName && pod.spec.automountServiceAccountToken !== false)
    out.push("no ServiceAccount token is mounted");
  return out;
}
