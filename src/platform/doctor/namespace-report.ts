/**
 * Why a namespace is still Terminating: the deletion conditions the namespace
 * controller set on it (kube's five: NamespaceDeletionDiscoveryFailure,
 * NamespaceDeletionGroupVersionParsingFailure, NamespaceDeletionContentFailure,
 * NamespaceContentRemaining, NamespaceFinalizersRemaining) that say something is
 * wrong or left, and every object still inside with the doctor's analysis of it.
 */
import type { KubeObject } from "../../api/index.js";
import { analyze, type Finding, waitingSeconds } from "./analysis.js";
import type { ClusterView } from "./cluster-view.js";

export interface NamespaceCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface NamespaceReport {
  name: string;
  /** `Active`, `Terminating`, or `NotFound` when the namespace is gone. */
  phase: string;
  waitingSeconds: number;
  /** The namespace itself: its finalizers (`kubernetes`) and next step. */
  namespace?: Finding;
  /** Conditions that say why it waits: the failures that are True, the remaining content. */
  conditions: NamespaceCondition[];
  /** A line for when the namespace controller has said nothing yet. */
  note?: string;
  /** Every object still inside a Terminating namespace; in another, those being deleted. */
  objects: Finding[];
}

/** A resource name per object, for the kubectl commands of its finding. */
export type ResourceOf = (obj: KubeObject) => string;

export function namespaceReport(
  name: string,
  ns: KubeObject | undefined,
  view: ClusterView,
  resourceOf: ResourceOf,
  now: Date,
): NamespaceReport {
  if (!ns) return { name, phase: "NotFound", waitingSeconds: 0, conditions: [], objects: [] };
  const phase = (ns.status as { phase?: string } | undefined)?.phase ?? "Active";
  const all = (ns.status as { conditions?: NamespaceCondition[] } | undefined)?.conditions ?? [];
  const conditions = all.filter((c) => c.status === "True");
  // In a namespace not being deleted, only what is itself being deleted is of interest.
  const objects = view
    .inNamespace(name)
    .filter((o) => ns.metadata.deletionTimestamp !== undefined || o.metadata.deletionTimestamp)
    .map((o) => analyze(o, resourceOf(o), view, now))
    .sort((a, b) => `${a.resource}/${a.name}`.localeCompare(`${b.resource}/${b.name}`));
  const report: NamespaceReport = {
    name,
    phase,
    waitingSeconds: waitingSeconds(ns, now),
    conditions,
    objects,
  };
  if (ns.metadata.deletionTimestamp) report.namespace = analyze(ns, "namespace", view, now);
  if (ns.metadata.deletionTimestamp && all.length === 0)
    report.note =
      "the namespace controller has set no condition yet: it has not seen the deletion (is hearth up running?)";
  return report;
}
