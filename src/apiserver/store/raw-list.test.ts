/** The raw LIST path: splicing resourceVersion into stored JSON gives the same object as parsing. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { decodeObject, encodeObject, rawWithRevision } from "./object-store.js";

const kv = (value: string, modRevision = 42) => ({
  key: "/k",
  value,
  createRevision: 1,
  modRevision,
});

describe("rawWithRevision", () => {
  it("matches decodeObject for objects stored by encodeObject", () => {
    const objects: KubeObject[] = [
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "a", namespace: "d", labels: { x: "y" } },
        data: { k: "v" },
      },
      {
        kind: "CronTab",
        metadata: { name: "b" },
        apiVersion: "stable.example.com/v1",
        spec: { template: { metadata: { name: "inner" } } },
      },
      { apiVersion: "v1", kind: "Namespace", metadata: {} },
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: 'q"uote', resourceVersion: "7" },
        data: { '"metadata":{': "tricky" },
      },
    ];
    for (const o of objects) {
      const stored = kv(encodeObject(o));
      assert.deepEqual(JSON.parse(rawWithRevision(stored)), decodeObject(stored));
      assert.equal(JSON.parse(rawWithRevision(stored)).metadata.resourceVersion, "42");
    }
  });

  it("falls back to parsing when metadata is not the first nested object", () => {
    const stored = kv(
      JSON.stringify({
        spec: { metadata: { name: "nested" } },
        apiVersion: "v1",
        kind: "X",
        metadata: { name: "top" },
      }),
    );
    const out = JSON.parse(rawWithRevision(stored));
    assert.equal(out.metadata.resourceVersion, "42");
    assert.equal(out.spec.metadata.resourceVersion, undefined);
  });
});
