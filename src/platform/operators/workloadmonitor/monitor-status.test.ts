/**
 * A WorkloadMonitor's status from the pods around it: only pods of its
 * namespace carrying every selector label count, the Ready ones are
 * available, and it is operational unless fewer than minReplicas are.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod } from "../../../api/index.js";
import type { WorkloadMonitor } from "../../workloads-api.js";
import { isPodReady, monitorStatus, sameStatus, selects } from "./monitor-status.js";

const monitor = (minReplicas: number, selector = { app: "db" }): WorkloadMonitor => ({
  apiVersion: "cozystack.io/v1alpha1",
  kind: "WorkloadMonitor",
  metadata: { name: "db", namespace: "tenant-a" },
  spec: { selector, minReplicas, replicas: 3 },
});

const pod = (
  name: string,
  ready: boolean,
  labels: Record<string, string> = { app: "db", other: "x" },
  namespace = "tenant-a",
): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name, namespace, labels },
  spec: { containers: [] },
  status: {
    conditions: [
      { type: "PodScheduled", status: "True" },
      { type: "Ready", status: ready ? "True" : "False" },
    ],
  },
});

describe("monitorStatus", () => {
  it("counts the selected pods and the Ready ones among them", () => {
    const pods = [pod("a", true), pod("b", false), pod("c", true)];
    assert.deepEqual(monitorStatus(monitor(2), pods), {
      operational: true,
      observedReplicas: 3,
      availableReplicas: 2,
    });
  });

  it("is not operational only when fewer than minReplicas are available", () => {
    const pods = [pod("a", true), pod("b", false)];
    assert.equal(monitorStatus(monitor(1), pods).operational, true);
    assert.equal(monitorStatus(monitor(2), pods).operational, false);
    assert.deepEqual(monitorStatus(monitor(0), []), {
      operational: true,
      observedReplicas: 0,
      availableReplicas: 0,
    });
  });

  it("ignores pods of another namespace and pods missing a selector label", () => {
    const pods = [
      pod("same-labels-elsewhere", true, { app: "db" }, "tenant-b"),
      pod("other-app", true, { app: "web" }),
      pod("no-labels", true, {}),
      pod("mine", true),
    ];
    assert.deepEqual(monitorStatus(monitor(2), pods), {
      operational: false,
      observedReplicas: 1,
      availableReplicas: 1,
    });
  });

  it("needs every label of the selector", () => {
    const m = monitor(1, { app: "db", role: "voter" } as { app: string });
    assert.equal(selects(m, pod("a", true, { app: "db" })), false);
    assert.equal(selects(m, pod("a", true, { app: "db", role: "voter" })), true);
  });
});

describe("isPodReady", () => {
  it("reads the Ready condition only", () => {
    assert.equal(isPodReady(pod("a", true)), true);
    assert.equal(isPodReady(pod("a", false)), false);
    assert.equal(isPodReady({ ...pod("a", true), status: { phase: "Running" } }), false);
  });
});

describe("sameStatus", () => {
  it("compares the three fields", () => {
    const s = { operational: true, observedReplicas: 1, availableReplicas: 1 };
    assert.equal(sameStatus(s, { ...s }), true);
    assert.equal(sameStatus(undefined, s), false);
    assert.equal(sameStatus(s, { ...s, availableReplicas: 0 }), false);
    assert.equal(sameStatus(s, { ...s, operational: false }), false);
  });
});
