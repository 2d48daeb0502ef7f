import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod } from "../api/index.js";
import type { ContainerRecord } from "./pod-state.js";
import { type ContainerView, computeStatus, type PodView } from "./pod-status.js";

const NOW = "2025-01-01T00:00:10Z";

function pod(spec: Partial<Pod["spec"]> = {}, status: Pod["status"] = {}): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns", uid: "u" },
    spec: { containers: [{ name: "c", image: "etcd" }], ...spec },
    status,
  };
}

const exited = (code: number, restartCount = 0): ContainerRecord => ({
  restartCount,
  current: {
    attempt: restartCount,
    startedAt: "2025-01-01T00:00:00Z",
    exit: {
      exitCode: code,
      reason: code === 0 ? "Completed" : "Error",
      finishedAt: "2025-01-01T00:00:05Z",
    },
  },
});
const running = (restartCount = 0): ContainerRecord => ({
  restartCount,
  current: { attempt: restartCount, startedAt: "2025-01-01T00:00:06Z", containerId: "c" },
  ...(restartCount
    ? {
        previous: {
          attempt: restartCount - 1,
          startedAt: "2025-01-01T00:00:00Z",
          exit: { exitCode: 137, signal: 9, reason: "Error", finishedAt: "2025-01-01T00:00:05Z" },
        },
      }
    : {}),
});

function c(
  name: string,
  record: ContainerRecord | undefined,
  extra: Partial<ContainerView> = {},
): ContainerView {
  const live = !!record?.current && !record.current.exit;
  return {
    name,
    image: "etcd",
    imageID: "hearth://etcd",
    ...(record ? { record } : {}),
    running: live,
    ready: live,
    started: live,
    ...extra,
  };
}

function view(p: Pod, containers: ContainerView[], extra: Partial<PodView> = {}): PodView {
  return {
    pod: p,
    podIP: "127.1.0.4",
    hostIP: "127.0.0.1",
    startTime: "2025-01-01T00:00:00Z",
    init: [],
    containers,
    now: NOW,
    ...extra,
  };
}

const cond = (s: ReturnType<typeof computeStatus>, type: string) =>
  s.conditions?.find((x) => x.type === type);

describe("computeStatus", () => {
  it("reports a ready running container, its IPs and the kubelet's conditions", () => {
    const s = computeStatus(view(pod(), [c("c", running())]));
    assert.equal(s.phase, "Running");
    assert.equal(s.podIP, "127.1.0.4");
    assert.deepEqual(s.podIPs, [{ ip: "127.1.0.4" }]);
    assert.deepEqual(s.containerStatuses?.[0]?.state, {
      running: { startedAt: "2025-01-01T00:00:06Z" },
    });
    assert.equal(s.containerStatuses?.[0]?.ready, true);
    for (const t of [
      "PodScheduled",
      "Initialized",
      "ContainersReady",
      "Ready",
      "PodReadyToStartContainers",
    ])
      assert.equal(cond(s, t)?.status, "True", t);
  });

  it("shows a restarted container's last termination and a crash loop's waiting reason", () => {
    const restarted = computeStatus(view(pod(), [c("c", running(1))]));
    assert.equal(restarted.containerStatuses?.[0]?.restartCount, 1);
    assert.equal(restarted.containerStatuses?.[0]?.lastState?.terminated?.exitCode, 137);
    const looping = computeStatus(
      view(pod(), [
        c("c", exited(1, 3), { waiting: { reason: "CrashLoopBackOff", message: "back-off 40s" } }),
      ]),
    );
    const st = looping.containerStatuses![0]!;
    assert.deepEqual(st.state, {
      waiting: { reason: "CrashLoopBackOff", message: "back-off 40s" },
    });
    assert.equal(st.lastState?.terminated?.exitCode, 1);
    assert.equal(
      looping.phase,
      "Running",
      "restartPolicy Always keeps a crash-looping pod Running",
    );
    assert.equal(cond(looping, "Ready")?.status, "False");
    assert.equal(cond(looping, "Ready")?.message, "containers with unready status: [c]");
  });

  it("ends in Succeeded or Failed by the restart policy, and stays there", () => {
    assert.equal(
      computeStatus(view(pod({ restartPolicy: "Never" }), [c("c", exited(0))])).phase,
      "Succeeded",
    );
    assert.equal(
      computeStatus(view(pod({ restartPolicy: "Never" }), [c("c", exited(2))])).phase,
      "Failed",
    );
    assert.equal(
      computeStatus(view(pod({ restartPolicy: "OnFailure" }), [c("c", exited(0))])).phase,
      "Succeeded",
    );
    const done = computeStatus(
      view(pod({ restartPolicy: "Never" }, { phase: "Failed", reason: "DeadlineExceeded" }), [
        c("c", undefined),
      ]),
    );
    assert.equal(done.phase, "Failed");
    assert.equal(done.reason, "DeadlineExceeded");
    const s = computeStatus(view(pod({ restartPolicy: "Never" }), [c("c", exited(0))]));
    assert.equal(cond(s, "Ready")?.reason, "PodCompleted");
  });

  it("is Pending while init containers run or a volume is not ready", () => {
    const p = pod({ initContainers: [{ name: "init", image: "busybox" }] });
    const s = computeStatus(
      view(p, [c("c", undefined, { waiting: { reason: "PodInitializing" } })], {
        init: [c("init", running())],
      }),
    );
    assert.equal(s.phase, "Pending");
    assert.equal(cond(s, "Initialized")?.message, "containers with incomplete status: [init]");
    assert.deepEqual(s.containerStatuses?.[0]?.state, { waiting: { reason: "PodInitializing" } });
    const blocked = computeStatus(
      view(pod(), [c("c", undefined)], {
        blocked: {
          reason: "PersistentVolumeClaimNotBound",
          message: 'persistentvolumeclaim "data" is not bound',
        },
      }),
    );
    assert.equal(blocked.phase, "Pending");
    assert.deepEqual(
      [
        cond(blocked, "PodReadyToStartContainers")?.status,
        cond(blocked, "PodReadyToStartContainers")?.reason,
      ],
      ["False", "PersistentVolumeClaimNotBound"],
    );
    assert.deepEqual(blocked.containerStatuses?.[0]?.state, {
      waiting: { reason: "ContainerCreating" },
    });
  });

  it("keeps transition times of unchanged conditions and conditions owned by others", () => {
    const first = computeStatus(view(pod(), [c("c", running())]));
    const later = computeStatus({
      ...view(
        pod(
          {},
          {
            ...first,
            conditions: [...(first.conditions ?? []), { type: "example.com/Gate", status: "True" }],
          },
        ),
        [c("c", running())],
      ),
      now: "2025-01-01T01:00:00Z",
    });
    assert.equal(cond(later, "Ready")?.lastTransitionTime, NOW);
    assert.equal(cond(later, "example.com/Gate")?.status, "True");
  });
});
