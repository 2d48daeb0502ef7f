/**
 * `hearth doctor`'s check as a function of the client: list everything (see
 * collect.ts), keep the objects whose deletion has waited longer than the
 * threshold, and analyse each; with a namespace, explain that namespace too.
 */
import type { KubeObject } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { analyze, type Finding, isStuck } from "./analysis.js";
import { clusterView } from "./cluster-view.js";
import { collect, type Listed } from "./collect.js";
import { type NamespaceReport, namespaceReport } from "./namespace-report.js";

export interface DoctorOptions {
  thresholdMs: number;
  namespace?: string;
  now?: () => Date;
  signal?: AbortSignal;
}

export interface DoctorReport {
  thresholdSeconds: number;
  /** Objects whose deletion has waited longer than the threshold, sorted. */
  stuck: Finding[];
  namespace?: NamespaceReport;
  /** Resources that could not be listed (so the report may miss objects of them). */
  unlisted: string[];
}

/** True when the report names something stuck: `hearth doctor` then exits 1. */
export function somethingStuck(report: DoctorReport): boolean {
  return report.stuck.length > 0;
}

export async function diagnose(client: Client, opts: DoctorOptions): Promise<DoctorReport> {
  const { objects, unlisted } = await collect(client, {
    ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return judge(objects, unlisted, opts);
}

/** The report over objects already listed: pure, for tests. */
export function judge(objects: Listed[], unlisted: string[], opts: DoctorOptions): DoctorReport {
  const now = (opts.now ?? (() => new Date()))();
  const view = clusterView(objects.map((l) => l.object));
  const resources = new Map<KubeObject, string>(objects.map((l) => [l.object, l.resource]));
  const resourceOf = (o: KubeObject) => resources.get(o) ?? o.kind.toLowerCase();
  const inScope = (o: KubeObject) =>
    opts.namespace === undefined ||
    o.metadata.namespace === opts.namespace ||
    (o.kind === "Namespace" && o.apiVersion === "v1" && o.metadata.name === opts.namespace);
  const stuck = objects
    .filter((l) => inScope(l.object) && isStuck(l.object, now, opts.thresholdMs))
    .map((l) => analyze(l.object, l.resource, view, now))
    .sort((a, b) => key(a).localeCompare(key(b)));
  const report: DoctorReport = { thresholdSeconds: opts.thresholdMs / 1000, stuck, unlisted };
  if (opts.namespace !== undefined) {
    const ns = objects.find(
      (l) =>
        l.object.kind === "Namespace" &&
        l.object.apiVersion === "v1" &&
        l.object.metadata.name === opts.namespace,
    )?.object;
    report.namespace = namespaceReport(opts.namespace, ns, view, resourceOf, now);
  }
  return report;
}

function key(f: Finding): string {
  return `${f.resource}/${f.namespace ?? ""}/${f.name}`;
}
