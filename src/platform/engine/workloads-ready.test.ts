/**
 * An app's WorkloadsReady from its WorkloadMonitors: only monitors labelled
 * with the app's kind, group and name count; True when all are operational,
 * False when any is not, Unknown while none reports. `installedConditions`
 * takes it for WorkloadsReady and never lets it decide Ready.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findCondition } from "../../runtime/index.js";
import type { WorkloadMonitor, WorkloadMonitorStatus } from "../workloads-api.js";
import { installedConditions } from "./app-status.js";
import { APPS_API_VERSION, type App } from "./module.js";
import { appLabels, workloadsReady } from "./workloads-ready.js";

const app: App = {
  apiVersion: APPS_API_VERSION,
  kind: "Etcd",
  metadata: { name: "etcd", namespace: "tenant-a", generation: 1 },
};

const monitor = (
  name: string,
  status?: WorkloadMonitorStatus,
  labels: Record<string, string> = appLabels(app),
): WorkloadMonitor => ({
  apiVersion: "cozystack.io/v1alpha1",
  kind: "WorkloadMonitor",
  metadata: { name, namespace: "tenant-a", labels },
  spec: { minReplicas: 2 },
  ...(status ? { status } : {}),
});

const up = { operational: true, observedReplicas: 3, availableReplicas: 3 };
const down = { operational: false, observedReplicas: 3, availableReplicas: 1 };

describe("workloadsReady", () => {
  it("is True when every monitor of the app is operational", () => {
    const c = workloadsReady(app, [monitor("a", up), monitor("b", up)]);
    assert.equal(c.status, "True");
    assert.equal(c.reason, "WorkloadsOperational");
    assert.match(c.message, /a: 3\/2 available \(of 3 observed\); b:/);
  });

  it("is False when any monitor is not, naming it", () => {
    const c = workloadsReady(app, [monitor("a", up), monitor("b", down), monitor("c")]);
    assert.equal(c.status, "False");
    assert.equal(c.reason, "WorkloadsNotOperational");
    assert.equal(c.message, "not operational: b: 1/2 available (of 3 observed)");
  });

  it("is Unknown while none has reported, or there is none (fail-open)", () => {
    assert.equal(workloadsReady(app, []).status, "Unknown");
    const c = workloadsReady(app, [monitor("a", up), monitor("b")]);
    assert.deepEqual(
      [c.status, c.reason, c.message],
      ["Unknown", "WorkloadsPending", "waiting for b to report"],
    );
  });

  it("counts only the monitors labelled with the app's kind, group and name", () => {
    const other = (key: string, value: string) =>
      monitor(`not-${value}`, down, { ...appLabels(app), [key]: value });
    const foreign = [
      other("apps.cozystack.io/application.name", "etcd2"),
      other("apps.cozystack.io/application.kind", "Postgres"),
      other("apps.cozystack.io/application.group", "example.com"),
      monitor("unlabelled", down, {}),
    ];
    assert.equal(workloadsReady(app, foreign).status, "Unknown");
    assert.equal(workloadsReady(app, [...foreign, monitor("a", up)]).status, "True");
  });
});

describe("installedConditions with monitors", () => {
  const installed = (ready: boolean, workloads?: ReturnType<typeof workloadsReady>) =>
    installedConditions(app, {
      kind: "Etcd",
      applied: 4,
      pruning: [],
      report: { ready, reason: ready ? "EtcdClusterReady" : "Progressing", message: "m" },
      ...(workloads ? { workloads } : {}),
    });

  it("takes WorkloadsReady from the monitors and Ready from the module's report", () => {
    const conditions = installed(true, workloadsReady(app, [monitor("a", down)]));
    assert.equal(findCondition(conditions, "WorkloadsReady")?.status, "False");
    assert.equal(findCondition(conditions, "WorkloadsReady")?.reason, "WorkloadsNotOperational");
    assert.equal(findCondition(conditions, "Ready")?.status, "True");
    const pending = installed(false, workloadsReady(app, [monitor("a", up)]));
    assert.equal(findCondition(pending, "WorkloadsReady")?.status, "True");
    assert.equal(findCondition(pending, "Ready")?.status, "False");
  });

  it("keeps the module's report for WorkloadsReady without monitors", () => {
    const c = findCondition(installed(false), "WorkloadsReady");
    assert.deepEqual([c?.status, c?.reason], ["False", "Progressing"]);
  });
});
