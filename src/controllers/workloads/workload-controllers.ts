/**
 * Registers the apps/v1 controllers on the Manager: Deployments and
 * ReplicaSets. The informers only decide what to look at — a pod wakes its
 * controlling ReplicaSet (and, when deleted, that ReplicaSet's Deployment, for
 * Recreate), a ReplicaSet its Deployment, an orphan the owners whose selector
 * matches it (adoption); the reconcilers read fresh state from the API.
 */
import type { KubeObject, LabelSelector } from "../../api/index.js";
import { labelSelectorFromObject } from "../../api/index.js";
import { type Client, controllerRecorder } from "../../client/index.js";
import { type Manager, type Request, requestOf } from "../../runtime/index.js";
import { DeploymentReconciler } from "./deployment-controller.js";
import { controllerRef } from "./pod-state.js";
import { ReplicaSetReconciler } from "./replica-set-controller.js";

export interface WorkloadControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** Reconcile workers per controller (default 2). */
  workers?: number;
}

const DEPLOYMENT = { apiVersion: "apps/v1", kind: "Deployment" };
const REPLICA_SET = { apiVersion: "apps/v1", kind: "ReplicaSet" };
const POD = { apiVersion: "v1", kind: "Pod" };

function selects(owner: KubeObject, obj: KubeObject): boolean {
  const sel = (owner.spec as { selector?: LabelSelector } | undefined)?.selector;
  if (!sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0)
    return false;
  try {
    return labelSelectorFromObject(sel).matches((k) => obj.metadata.labels?.[k]);
  } catch {
    return false;
  }
}

/** The owners in `obj`'s namespace that would adopt it (it has no controller). */
const adopters =
  (owners: () => KubeObject[]) =>
  (obj: KubeObject): Request[] =>
    controllerRef(obj)
      ? []
      : owners()
          .filter((o) => o.metadata.namespace === obj.metadata.namespace && selects(o, obj))
          .map(requestOf);

export function registerWorkloadControllers(
  manager: Manager,
  client: Client,
  opts: WorkloadControllerOptions = {},
): void {
  const log = opts.log ?? (() => {});
  const now = () => manager.clock.now();
  const recorder = (component: string) => controllerRecorder(client, component, log, now);
  const workers = opts.workers ?? 2;
  const deployments = manager.cache.informer(DEPLOYMENT).informer;
  const replicaSets = manager.cache.informer(REPLICA_SET).informer;
  manager
    .controller("replicaset")
    .workers(workers)
    .for(REPLICA_SET)
    .owns(POD)
    .watches(
      POD,
      adopters(() => replicaSets.list()),
    )
    .complete(new ReplicaSetReconciler(client, recorder("replicaset-controller"), now));
  /** A deleted pod's Deployment (through its ReplicaSet): Recreate waits for old pods to go. */
  const deploymentOfPod = (pod: KubeObject): Request[] => {
    const ref = controllerRef(pod);
    if (ref?.kind !== "ReplicaSet") return [];
    const rs = replicaSets.get(`${pod.metadata.namespace}/${ref.name}`);
    const owner = rs ? controllerRef(rs) : undefined;
    return owner?.kind === "Deployment"
      ? [{ namespace: pod.metadata.namespace, name: owner.name }]
      : [];
  };
  manager
    .controller("deployment")
    .workers(workers)
    .for(DEPLOYMENT)
    .owns(REPLICA_SET)
    .watches(
      REPLICA_SET,
      adopters(() => deployments.list()),
    )
    .watchesWith(POD, {
      delete: (pod, q) => {
        for (const r of deploymentOfPod(pod)) q.add(r);
      },
    })
    .complete(new DeploymentReconciler(client, recorder("deployment-controller"), now));
}
