import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Job, Pod, PodPhase } from "../../api/index.js";
import {
  backoffRemaining,
  isActive,
  isFailed,
  isTerminating,
  pastBackoffLimitOnFailure,
  podFromTemplate,
  removalOrder,
  selectorString,
} from "./job-pods.js";

const job = (spec: Partial<Job["spec"]> = {}): Job => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name: "j", namespace: "ns", uid: "job-uid" },
  spec: {
    template: {
      metadata: { labels: { "job-name": "j" }, finalizers: ["example.com/keep"] },
      spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] },
    },
    ...spec,
  },
});

function pod(
  name: string,
  phase: PodPhase,
  extra: {
    created?: string;
    deleted?: string;
    ready?: boolean;
    node?: string;
    restarts?: number;
  } = {},
): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      uid: name,
      creationTimestamp: extra.created ?? "2024-01-01T00:00:00Z",
      ...(extra.deleted ? { deletionTimestamp: extra.deleted } : {}),
    },
    spec: { containers: [], ...(extra.node ? { nodeName: extra.node } : {}) },
    status: {
      phase,
      conditions: [{ type: "Ready", status: extra.ready ? "True" : "False" }],
      containerStatuses: [
        {
          name: "c",
          ready: !!extra.ready,
          restartCount: extra.restarts ?? 0,
          image: "",
          imageID: "",
        },
      ],
    },
  };
}

describe("job pods", () => {
  it("tells active, terminating and failed pods apart", () => {
    const running = pod("a", "Running");
    const deleting = pod("b", "Running", { deleted: "2024-01-01T00:01:00Z" });
    const done = pod("c", "Succeeded", { deleted: "2024-01-01T00:01:00Z" });
    assert.deepEqual([running, deleting, done].map(isActive), [true, false, false]);
    assert.deepEqual([running, deleting, done].map(isTerminating), [false, true, false]);
    assert.equal(isFailed(pod("d", "Failed"), job()), true);
    assert.equal(isFailed(deleting, job()), true, "deleted before it finished");
    assert.equal(isFailed(done, job()), false);
    assert.equal(isFailed(deleting, job({ podReplacementPolicy: "Failed" })), false);
  });

  it("waits 10 s doubled per failure since the last success", () => {
    const j = job();
    const t = Date.parse("2024-01-01T00:10:00Z");
    const failed = (name: string, at: string) => pod(name, "Failed", { created: at });
    assert.equal(backoffRemaining([], j, t, 10_000, 600_000), 0);
    assert.equal(
      backoffRemaining([failed("f1", "2024-01-01T00:09:58Z")], j, t, 10_000, 600_000),
      8_000,
    );
    const two = [failed("f1", "2024-01-01T00:09:00Z"), failed("f2", "2024-01-01T00:09:55Z")];
    assert.equal(backoffRemaining(two, j, t, 10_000, 600_000), 15_000);
    const afterSuccess = [...two, pod("s", "Succeeded", { created: "2024-01-01T00:09:56Z" })];
    assert.equal(backoffRemaining(afterSuccess, j, t, 10_000, 600_000), 0);
    const many = Array.from({ length: 12 }, (_, i) => failed(`f${i}`, "2024-01-01T00:09:59Z"));
    assert.equal(backoffRemaining(many, j, t, 10_000, 600_000), 599_000, "capped");
  });

  it("counts container restarts toward backoffLimit for OnFailure", () => {
    const onFailure = job({ backoffLimit: 2 });
    onFailure.spec.template.spec!.restartPolicy = "OnFailure";
    assert.equal(
      pastBackoffLimitOnFailure(onFailure, [pod("a", "Running", { restarts: 1 })]),
      false,
    );
    assert.equal(
      pastBackoffLimitOnFailure(onFailure, [pod("a", "Running", { restarts: 2 })]),
      true,
    );
    assert.equal(
      pastBackoffLimitOnFailure(job({ backoffLimit: 2 }), [pod("a", "Running", { restarts: 5 })]),
      false,
    );
  });

  it("removes unscheduled, pending, unready and newer pods first", () => {
    const pods = [
      pod("ready", "Running", { node: "n", ready: true }),
      pod("running", "Running", { node: "n" }),
      pod("pending-old", "Pending", { node: "n", created: "2024-01-01T00:00:00Z" }),
      pod("pending-new", "Pending", { node: "n", created: "2024-01-01T00:05:00Z" }),
      pod("unscheduled", "Pending"),
    ];
    assert.deepEqual(
      removalOrder(pods).map((p) => p.metadata.name),
      ["unscheduled", "pending-new", "pending-old", "running", "ready"],
    );
  });

  it("writes label selectors as list calls take them", () => {
    assert.equal(
      selectorString({
        matchLabels: { a: "1" },
        matchExpressions: [
          { key: "b", operator: "In", values: ["x", "y"] },
          { key: "c", operator: "NotIn", values: ["z"] },
          { key: "d", operator: "Exists" },
          { key: "e", operator: "DoesNotExist" },
        ],
      }),
      "a=1,b in (x,y),c notin (z),d,!e",
    );
  });

  it("makes pods from the template with the tracking finalizer and a controller reference", () => {
    const p = podFromTemplate(job());
    assert.equal(p.metadata.generateName, "j-");
    assert.deepEqual(p.metadata.finalizers, [
      "example.com/keep",
      "batch.kubernetes.io/job-tracking",
    ]);
    assert.deepEqual(p.metadata.labels, { "job-name": "j" });
    assert.equal(p.metadata.ownerReferences?.[0]?.uid, "job-uid");
    assert.equal(p.spec.restartPolicy, "Never");
    const long = job();
    long.metadata.name = "x".repeat(63);
    assert.equal(podFromTemplate(long).metadata.generateName, `${"x".repeat(57)}-`);
  });
});
