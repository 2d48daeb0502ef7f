/**
 * The node agent's pod sync on the controller test tier (a real agent in this
 * process, pods as `sh` scripts in busybox containers on CRI): what restartPolicy does with
 * an exit (Never and OnFailure leave a pod Succeeded or Failed, Always and
 * OnFailure restart with crash-loop back-off), init containers run in order
 * before the containers and a failed one under Never fails the pod,
 * activeDeadlineSeconds, and a container whose config cannot be built yet
 * (a missing ConfigMap key) waits and starts once it exists.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Pod } from "../../src/api/index.js";
import {
  type AgentEnv,
  agentPod,
  agentSkipReason,
  conditionOf,
  containerStatus,
  startAgentEnv,
  testNamespace,
  waitPod,
} from "../support/agent-env.js";
import { configMap, eventsAbout, uniqueName } from "../support/core-objects.js";

const terminal = (p: Pod) => p.status?.phase === "Succeeded" || p.status?.phase === "Failed";

describe("node agent pod sync: restart policy, init containers, deadlines", {
  skip: agentSkipReason(),
}, () => {
  let a: AgentEnv;
  let ns: string;

  before(async () => {
    a = await startAgentEnv();
    ns = await testNamespace(a.env, "pods");
    await a.startAgent();
  });
  after(() => a?.stop());

  const once: { policy: "Never" | "OnFailure"; exit: number; phase: string; reason: string }[] = [
    { policy: "Never", exit: 0, phase: "Succeeded", reason: "Completed" },
    { policy: "Never", exit: 3, phase: "Failed", reason: "Error" },
    { policy: "OnFailure", exit: 0, phase: "Succeeded", reason: "Completed" },
  ];
  for (const t of once) {
    it(`restartPolicy ${t.policy}: an exit ${t.exit} ends the pod ${t.phase}, not restarted`, async () => {
      const pod = await a.env.client.create(
        agentPod(ns, uniqueName("once"), [a.sh("c", `exit ${t.exit}`)], {
          restartPolicy: t.policy,
        }),
      );
      const done = await waitPod(a.env, pod, t.phase, terminal);
      assert.equal(done.status?.phase, t.phase);
      const c = containerStatus(done, "c")!;
      assert.equal(c.restartCount, 0);
      assert.equal(c.ready, false);
      assert.equal(c.state?.terminated?.exitCode, t.exit);
      assert.equal(c.state?.terminated?.reason, t.reason);
      assert.equal(conditionOf(done, "Ready"), "False");
      assert.match(done.status?.podIP ?? "", a.podIP);
      // Well past a back-off: still one run.
      await new Promise((r) => setTimeout(r, 800));
      const later = await waitPod(a.env, pod, "still over", terminal);
      assert.equal(containerStatus(later, "c")?.restartCount, 0);
      assert.equal(later.status?.phase, t.phase);
    });
  }

  const restarting: { policy: "Always" | "OnFailure"; exit: number }[] = [
    { policy: "Always", exit: 0 },
    { policy: "OnFailure", exit: 4 },
  ];
  for (const t of restarting) {
    it(`restartPolicy ${t.policy}: an exit ${t.exit} is restarted with back-off, the last exit kept`, async () => {
      const pod = await a.env.client.create(
        agentPod(ns, uniqueName("loop"), [a.sh("c", `exit ${t.exit}`)], {
          restartPolicy: t.policy,
        }),
      );
      const seen = new Set<string>();
      const twice = await waitPod(a.env, pod, "restarted twice", (p) => {
        const c = containerStatus(p, "c");
        if (c?.state?.waiting?.reason) seen.add(c.state.waiting.reason);
        return (c?.restartCount ?? 0) >= 2;
      });
      assert.notEqual(twice.status?.phase, "Succeeded");
      assert.notEqual(twice.status?.phase, "Failed");
      const c = containerStatus(twice, "c")!;
      assert.equal(c.lastState?.terminated?.exitCode, t.exit);
      // Between runs the container waits out its back-off, and says so.
      const backing = await waitPod(
        a.env,
        pod,
        "in CrashLoopBackOff",
        (p) => containerStatus(p, "c")?.state?.waiting?.reason === "CrashLoopBackOff",
      );
      assert.match(
        containerStatus(backing, "c")?.state?.waiting?.message ?? "",
        /back-off \d+(ms|s) restarting failed container=c pod=/,
      );
      const events = await eventsAbout(a.env.client, ns, pod.metadata.name!);
      assert.ok(
        events.some((e) => e.startsWith("BackOff:")),
        `a BackOff event: ${events.join("; ")}`,
      );
      await a.env.client.delete({
        apiVersion: "v1",
        kind: "Pod",
        namespace: ns,
        name: pod.metadata.name!,
      });
    });
  }

  it("init containers run in order, each to success, before the containers start", async () => {
    const shared = { name: "work", emptyDir: {} };
    const mount = [{ name: "work", mountPath: "/work" }];
    const pod = await a.env.client.create(
      agentPod(
        ns,
        uniqueName("init"),
        [
          a.sh("main", 'test "$(cat /work/order)" = "first second" || exit 7', {
            volumeMounts: mount,
          }),
        ],
        {
          restartPolicy: "Never",
          volumes: [shared],
          initContainers: [
            a.sh("first", "printf first > /work/order", { volumeMounts: mount }),
            a.sh("second", 'test -f /work/order && printf " second" >> /work/order', {
              volumeMounts: mount,
            }),
          ],
        },
      ),
    );
    const done = await waitPod(a.env, pod, "over", terminal);
    assert.equal(done.status?.phase, "Succeeded", JSON.stringify(done.status));
    for (const name of ["first", "second", "main"])
      assert.equal(containerStatus(done, name)?.state?.terminated?.exitCode, 0, name);
    assert.equal(conditionOf(done, "Initialized"), "True");
  });

  it("a failed init container under Never fails the pod and never starts the containers", async () => {
    const pod = await a.env.client.create(
      agentPod(ns, uniqueName("init-fail"), [a.sh("main", "exit 0")], {
        restartPolicy: "Never",
        initContainers: [a.sh("setup", "exit 5"), a.sh("after", "exit 0")],
      }),
    );
    const done = await waitPod(a.env, pod, "Failed", terminal);
    assert.equal(done.status?.phase, "Failed");
    assert.equal(containerStatus(done, "setup")?.state?.terminated?.exitCode, 5);
    assert.equal(containerStatus(done, "after")?.state?.terminated, undefined);
    assert.equal(containerStatus(done, "main")?.state?.terminated, undefined);
    assert.equal(containerStatus(done, "main")?.restartCount, 0);
    assert.equal(conditionOf(done, "Initialized"), "False");
  });

  it("a failed init container under OnFailure is retried until it succeeds", async () => {
    const shared = { name: "work", emptyDir: {} };
    const mount = [{ name: "work", mountPath: "/work" }];
    // Fails on its first run, succeeds on the second (the emptyDir outlives runs).
    const flaky = "if [ -f /work/tried ]; then exit 0; fi; touch /work/tried; exit 9";
    const pod = await a.env.client.create(
      agentPod(ns, uniqueName("init-retry"), [a.sh("main", "exit 0")], {
        restartPolicy: "OnFailure",
        volumes: [shared],
        initContainers: [a.sh("flaky", flaky, { volumeMounts: mount })],
      }),
    );
    const done = await waitPod(a.env, pod, "Succeeded", terminal);
    assert.equal(done.status?.phase, "Succeeded");
    const init = containerStatus(done, "flaky")!;
    assert.equal(init.restartCount, 1);
    assert.equal(init.lastState?.terminated?.exitCode, 9);
    assert.equal(init.state?.terminated?.exitCode, 0);
  });

  it("activeDeadlineSeconds past the start fails the pod and stops its container", async () => {
    const pod = await a.env.client.create(
      agentPod(
        ns,
        uniqueName("deadline"),
        [a.sh("c", "trap 'exit 0' TERM; while :; do sleep 0.1; done")],
        {
          activeDeadlineSeconds: 3,
        },
      ),
    );
    const done = await waitPod(a.env, pod, "Failed", terminal);
    assert.equal(done.status?.phase, "Failed");
    assert.equal(done.status?.reason, "DeadlineExceeded");
    assert.match(done.status?.message ?? "", /longer than the specified deadline/);
    const stopped = await waitPod(a.env, pod, "its container stopped", (p) =>
      Boolean(containerStatus(p, "c")?.state?.terminated),
    );
    assert.equal(stopped.status?.phase, "Failed");
  });

  it("a missing ConfigMap key is CreateContainerConfigError until the ConfigMap exists", async () => {
    const name = uniqueName("config");
    const pod = await a.env.client.create(
      agentPod(
        ns,
        name,
        [
          a.sh("c", 'test "$GREETING" = hello || exit 8', {
            env: [
              {
                name: "GREETING",
                valueFrom: { configMapKeyRef: { name: `${name}-cm`, key: "greeting" } },
              },
            ],
          }),
        ],
        { restartPolicy: "Never" },
      ),
    );
    const waiting = await waitPod(
      a.env,
      pod,
      "CreateContainerConfigError",
      (p) => containerStatus(p, "c")?.state?.waiting?.reason === "CreateContainerConfigError",
    );
    assert.match(
      containerStatus(waiting, "c")?.state?.waiting?.message ?? "",
      new RegExp(`${name}-cm`),
    );
    assert.equal(waiting.status?.phase, "Pending");
    await a.env.client.create({ ...configMap(ns, `${name}-cm`), data: { greeting: "hello" } });
    const done = await waitPod(a.env, pod, "Succeeded", terminal);
    assert.equal(done.status?.phase, "Succeeded", JSON.stringify(done.status));
  });

  it("an image that cannot be had is ErrImagePull, with a Failed event", async () => {
    const pod = await a.env.client.create(
      agentPod(ns, uniqueName("noimage"), [{ name: "c", image: "hearth.test/none:1" }]),
    );
    const waiting = await waitPod(
      a.env,
      pod,
      "ErrImagePull",
      // On CRI the next sync finds the pull in its back-off: ImagePullBackOff, as the kubelet's.
      (p) =>
        ["ErrImagePull", "ImagePullBackOff"].includes(
          containerStatus(p, "c")?.state?.waiting?.reason ?? "",
        ),
    );
    assert.equal(waiting.status?.phase, "Pending");
    const events = await eventsAbout(a.env.client, ns, pod.metadata.name!);
    assert.ok(
      events.some((e) => /^Failed: .*hearth\.test\/none/.test(e)),
      events.join("; "),
    );
  });
});
