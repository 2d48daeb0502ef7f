/**
 * The denominator of a percentage budget (kube's getExpectedScale): the sum of
 * the `spec.replicas` of the controllers of the selected pods, each read once
 * through its `/scale` subresource, so every kind that serves `scale`
 * (Deployments, ReplicaSets, StatefulSets, custom kinds) plugs in without a
 * line here. A ReplicaSet controlled by a Deployment counts as the Deployment,
 * as kube's Deployment finder does. Pods without a controller are returned as
 * unmanaged (kube warns and leaves them out); a controller that cannot be found
 * (gone, another uid, no scale) fails the sync, which then allows no disruption.
 */
import type { OwnerReference, Pod } from "../../api/index.js";
import { parseApiVersion } from "../../api/index.js";
import { type Client, getOptional, resourcePath } from "../../client/index.js";

export interface ControllerScale {
  uid: string;
  replicas: number;
}

/** The scale of the controller `ref` names in `namespace`; undefined when there is none with that uid. */
export type ScaleFinder = (
  ref: OwnerReference,
  namespace: string,
) => Promise<ControllerScale | undefined>;

const controllerOf = (o: { metadata: { ownerReferences?: OwnerReference[] } }) =>
  o.metadata.ownerReferences?.find((r) => r.controller === true);

export async function expectedScale(
  pods: Pod[],
  find: ScaleFinder,
): Promise<{ expected: number; unmanaged: string[] }> {
  const scales = new Map<string, ControllerScale>();
  const unmanaged: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (!ref) {
      unmanaged.push(pod.metadata.name ?? "");
      continue;
    }
    if (scales.has(ref.uid)) continue;
    const found = await find(ref, pod.metadata.namespace ?? "");
    if (!found) throw new Error(`found no controllers for pod "${pod.metadata.name}"`);
    scales.set(ref.uid, found);
  }
  const byController = new Map([...scales.values()].map((s) => [s.uid, s.replicas]));
  let expected = 0;
  for (const replicas of byController.values()) expected += replicas;
  return { expected, unmanaged };
}

/** Reads `/scale` of the controller over the API (the mapper resolves its resource). */
export function apiScaleFinder(client: Client): ScaleFinder {
  const scaleOf = async (ref: OwnerReference, namespace: string) => {
    const mapping = await client.mapper.resolve(ref.apiVersion, ref.kind);
    const path = resourcePath({
      apiVersion: ref.apiVersion,
      mapping,
      namespace,
      name: ref.name,
      subresource: "scale",
    });
    const res = await client.request("GET", path);
    if (res.status === 404) return undefined;
    if (res.status !== 200)
      throw new Error(
        `reading the scale of ${ref.kind} "${ref.name}": ${res.status} ${res.body.slice(0, 200)}`,
      );
    const scale = JSON.parse(res.body) as {
      metadata?: { uid?: string };
      spec?: { replicas?: number };
    };
    if (scale.metadata?.uid !== ref.uid) return undefined;
    return { uid: ref.uid, replicas: scale.spec?.replicas ?? 0 };
  };
  return async (ref, namespace) => {
    if (ref.kind === "ReplicaSet" && parseApiVersion(ref.apiVersion).group === "apps") {
      const rs = await getOptional(client, {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        name: ref.name,
        namespace,
      });
      const owner = rs?.metadata.uid === ref.uid ? controllerOf(rs) : undefined;
      if (owner?.kind === "Deployment" && parseApiVersion(owner.apiVersion).group === "apps")
        return scaleOf(owner, namespace);
    }
    return scaleOf(ref, namespace);
  };
}
