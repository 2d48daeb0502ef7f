/**
 * `kubectl get pods` cells as kube's printPod computes them, table-driven:
 * READY, STATUS (phase, reason, a waiting or failed container, init progress,
 * Terminating), RESTARTS with the time of the last restart, and the wide
 * columns IP, NODE, NOMINATED NODE and READINESS GATES.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ContainerStatus, KubeObject, Pod } from "../../api/index.js";
import { podColumns, summarize } from "./pod-columns.js";

type Status = NonNullable<Pod["status"]>;

function pod(
  status: Status,
  opts: { containers?: number; inits?: number; deleting?: boolean; spec?: object } = {},
): KubeObject {
  const names = (n: number, p: string) =>
    Array.from({ length: n }, (_, i) => ({ name: `${p}${i}`, image: "x" }));
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "p",
      namespace: "ns",
      ...(opts.deleting ? { deletionTimestamp: new Date().toISOString() } : {}),
    },
    spec: {
      containers: names(opts.containers ?? 1, "c"),
      ...(opts.inits ? { initContainers: names(opts.inits, "i") } : {}),
      ...(opts.spec ?? {}),
    },
    status,
  } as KubeObject;
}

const running = (ready = true, restartCount = 0): ContainerStatus =>
  ({
    name: "c",
    ready,
    restartCount,
    state: { running: { startedAt: "2026-01-01T00:00:00Z" } },
  }) as ContainerStatus;
const waiting = (reason: string, restartCount = 0): ContainerStatus =>
  ({ name: "c", ready: false, restartCount, state: { waiting: { reason } } }) as ContainerStatus;
const terminated = (t: { exitCode: number; reason?: string; signal?: number }): ContainerStatus =>
  ({ name: "c", ready: false, restartCount: 0, state: { terminated: t } }) as ContainerStatus;
const cond = (type: string, status: "True" | "False" = "True") => ({ type, status });

interface Case {
  why: string;
  pod: KubeObject;
  ready: string;
  status: string;
  restarts?: string;
}

const CASES: Case[] = [
  { why: "a pod without status is Pending", pod: pod({}), ready: "0/1", status: "Pending" },
  {
    why: "the phase is shown",
    pod: pod({ phase: "Running", containerStatuses: [running()] }),
    ready: "1/1",
    status: "Running",
  },
  {
    why: "status.reason wins over the phase",
    pod: pod({ phase: "Failed", reason: "Evicted" }),
    ready: "0/1",
    status: "Evicted",
  },
  {
    why: "a waiting container's reason is the status; running but not ready does not count",
    pod: pod(
      { phase: "Running", containerStatuses: [running(false), waiting("CrashLoopBackOff", 4)] },
      { containers: 2 },
    ),
    ready: "0/2",
    status: "CrashLoopBackOff",
    restarts: "4",
  },
  {
    why: "the first container's state is reported last (it is read from the end)",
    pod: pod(
      {
        phase: "Running",
        containerStatuses: [waiting("ErrImagePull"), waiting("ContainerCreating")],
      },
      { containers: 2 },
    ),
    ready: "0/2",
    status: "ErrImagePull",
  },
  {
    why: "a terminated container with a reason",
    pod: pod({
      phase: "Failed",
      containerStatuses: [terminated({ exitCode: 1, reason: "Error" })],
    }),
    ready: "0/1",
    status: "Error",
  },
  {
    why: "a terminated container without reason shows its signal",
    pod: pod({ phase: "Running", containerStatuses: [terminated({ exitCode: 137, signal: 9 })] }),
    ready: "0/1",
    status: "Signal:9",
  },
  {
    why: "a terminated container without reason or signal shows its exit code",
    pod: pod({ phase: "Running", containerStatuses: [terminated({ exitCode: 2 })] }),
    ready: "0/1",
    status: "ExitCode:2",
  },
  {
    why: "Completed next to a running container reads Running when the pod is Ready",
    pod: pod(
      {
        phase: "Running",
        conditions: [cond("Ready")],
        containerStatuses: [terminated({ exitCode: 0, reason: "Completed" }), running()],
      },
      { containers: 2 },
    ),
    ready: "1/2",
    status: "Running",
  },
  {
    why: "Completed next to a running container reads NotReady otherwise",
    pod: pod(
      {
        phase: "Running",
        conditions: [cond("Ready", "False")],
        containerStatuses: [terminated({ exitCode: 0, reason: "Completed" }), running()],
      },
      { containers: 2 },
    ),
    ready: "1/2",
    status: "NotReady",
  },
  {
    why: "init containers in progress show Init:i/n",
    pod: pod(
      {
        phase: "Pending",
        initContainerStatuses: [terminated({ exitCode: 0 }), waiting("PodInitializing")],
      },
      { inits: 3 },
    ),
    ready: "0/1",
    status: "Init:1/3",
  },
  {
    why: "a waiting init container's reason",
    pod: pod(
      { phase: "Pending", initContainerStatuses: [waiting("ImagePullBackOff", 2)] },
      { inits: 1 },
    ),
    ready: "0/1",
    status: "Init:ImagePullBackOff",
    restarts: "2",
  },
  {
    why: "a failed init container's reason",
    pod: pod(
      { phase: "Pending", initContainerStatuses: [terminated({ exitCode: 1, reason: "Error" })] },
      { inits: 1 },
    ),
    ready: "0/1",
    status: "Init:Error",
  },
  {
    why: "a failed init container's signal",
    pod: pod(
      { phase: "Pending", initContainerStatuses: [terminated({ exitCode: 143, signal: 15 })] },
      { inits: 1 },
    ),
    ready: "0/1",
    status: "Init:Signal:15",
  },
  {
    why: "a failed init container's exit code",
    pod: pod(
      { phase: "Pending", initContainerStatuses: [terminated({ exitCode: 3 })] },
      { inits: 1 },
    ),
    ready: "0/1",
    status: "Init:ExitCode:3",
  },
  {
    why: "all init containers done: the main containers decide",
    pod: pod(
      {
        phase: "Pending",
        initContainerStatuses: [terminated({ exitCode: 0 })],
        containerStatuses: [waiting("ContainerCreating")],
      },
      { inits: 1 },
    ),
    ready: "0/1",
    status: "ContainerCreating",
  },
  {
    why: "an Initialized pod counts only its main containers' restarts",
    pod: pod(
      {
        phase: "Running",
        conditions: [cond("Initialized")],
        initContainerStatuses: [{ ...running(), restartCount: 5 }],
        containerStatuses: [running(true, 1)],
      },
      { inits: 1 },
    ),
    ready: "1/1",
    status: "Init:0/1",
    restarts: "1",
  },
  {
    why: "a running pod being deleted is Terminating",
    pod: pod({ phase: "Running", containerStatuses: [running()] }, { deleting: true }),
    ready: "1/1",
    status: "Terminating",
  },
  {
    why: "a finished pod being deleted keeps its phase",
    pod: pod({ phase: "Succeeded" }, { deleting: true }),
    ready: "0/1",
    status: "Succeeded",
  },
];

describe("summarize (kubectl get pods READY / STATUS / RESTARTS)", () => {
  for (const c of CASES)
    it(c.why, () => {
      const s = summarize(c.pod);
      assert.equal(s.ready, c.ready);
      assert.equal(s.status, c.status);
      assert.equal(s.restarts, c.restarts ?? "0");
    });

  it("shows when the last restart was, from the newest finishedAt of any container", () => {
    const finished = (ago: number) => ({
      terminated: { exitCode: 1, finishedAt: new Date(Date.now() - ago).toISOString() },
    });
    const p = pod(
      {
        phase: "Running",
        containerStatuses: [
          { ...running(true, 2), lastState: finished(2 * 3600_000) },
          { ...running(true, 1), lastState: finished(5 * 60_000) },
        ],
      } as Status,
      { containers: 2 },
    );
    assert.equal(summarize(p).restarts, "3 (5m ago)");
  });
});

describe("pod wide columns", () => {
  const cell = (name: string, o: KubeObject) => podColumns.find((c) => c.name === name)!.cell(o);

  it("are printed only with -o wide (priority 1) after the AGE column", () => {
    assert.deepEqual(
      podColumns.map((c) => [c.name, c.priority ?? 0]),
      [
        ["Ready", 0],
        ["Status", 0],
        ["Restarts", 0],
        ["Age", 0],
        ["IP", 1],
        ["Node", 1],
        ["Nominated Node", 1],
        ["Readiness Gates", 1],
      ],
    );
  });

  it("show <none> for what is not set", () => {
    const p = pod({});
    for (const name of ["IP", "Node", "Nominated Node", "Readiness Gates"])
      assert.equal(cell(name, p), "<none>", name);
  });

  it("prefer the first of podIPs over podIP, and show the node and nominated node", () => {
    const p = pod(
      {
        podIP: "10.0.0.9",
        podIPs: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }],
        nominatedNodeName: "n2",
      } as Status,
      { spec: { nodeName: "n1" } },
    );
    assert.equal(cell("IP", p), "10.0.0.1");
    assert.equal(cell("IP", pod({ podIP: "10.0.0.9" } as Status)), "10.0.0.9");
    assert.equal(cell("Node", p), "n1");
    assert.equal(cell("Nominated Node", p), "n2");
  });
});
