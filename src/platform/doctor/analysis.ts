/**
 * The doctor's judgement of one object whose deletion waits: which finalizers
 * hold it and who owns each, the last condition or Warning Event that says why,
 * and the one safe next step. Pure: everything it needs about the rest of the
 * cluster comes in a `ClusterView` (see cluster-view.ts), so it is tested with
 * plain objects.
 */
import type { KubeObject } from "../../api/index.js";
import { PVC_PROTECTION_FINALIZER } from "../../api/index.js";
import type { ClusterView } from "./cluster-view.js";
import {
  FINALIZER_OWNERS,
  FOREGROUND_FINALIZER,
  NAMESPACE_FINALIZER,
  ORPHAN_FINALIZER,
} from "./finalizers.js";

/** One finalizer that holds an object, and who removes it. */
export interface Hold {
  finalizer: string;
  /** `metadata.finalizers` (any object) or `spec.finalizers` (a namespace's `kubernetes`). */
  field: "metadata" | "spec";
  index: number;
  /** Undefined: no Hearth controller owns it. */
  controller?: string;
  /** False when Hearth knows the finalizer but does not run its controller yet. */
  implemented?: boolean;
}

export interface Finding {
  apiVersion: string;
  kind: string;
  /** `configmaps`, `tenantcontrolplanes.kamaji.clastix.io`: what kubectl takes. */
  resource: string;
  namespace?: string;
  name: string;
  deletionTimestamp: string;
  waitingSeconds: number;
  holds: Hold[];
  /** The newest condition that says why, as `Type=Status reason: message`. */
  condition?: string;
  /** The newest Warning Event about the object, as `Reason: message`. */
  warning?: string;
  nextStep: string;
}

/** Seconds since the object's deletionTimestamp (0 when it has none or it is in the future). */
export function waitingSeconds(obj: KubeObject, now: Date): number {
  const t = Date.parse(obj.metadata.deletionTimestamp ?? "");
  return Number.isNaN(t) ? 0 : Math.max(0, Math.floor((now.getTime() - t) / 1000));
}

/** True when the object's deletion has waited longer than `thresholdMs`. */
export function isStuck(obj: KubeObject, now: Date, thresholdMs: number): boolean {
  return (
    obj.metadata.deletionTimestamp !== undefined && waitingSeconds(obj, now) * 1000 >= thresholdMs
  );
}

export function holdsOf(obj: KubeObject): Hold[] {
  const spec = obj.kind === "Namespace" && obj.apiVersion === "v1" ? specFinalizers(obj) : [];
  const entries: [string, Hold["field"], number][] = [
    ...(obj.metadata.finalizers ?? []).map((f, i): [string, Hold["field"], number] => [
      f,
      "metadata",
      i,
    ]),
    ...spec.map((f, i): [string, Hold["field"], number] => [f, "spec", i]),
  ];
  return entries.map(([finalizer, field, index]) => {
    const owner = FINALIZER_OWNERS.get(finalizer);
    return owner
      ? { finalizer, field, index, controller: owner.controller, implemented: owner.implemented }
      : { finalizer, field, index };
  });
}

function specFinalizers(ns: KubeObject): string[] {
  const spec = ns.spec as { finalizers?: unknown } | undefined;
  return Array.isArray(spec?.finalizers)
    ? spec.finalizers.filter((f) => typeof f === "string")
    : [];
}

export function analyze(obj: KubeObject, resource: string, view: ClusterView, now: Date): Finding {
  const holds = holdsOf(obj);
  const finding: Finding = {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    resource,
    name: obj.metadata.name ?? "",
    deletionTimestamp: obj.metadata.deletionTimestamp ?? "",
    waitingSeconds: waitingSeconds(obj, now),
    holds,
    nextStep: nextStep(obj, resource, holds, view),
  };
  if (obj.metadata.namespace) finding.namespace = obj.metadata.namespace;
  const condition = telling(obj);
  if (condition) finding.condition = condition;
  const warning = view.newestWarning(obj);
  if (warning) finding.warning = warning;
  return finding;
}

/**
 * The one safe next step. A finalizer a running Hearth controller owns comes
 * first (waiting is safe, and removing it by hand would skip its cleanup); only
 * when none is left does the doctor point at a finalizer nothing will remove.
 */
export function nextStep(
  obj: KubeObject,
  resource: string,
  holds: Hold[],
  view: ClusterView,
): string {
  if (!obj.metadata.deletionTimestamp)
    return "wait: not marked for deletion yet; the namespace controller deletes it (pods first, then the rest)";
  if (holds.length === 0) return noFinalizerStep(obj);
  const running = holds.find((h) => h.implemented === true);
  if (running) return waitStep(obj, running, view);
  const known = holds.find((h) => h.controller !== undefined);
  if (known)
    return (
      `${known.controller} is not part of Hearth yet, so nothing removes ${known.finalizer}: ` +
      `remove it by hand only once ${FINALIZER_OWNERS.get(known.finalizer)?.byHandOnce ?? "what it guards is cleaned up or gone"}: ` +
      removeCommand(obj, resource, known)
    );
  const unknown = holds[0]!;
  return (
    `no Hearth controller owns ${unknown.finalizer}: remove it by hand only if you know its owner is gone: ` +
    removeCommand(obj, resource, unknown)
  );
}

