import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { node, pod } from "../../../test/support/fixtures/scheduler.js";
import { fitErrorMessage, schedule } from "./fit.js";
import { podRequests } from "./resources.js";
import type { Pod } from "./types.js";

const bound = (nodeName: string, ...pods: Pod[]) => pods.map((p) => ({ pod: p, nodeName }));

describe("scheduler fit", () => {
  it("sums container requests, takes the largest init container, adds overhead", () => {
    const p = pod("p", {
      spec: {
        containers: [
          { name: "a", resources: { requests: { cpu: "100m", memory: "64Mi" } } },
          { name: "b", resources: { limits: { cpu: "200m" } } },
        ],
        initContainers: [{ name: "i", resources: { requests: { cpu: "1", memory: "1Mi" } } }],
        overhead: { cpu: "10m" },
      },
    });
    const r = podRequests(p);
    assert.equal(r.get("cpu"), 1010);
    assert.equal(r.get("memory"), 64 * 2 ** 20);
  });

  it("binds to a Ready node with room and prefers the emptier one", () => {
    const nodes = [node("a", { cpu: "2" }), node("b", { cpu: "2" })];
    const busy = pod("busy", { cpu: "1500m" });
    assert.deepEqual(schedule(pod("p", { cpu: "500m" }), { nodes, bound: bound("a", busy) }), {
      nodeName: "b",
    });
    assert.deepEqual(schedule(pod("p"), { nodes, bound: [] }), { nodeName: "a" });
  });

  it("counts requests of pods already bound, but not finished ones", () => {
    const nodes = [node("a", { cpu: "1" })];
    const running = pod("r", { cpu: "800m", phase: "Running" });
    const done = pod("d", { cpu: "800m", phase: "Succeeded" });
    assert.deepEqual(schedule(pod("p", { cpu: "300m" }), { nodes, bound: bound("a", running) }), {
      unschedulable: "0/1 nodes are available: 1 Insufficient cpu.",
    });
    assert.deepEqual(schedule(pod("p", { cpu: "300m" }), { nodes, bound: bound("a", done) }), {
      nodeName: "a",
    });
  });

  it("explains every node's reason as kube does", () => {
    const ssd = { disk: "ssd" };
    const nodes = [
      node("small", { cpu: "100m", memory: "1Mi", labels: ssd }),
      node("down", { ready: "False" }),
      node("gone", { ready: "Unknown" }),
      node("cordoned", { unschedulable: true }),
      node("full", { pods: 1, labels: ssd }),
      node("other", { labels: { disk: "hdd" } }),
    ];
    const p = pod("p", { cpu: "1", memory: "1Gi", spec: { nodeSelector: { disk: "ssd" } } });
    const d = schedule(p, { nodes, bound: bound("full", pod("x")) });
    assert.deepEqual(d, {
      unschedulable:
        "0/6 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods, " +
        "1 node(s) didn't match Pod's node affinity/selector, " +
        "1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, " +
        "1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, " +
        "1 node(s) were unschedulable.",
    });
  });

  it("matches nodeSelector and honours taints with tolerations", () => {
    const nodes = [
      node("ssd", {
        labels: { disk: "ssd" },
        taints: [{ key: "dedicated", value: "db", effect: "NoSchedule" }],
      }),
      node("hdd", { labels: { disk: "hdd" } }),
    ];
    const selecting = pod("p", { spec: { nodeSelector: { disk: "ssd" } } });
    assert.deepEqual(schedule(selecting, { nodes, bound: [] }), {
      unschedulable:
        "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: db}.",
    });
    const tolerating = pod("p", {
      spec: {
        nodeSelector: { disk: "ssd" },
        tolerations: [{ key: "dedicated", operator: "Equal", value: "db", effect: "NoSchedule" }],
      },
    });
    assert.deepEqual(schedule(tolerating, { nodes, bound: [] }), { nodeName: "ssd" });
    const notReadyOk = pod("q", { spec: { tolerations: [{ operator: "Exists" }] } });
    assert.deepEqual(schedule(notReadyOk, { nodes: [node("n", { ready: "absent" })], bound: [] }), {
      nodeName: "n",
    });
  });

  it("binds a pod pinned by node affinity matchFields (a DaemonSet's) to that node only", () => {
    const nodes = [node("a"), node("b")];
    const pinned = pod("p", {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchFields: [{ key: "metadata.name", operator: "In", values: ["b"] }] },
              ],
            },
          },
        },
      },
    });
    assert.deepEqual(schedule(pinned, { nodes, bound: [] }), { nodeName: "b" });
    assert.deepEqual(schedule(pinned, { nodes: [node("a")], bound: [] }), {
      unschedulable:
        "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
    });
  });

  it("reports no nodes as kube does", () => {
    assert.deepEqual(schedule(pod("p"), { nodes: [], bound: [] }), {
      unschedulable: "no nodes available to schedule pods",
    });
    assert.equal(
      fitErrorMessage(3, new Map([["Insufficient cpu", 3]])),
      "0/3 nodes are available: 3 Insufficient cpu.",
    );
  });
});

describe("scheduler host ports (NodePorts)", () => {
  const withPort = (name: string, port: { hostPort: number; hostIP?: string; protocol?: string }) =>
    pod(name, {
      spec: { containers: [{ name: "c", ports: [{ containerPort: 80, ...port }] }] },
    });

  it("keeps a pod off a node where its host port is held", () => {
    const nodes = [node("a"), node("b")];
    const held = bound("a", withPort("x", { hostPort: 8080 }));
    assert.deepEqual(schedule(withPort("p", { hostPort: 8080 }), { nodes, bound: held }), {
      nodeName: "b",
    });
    assert.deepEqual(
      schedule(withPort("p", { hostPort: 8080 }), { nodes: [node("a")], bound: held }),
      {
        unschedulable:
          "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports.",
      },
    );
  });

  it("lets ports differ by protocol or by distinct host IPs, not by one wildcard", () => {
    const nodes = [node("a")];
    const one = (p: Pod, q: Pod) => schedule(p, { nodes, bound: bound("a", q) });
    const tcp = withPort("x", { hostPort: 53 });
    assert.deepEqual(one(withPort("p", { hostPort: 53, protocol: "UDP" }), tcp), { nodeName: "a" });
    const onIp = withPort("x", { hostPort: 53, hostIP: "10.0.0.1" });
    assert.deepEqual(one(withPort("p", { hostPort: 53, hostIP: "10.0.0.2" }), onIp), {
      nodeName: "a",
    });
    assert.ok("unschedulable" in one(withPort("p", { hostPort: 53 }), onIp));
    assert.ok("unschedulable" in one(withPort("p", { hostPort: 53, hostIP: "0.0.0.0" }), onIp));
  });
});
