/**
 * The WorkloadMonitor controller against a real in-process apiserver
 * (test/support/envtest.ts): a monitor's status follows its pods as they are
 * created, become Ready and go; pods its selector does not match, pods without
 * the app lineage labels and pods of another namespace never count.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { KubeObject } from "../../src/api/types.js";
import { installCrds } from "../../src/platform/crds.js";
import type { App } from "../../src/platform/engine/module.js";
import { appLabels, readWorkloads } from "../../src/platform/engine/workloads-ready.js";
import {
  registerWorkloadMonitors,
  WORKLOAD_MONITOR_CRD,
} from "../../src/platform/operators/workloadmonitor/index.js";
import {
  WORKLOAD_MONITOR,
  type WorkloadMonitor,
  type WorkloadMonitorStatus,
} from "../../src/platform/workloads-api.js";
import { reconcileTotal } from "../../src/runtime/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const LINEAGE = { "apps.cozystack.io/application.group": "apps.cozystack.io" };

function monitor(namespace: string, minReplicas: number): WorkloadMonitor {
  return {
    ...WORKLOAD_MONITOR,
    metadata: { name: "db", namespace },
    spec: { selector: { app: "db" }, kind: "test", type: "test", replicas: 3, minReplicas },
  };
}

function pod(namespace: string, name: string, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace, labels },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  };
}

describe("WorkloadMonitor controller", () => {
  let env: Env;
  beforeEach(async () => {
    env = await startEnv();
    const ctl = new AbortController();
    await installCrds(env.client, [WORKLOAD_MONITOR_CRD], "test", ctl.signal);
    for (const name of ["tenant-a", "tenant-b"])
      await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
    registerWorkloadMonitors(env.manager);
    env.startManager();
  });
  afterEach(() => env.stop());

  const statusOf = async (namespace: string) =>
    (await env.client.get<WorkloadMonitor>({ ...WORKLOAD_MONITOR, namespace, name: "db" })).status;

  /** Waits until monitor `db` of `namespace` reports exactly `want`. */
  const reports = (namespace: string, want: WorkloadMonitorStatus) =>
    waitFor(`${namespace}/db to report ${JSON.stringify(want)}`, async () => {
      const s = await statusOf(namespace);
      return JSON.stringify(s) === JSON.stringify(want) ? true : undefined;
    }).catch(async (e) => {
      throw new Error(
        `${(e as Error).message}; last: ${JSON.stringify(await statusOf(namespace))}`,
      );
    });

  const setReady = (namespace: string, name: string, ready: boolean) =>
    env.client.patchStatus(
      { apiVersion: "v1", kind: "Pod", namespace, name },
      { status: { conditions: [{ type: "Ready", status: ready ? "True" : "False" }] } },
      { type: "merge" },
    );

  it("follows its pods as they are created, become Ready and are deleted", async () => {
    await env.client.create(monitor("tenant-a", 2));
    await reports("tenant-a", { operational: false, observedReplicas: 0, availableReplicas: 0 });
    for (const name of ["db-0", "db-1"])
      await env.client.create(pod("tenant-a", name, { ...LINEAGE, app: "db" }));
    await reports("tenant-a", { operational: false, observedReplicas: 2, availableReplicas: 0 });
    await setReady("tenant-a", "db-0", true);
    await reports("tenant-a", { operational: false, observedReplicas: 2, availableReplicas: 1 });
    await setReady("tenant-a", "db-1", true);
    await reports("tenant-a", { operational: true, observedReplicas: 2, availableReplicas: 2 });
    await setReady("tenant-a", "db-1", false);
    await reports("tenant-a", { operational: false, observedReplicas: 2, availableReplicas: 1 });
    await setReady("tenant-a", "db-1", true);
    await reports("tenant-a", { operational: true, observedReplicas: 2, availableReplicas: 2 });
    await env.client.delete(
      { apiVersion: "v1", kind: "Pod", namespace: "tenant-a", name: "db-1" },
      { gracePeriodSeconds: 0 },
    );
    await reports("tenant-a", { operational: false, observedReplicas: 1, availableReplicas: 1 });
  });

  it("does nothing when nothing changes: no timer wakes it", async () => {
    const reconciles = async () =>
      (await reconcileTotal.get()).values
        .filter((v) => v.labels.controller === "workloadmonitor")
        .reduce((n, v) => n + v.value, 0);
    await env.client.create(monitor("tenant-a", 1));
    await env.client.create(pod("tenant-a", "db-0", { ...LINEAGE, app: "db" }));
    await setReady("tenant-a", "db-0", true);
    await reports("tenant-a", { operational: true, observedReplicas: 1, availableReplicas: 1 });
    // Its own status write comes back as an update of the monitor: let that pass, then count.
    await sleep(300);
    const settled = await reconciles();
    // A quiet window (the runtime's back-off and requeues would show within it).
    await sleep(1500);
    assert.equal(await reconciles(), settled);
  });

  it("follows a change of its own spec and of a pod's labels", async () => {
    await env.client.create(monitor("tenant-a", 2));
    await env.client.create(pod("tenant-a", "db-0", { ...LINEAGE, app: "db" }));
    await setReady("tenant-a", "db-0", true);
    await reports("tenant-a", { operational: false, observedReplicas: 1, availableReplicas: 1 });
    await env.client.patch(
      { ...WORKLOAD_MONITOR, namespace: "tenant-a", name: "db" },
      { spec: { minReplicas: 1 } },
      { type: "merge" },
    );
    await reports("tenant-a", { operational: true, observedReplicas: 1, availableReplicas: 1 });
    // The pod leaves the selector: its update must wake the monitor that selected it before.
    await env.client.patch(
      { apiVersion: "v1", kind: "Pod", namespace: "tenant-a", name: "db-0" },
      { metadata: { labels: { app: "web" } } },
      { type: "merge" },
    );
    await reports("tenant-a", { operational: false, observedReplicas: 0, availableReplicas: 0 });
  });

  it("counts neither unselected pods, nor pods without lineage, nor another namespace's", async () => {
    await env.client.create(monitor("tenant-a", 1));
    await env.client.create(monitor("tenant-b", 1));
    await reports("tenant-a", { operational: false, observedReplicas: 0, availableReplicas: 0 });
    await reports("tenant-b", { operational: false, observedReplicas: 0, availableReplicas: 0 });
    const strangers = [
      pod("tenant-a", "web-0", { ...LINEAGE, app: "web" }),
      pod("tenant-a", "bare-0", { app: "db" }),
      pod("tenant-b", "db-0", { ...LINEAGE, app: "db" }),
    ];
    for (const p of strangers) {
      await env.client.create(p);
      await setReady(p.metadata.namespace!, p.metadata.name!, true);
    }
    // tenant-b's own pod counts there: its events were seen.
    await reports("tenant-b", { operational: true, observedReplicas: 1, availableReplicas: 1 });
    // One pod of tenant-a's own, created after the strangers: once it is counted, they were seen too.
    await env.client.create(pod("tenant-a", "db-0", { ...LINEAGE, app: "db" }));
    await setReady("tenant-a", "db-0", true);
    await reports("tenant-a", { operational: true, observedReplicas: 1, availableReplicas: 1 });
    // And a monitor created now, after every pod, counts only its own from the start.
    await env.client.delete({ ...WORKLOAD_MONITOR, namespace: "tenant-a", name: "db" });
    await env.client.create(monitor("tenant-a", 2));
    await reports("tenant-a", { operational: false, observedReplicas: 1, availableReplicas: 1 });
  });
});

