/** The one status write both reconcilers make to pods: a merge patch guarded by resourceVersion. */
import { hasCode } from "../../api/errors.js";
import type { StatusWriter } from "../../client/index.js";
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
  try {
    await client.patchStatus(
      "v1",
      "Pod",
      pod.metadata.name ?? "",
      pod.metadata.namespace,
      { metadata: { resourceVersion: pod.metadata.resourceVersion }, status },
      "merge",
    );
    return true;
  } catch (e) {
    if (hasCode(e, 404)) return false;
    throw e;
  }
}
