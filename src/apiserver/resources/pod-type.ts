/**
 * The core/v1 Pod kind: schema, kube's table columns, field selectors,
 * defaults and validation, graceful deletion (a pod on a node is stopped by its
 * node agent before it goes; one not on a node, or already finished, goes at
 * once) and the `log`, `binding` and `eviction` subresources.
 */

import type { KubeObject } from "../../api/index.js";
import { DEFAULT_TERMINATION_GRACE_SECONDS, type Pod } from "../../api/index.js";
import { podSchema } from "../schemas/index.js";
import { handlePodBinding } from "./pod-binding.js";
import { podColumns } from "./pod-columns.js";
import { connectHandler } from "./pod-connect.js";
import { defaultPod, initialStatus } from "./pod-defaults.js";
import { handlePodEviction } from "./pod-eviction.js";
import { handlePodLog } from "./pod-log.js";
import { validatePod } from "./pod-validation.js";
import { type ResourceType, STANDARD_VERBS } from "./resource-type.js";

const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** kube's `CheckGracefulDelete` for pods. */
export function podGracePeriod(obj: KubeObject, requested: number | undefined): number {
  const pod = obj as Pod;
  let period =
    requested ?? pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_SECONDS;
  if (!pod.spec?.nodeName) period = 0;
  const phase = pod.status?.phase;
  if (phase === "Succeeded" || phase === "Failed") period = 0;
  return Math.max(period, 0);
}

export const podType: ResourceType = {
  group: "",
  version: "v1",
  kind: "Pod",
  listKind: "PodList",
  plural: "pods",
  singular: "pod",
  returnDeletedObject: true,
  namespaced: true,
  shortNames: ["po"],
  categories: ["all"],
  verbs: STANDARD_VERBS,
  status: true,
  nameRule: "dns1123-subdomain",
  strategicMergePatch: true,
  schema: podSchema,
  columns: podColumns,
  selectableFields: (o) => {
    const pod = o as Pod;
    return {
      "spec.nodeName": str(pod.spec?.nodeName),
      "spec.restartPolicy": str(pod.spec?.restartPolicy),
      "spec.schedulerName": str(pod.spec?.schedulerName),
      "spec.serviceAccountName": str(pod.spec?.serviceAccountName),
      "status.phase": str(pod.status?.phase),
      "status.podIP": str(pod.status?.podIP),
      "status.nominatedNodeName": str(pod.status?.nominatedNodeName),
    };
  },
  prepareForCreate(obj) {
    defaultPod(obj);
    initialStatus(obj);
  },
  prepareForUpdate(obj) {
    defaultPod(obj);
  },
  validate: validatePod,
  gracePeriod: podGracePeriod,
  subresourceHandlers: {
    log: handlePodLog,
    binding: handlePodBinding,
    eviction: handlePodEviction,
    exec: connectHandler("exec"),
    attach: connectHandler("attach"),
    portforward: connectHandler("portforward"),
  },
};
