/**
 * What the DaemonSet controller decides per node and writes into its pods, as
 * kube's daemon controller does: the tolerations every daemon pod gets
 * (not-ready and unreachable NoExecute, the node-pressure and unschedulable
 * NoSchedule taints, network-unavailable for host-network pods); whether a node
 * should run the pod (`nodeName`, nodeSelector and node affinity, taints it
 * does not tolerate) and whether a pod already there should keep running (only
 * an untolerated NoExecute taint ends it); and a pod pinned to its node by node
 * affinity `matchFields metadata.name`, which the scheduler then binds.
 */
import type { DaemonSet, Node, Pod, PodTemplateSpec } from "../../api/index.js";
import { CONTROLLER_REVISION_HASH_LABEL, nodeAffinityMatches } from "../../api/index.js";
import { newControllerRef } from "../controller-ref.js";
import { type Toleration, tolerates } from "../scheduler/index.js";

type Taint = { key: string; value?: string; effect: string };

const exists = (key: string, effect: string): Toleration => ({ key, operator: "Exists", effect });

/** AddOrUpdateDaemonPodTolerations. */
export function daemonTolerations(spec: Pod["spec"]): Toleration[] {
  const wanted = [
    exists("node.kubernetes.io/not-ready", "NoExecute"),
    exists("node.kubernetes.io/unreachable", "NoExecute"),
    exists("node.kubernetes.io/disk-pressure", "NoSchedule"),
    exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
    exists("node.kubernetes.io/pid-pressure", "NoSchedule"),
    exists("node.kubernetes.io/unschedulable", "NoSchedule"),
    ...(spec.hostNetwork ? [exists("node.kubernetes.io/network-unavailable", "NoSchedule")] : []),
  ];
  const out = [...((spec.tolerations ?? []) as Toleration[])];
  for (const t of wanted)
    if (!out.some((o) => o.key === t.key && o.effect === t.effect && o.operator === "Exists"))
      out.push(t);
  return out;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: every term's matchFields pin the node. */
function pinToNode(spec: Pod["spec"], nodeName: string): void {
  const pin = [{ key: "metadata.name", operator: "In", values: [nodeName] }];
  const affinity = spec.affinity ?? {};
  const terms = affinity.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms ?? [{}];
  affinity.nodeAffinity = {
    ...(affinity.nodeAffinity ?? {}),
    requiredDuringSchedulingIgnoredDuringExecution: {
      nodeSelectorTerms: terms.map((t) => ({ ...t, matchFields: pin })),
    },
  };
  spec.affinity = affinity;
}

/** The node a daemon pod is for: its nodeName, else the one its affinity pins. */
export function targetNode(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
      ?.nodeSelectorTerms;
  for (const t of terms ?? [])
    for (const f of t.matchFields ?? [])
      if (f.key === "metadata.name" && f.operator === "In" && f.values?.length === 1)
        return f.values[0];
  return undefined;
}

/** A pod of the DaemonSet for `nodeName` from a revision's template. */
export function newDaemonPod(
  ds: DaemonSet,
  template: PodTemplateSpec,
  hash: string,
  nodeName: string,
): Pod {
  const meta = template.metadata ?? {};
  const spec = structuredClone(template.spec ?? {}) as unknown as Pod["spec"];
  spec.tolerations = daemonTolerations(spec) as Pod["spec"]["tolerations"];
  pinToNode(spec, nodeName);
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `${(ds.metadata.name ?? "").slice(0, 57)}-`,
      namespace: ds.metadata.namespace,
      labels: {
        ...(meta.labels ?? {}),
        [CONTROLLER_REVISION_HASH_LABEL]: hash,
        "pod-template-generation": String(ds.metadata.generation ?? 1),
      },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ownerReferences: [newControllerRef(ds)],
    },
    spec,
  };
}

export interface NodePlacement {
  /** The node should run a daemon pod (a new one may be created there). */
  shouldRun: boolean;
  /** A daemon pod already there may stay. */
  shouldContinueRunning: boolean;
}

function untolerated(taints: Taint[], tolerations: Toleration[], effects: string[]) {
  return taints.some(
    (taint) => effects.includes(taint.effect) && !tolerations.some((t) => tolerates(t, taint)),
  );
}

/** NodeShouldRunDaemonPod. */
export function placement(ds: DaemonSet, node: Node): NodePlacement {
  const spec = (ds.spec.template?.spec ?? {}) as unknown as Pod["spec"];
  const pinned = spec.nodeName;
  if (pinned && pinned !== node.metadata.name)
    return { shouldRun: false, shouldContinueRunning: false };
  if (!nodeAffinityMatches(spec, node)) return { shouldRun: false, shouldContinueRunning: false };
  const taints = node.spec?.taints ?? [];
  const tolerations = daemonTolerations(spec);
  if (!untolerated(taints, tolerations, ["NoSchedule", "NoExecute"]))
    return { shouldRun: true, shouldContinueRunning: true };
  return {
    shouldRun: false,
    shouldContinueRunning: !untolerated(taints, tolerations, ["NoExecute"]),
  };
}

export const isReady = (p: Pod) =>
  (p.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");

/** IsPodAvailable: Ready for at least minReadySeconds. */
export function isAvailable(p: Pod, minReadySeconds: number, now: number): boolean {
  const ready = (p.status?.conditions ?? []).find((c) => c.type === "Ready" && c.status === "True");
  if (!ready) return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(ready.lastTransitionTime ?? "");
  return !since || since + minReadySeconds * 1000 <= now;
}

export const hashOf = (p: Pod) => p.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL];
