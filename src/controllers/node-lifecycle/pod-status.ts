/** The one status write both reconcilers make to pods: a merge patch guarded by resourceVersion. */
import { ignoreNotFound, type StatusWriter } from "../../client/index.js";
import type { PodView } from "./types.js";

/**
 * Merges `status` into the pod's at its cached resourceVersion (a 409 when it
 * changed meanwhile, for the runtime to retry); false when the pod is gone.
 */
export async function patchPodStatus(
  client: StatusWriter,
  pod: PodView,
  status: Record<string, unknown>,
): Promise<boolean> {
  const ref = {
    apiVersion: "v1",
    kind: "Pod",
    name: pod.metadata.name ?? "",
    namespace: pod.metadata.namespace,
  };
  const patch = { metadata: { resourceVersion: pod.metadata.resourceVersion }, status };
  const patched = await ignoreNotFound(client.patchStatus(ref, patch, { type: "merge" }));
  return patched !== undefined;
}
