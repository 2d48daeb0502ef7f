/**
 * An app's `WorkloadsReady` condition from its WorkloadMonitors (Cozystack's
 * synthetic condition): `workloadsReady` aggregates the monitors labelled with
 * the app's labels — True when every one is operational, False when any is
 * not, Unknown while none has reported (fail-open) — and `readWorkloads` reads
 * them from the namespaces the app's render put monitors in (a Tenant's own
 * namespace, for a Tenant). It never decides `Ready`: that stays the module's.
 */
import type { KubeObject } from "../../api/index.js";
import { ignoreNotFound, type Reader } from "../../client/index.js";
import type { ConditionStatus } from "../../runtime/index.js";
import { WORKLOAD_MONITOR, type WorkloadMonitor } from "../workloads-api.js";
import { APPS_GROUP, type App, LABEL_APP_GROUP, LABEL_APP_KIND, LABEL_APP_NAME } from "./module.js";

export interface WorkloadsCondition {
  status: ConditionStatus;
  reason: string;
  message: string;
}

/** The labels by which an app's monitors are its own (the ones the engine stamps on children). */
export function appLabels(app: App): Record<string, string> {
  return {
    [LABEL_APP_KIND]: app.kind,
    [LABEL_APP_GROUP]: APPS_GROUP,
    [LABEL_APP_NAME]: app.metadata.name ?? "",
  };
}

const describe = (m: WorkloadMonitor) => {
  const s = m.status ?? {};
  return `${m.metadata.name}: ${s.availableReplicas ?? 0}/${m.spec?.minReplicas ?? 0} available (of ${s.observedReplicas ?? 0} observed)`;
};

export function workloadsReady(app: App, monitors: readonly WorkloadMonitor[]): WorkloadsCondition {
  const labels = Object.entries(appLabels(app));
  const own = monitors
    .filter((m) => labels.every(([k, v]) => m.metadata.labels?.[k] === v))
    .sort((a, b) => (a.metadata.name ?? "").localeCompare(b.metadata.name ?? ""));
  const down = own.filter((m) => m.status?.operational === false);
  if (down.length > 0)
    return {
      status: "False",
      reason: "WorkloadsNotOperational",
      message: `not operational: ${down.map(describe).join("; ")}`,
    };
  const pending = own.filter((m) => typeof m.status?.operational !== "boolean");
  if (own.length === 0 || pending.length > 0)
    return {
      status: "Unknown",
      reason: "WorkloadsPending",
      message:
        own.length === 0
          ? "no workload monitor of this app exists yet"
          : `waiting for ${pending.map((m) => m.metadata.name).join(", ")} to report`,
    };
  return {
    status: "True",
    reason: "WorkloadsOperational",
    message: `operational: ${own.map(describe).join("; ")}`,
  };
}

const isMonitor = (o: KubeObject) =>
  o.apiVersion === WORKLOAD_MONITOR.apiVersion && o.kind === WORKLOAD_MONITOR.kind;

/**
 * The app's `WorkloadsReady` from the live monitors of the namespaces its
 * render put monitors in; undefined when it renders none (then the module's
 * report stands). A kind not served (no monitor component) reads as no monitor.
 */
export async function readWorkloads(
  reader: Reader,
  app: App,
  children: readonly KubeObject[],
): Promise<WorkloadsCondition | undefined> {
  const namespaces = new Set(
    children.filter(isMonitor).map((c) => c.metadata.namespace ?? app.metadata.namespace ?? ""),
  );
  if (namespaces.size === 0) return undefined;
  const labelSelector = Object.entries(appLabels(app))
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  const monitors: WorkloadMonitor[] = [];
  for (const namespace of namespaces) {
    const list = await ignoreNotFound(
      reader.list<WorkloadMonitor>(WORKLOAD_MONITOR, { namespace, labelSelector }),
    );
    monitors.push(...(list?.items ?? []));
  }
  return workloadsReady(app, monitors);
}
