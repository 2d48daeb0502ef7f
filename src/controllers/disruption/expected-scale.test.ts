import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod } from "../../api/index.js";
import { expectedScale, type ScaleFinder } from "./expected-scale.js";

function pod(name: string, owner?: { kind: string; name: string; uid: string }): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: "default",
      ...(owner
        ? { ownerReferences: [{ apiVersion: "apps/v1", ...owner, controller: true }] }
        : {}),
    },
    spec: { containers: [] },
  } as Pod;
}

describe("expected scale", () => {
  it("sums each controller's replicas once, and reports unmanaged pods", async () => {
    const asked: string[] = [];
    const find: ScaleFinder = async (ref) => {
      asked.push(ref.name);
      return { uid: ref.uid, replicas: ref.name === "web" ? 3 : 2 };
    };
    const rs = { kind: "ReplicaSet", name: "web", uid: "u1" };
    const sts = { kind: "StatefulSet", name: "db", uid: "u2" };
    const found = await expectedScale(
      [pod("a", rs), pod("b", rs), pod("c", sts), pod("lone")],
      find,
    );
    assert.deepEqual(found, { expected: 5, unmanaged: ["lone"] });
    assert.deepEqual(asked, ["web", "db"]);
  });

  it("fails when a pod's controller cannot be found", async () => {
    await assert.rejects(
      expectedScale(
        [pod("a", { kind: "ReplicaSet", name: "gone", uid: "u" })],
        async () => undefined,
      ),
      /found no controllers for pod "a"/,
    );
  });

  it("counts two ReplicaSets of one Deployment as the Deployment", async () => {
    const find: ScaleFinder = async () => ({ uid: "deploy", replicas: 4 });
    const found = await expectedScale(
      [
        pod("a", { kind: "ReplicaSet", name: "v1", uid: "r1" }),
        pod("b", { kind: "ReplicaSet", name: "v2", uid: "r2" }),
      ],
      find,
    );
    assert.equal(found.expected, 4);
  });
});