function waitStep(obj: KubeObject, hold: Hold, view: ClusterView): string {
  const uid = obj.metadata.uid ?? "";
  const wait = `wait: ${hold.controller}`;
  switch (hold.finalizer) {
    case FOREGROUND_FINALIZER: {
      const n = view.dependents(uid).length;
      return n > 0
        ? `${wait} deletes its ${n} dependent${n === 1 ? "" : "s"} first (${sample(view.dependents(uid))})`
        : `${wait} removes ${hold.finalizer} now that no dependent is left; if it stays, check that hearth up runs`;
    }
    case ORPHAN_FINALIZER: {
      const n = view.dependents(uid).length;
      return `${wait} removes the owner reference from its ${n} dependent${n === 1 ? "" : "s"} first`;
    }
    case NAMESPACE_FINALIZER: {
      const inside = view.inNamespace(obj.metadata.name ?? "");
      const n = inside.length;
      const orphaned = inside.filter(heldForever).length;
      const why =
        orphaned > 0
          ? `; ${orphaned} of them ${orphaned === 1 ? "is" : "are"} held by a finalizer no running Hearth controller removes`
          : "";
      return n > 0
        ? `${wait} deletes the ${n} object${n === 1 ? "" : "s"} still inside first${why}; see hearth doctor --namespace ${obj.metadata.name}`
        : `${wait} removes ${hold.finalizer} now that the namespace is empty; if it stays, check that hearth up runs`;
    }
    case PVC_PROTECTION_FINALIZER: {
      const pods = view.podsUsingClaim(obj.metadata.namespace ?? "", obj.metadata.name ?? "");
      if (pods.length > 0)
        return `${wait} releases the claim once no pod uses it: delete or wait for pod ${pods.join(", ")}`;
      break;
    }
  }
  return `${wait} removes ${hold.finalizer} once it ${FINALIZER_OWNERS.get(hold.finalizer)?.waitsFor ?? "is done"}; if it stays, check that hearth up (which runs it) is running and read its log`;
}

/** True when finalizers hold `obj` and none of them is owned by a controller Hearth runs. */
export function heldForever(obj: KubeObject): boolean {
  const holds = holdsOf(obj);
  return holds.length > 0 && !holds.some((h) => h.implemented === true);
}

function noFinalizerStep(obj: KubeObject): string {
  if (obj.kind === "Pod" && obj.apiVersion === "v1") {
    const node = (obj.spec as { nodeName?: string } | undefined)?.nodeName;
    return node
      ? `wait: the node agent of node ${node} stops the pod's containers; if that node is gone for good: kubectl delete pod ${obj.metadata.name} -n ${obj.metadata.namespace} --grace-period=0 --force`
      : "wait: a pod on no node goes at once; if it stays, check that hearth up runs";
  }
  return "wait: no finalizer holds it; the apiserver removes it when its grace period ends";
}

/** The kubectl command that removes the finalizer `hold` names, by its index. */
export function removeCommand(obj: KubeObject, resource: string, hold: Hold): string {
  const ns = obj.metadata.namespace ? ` -n ${obj.metadata.namespace}` : "";
  const path = `/${hold.field}/finalizers/${hold.index}`;
  if (hold.field === "spec") {
    // A namespace's spec.finalizers change only through its finalize subresource.
    const name = obj.metadata.name;
    return `kubectl get namespace ${name} -o json | jq 'del(.spec.finalizers[${hold.index}])' | kubectl replace --raw /api/v1/namespaces/${name}/finalize -f -`;
  }
  return `kubectl patch ${resource} ${obj.metadata.name}${ns} --type=json -p '[{"op":"remove","path":"${path}"}]'`;
}

/** Up to three `Kind/name`s, and how many more. */
function sample(objs: KubeObject[]): string {
  const names = objs.slice(0, 3).map((o) => `${o.kind}/${o.metadata.name}`);
  return objs.length > 3 ? `${names.join(", ")} and ${objs.length - 3} more` : names.join(", ");
}

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** Condition types whose True means trouble (kube's namespace ones, Hearth's skipped cleanups). */
const TROUBLE = /(Failure|Failed|Remaining|Skipped|Stalled|Degraded|Error|Stuck)$/;

/**
 * The newest condition that says why the object waits: a trouble type that is
 * True, or any other that is False (Ready=False, DataStoreAllowedDeletion=False).
 */
export function telling(obj: KubeObject): string | undefined {
  const status = obj.status as { conditions?: unknown } | undefined;
  const all = Array.isArray(status?.conditions) ? (status.conditions as Condition[]) : [];
  const bad = all.filter((c) =>
    TROUBLE.test(c.type ?? "") ? c.status === "True" : c.status === "False",
  );
  bad.sort((a, b) => (b.lastTransitionTime ?? "").localeCompare(a.lastTransitionTime ?? ""));
  const c = bad[0];
  if (!c) return undefined;
  const why = [c.reason, c.message].filter(Boolean).join(": ");
  return `${c.type}=${c.status}${why ? ` ${why}` : ""}`;
}