describe("readWorkloads", () => {
  let env: Env;
  beforeEach(async () => {
    env = await startEnv();
  });
  afterEach(() => env.stop());

  const app: App = {
    apiVersion: "apps.cozystack.io/v1alpha1",
    kind: "Etcd",
    metadata: { name: "etcd", namespace: "tenant-a" },
  };
  const rendered = { ...monitor("tenant-a", 1), metadata: { name: "etcd", namespace: "tenant-a" } };
  const stored = (name: string, labels: Record<string, string>, operational: boolean) => ({
    ...monitor("tenant-a", 1),
    metadata: { name, namespace: "tenant-a", labels },
    status: { operational, observedReplicas: 1, availableReplicas: operational ? 1 : 0 },
  });

  it("reads the app's own monitors where its render put them, and nothing when it renders none", async () => {
    // Not served yet: no monitor reports, which is Unknown, not an error.
    assert.equal((await readWorkloads(env.client, app, [rendered]))?.status, "Unknown");
    const ctl = new AbortController();
    await installCrds(env.client, [WORKLOAD_MONITOR_CRD], "test", ctl.signal);
    await env.client.create({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "tenant-a" },
    });
    const write = async (m: ReturnType<typeof stored>) => {
      const { status, ...obj } = m;
      await env.client.create(obj);
      await env.client.patchStatus(
        { ...WORKLOAD_MONITOR, namespace: "tenant-a", name: m.metadata.name },
        { status },
        { type: "merge" },
      );
    };
    await write(stored("etcd", appLabels(app), true));
    // Another app's monitor in the same namespace is not this app's.
    await write(
      stored("other", { ...appLabels(app), "apps.cozystack.io/application.name": "x" }, false),
    );
    const c = await readWorkloads(env.client, app, [rendered]);
    assert.deepEqual([c?.status, c?.reason], ["True", "WorkloadsOperational"]);
    assert.equal(await readWorkloads(env.client, app, []), undefined);
  });
});
