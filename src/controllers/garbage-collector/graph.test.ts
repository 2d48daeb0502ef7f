/** The GC graph: owners and the reverse dependents index stay consistent. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { Graph, nodeOf } from "./graph.js";

const obj = (
  uid: string,
  owners: string[] = [],
  extra: Partial<KubeObject["metadata"]> = {},
): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name: uid,
    namespace: "d",
    uid,
    ownerReferences: owners.map((o) => ({ apiVersion: "v1", kind: "ConfigMap", name: o, uid: o })),
    ...extra,
  },
});

describe("GC graph", () => {
  it("indexes dependents by owner uid and follows owner changes", () => {
    const g = new Graph();
    g.upsert(nodeOf(obj("owner")));
    g.upsert(nodeOf(obj("d1", ["owner"])));
    g.upsert(nodeOf(obj("d2", ["owner", "other"])));
    assert.deepEqual(
      g
        .dependentsOf("owner")
        .map((n) => n.uid)
        .sort(),
      ["d1", "d2"],
    );
    assert.deepEqual(
      g.dependentsOf("other").map((n) => n.uid),
      ["d2"],
    );
    g.upsert(nodeOf(obj("d2", ["other"])));
    assert.deepEqual(
      g.dependentsOf("owner").map((n) => n.uid),
      ["d1"],
    );
    g.remove("d1");
    assert.deepEqual(g.dependentsOf("owner"), []);
    assert.equal(g.get("d1"), undefined);
  });

  it("records deletion state and finalizers", () => {
    const n = nodeOf(
      obj("x", [], {
        deletionTimestamp: "2026-01-01T00:00:00Z",
        finalizers: ["foregroundDeletion"],
      }),
    );
    assert.equal(n.deleting, true);
    assert.deepEqual(n.finalizers, ["foregroundDeletion"]);
    assert.equal(n.namespace, "d");
  });
});
