/** applyMergePatch: RFC 7386 semantics and the 400 for a non-object body. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { applyMergePatch } from "./merge-patch.js";

const object = (): KubeObject => ({
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: { name: "w", labels: { app: "web", tier: "front" }, finalizers: ["a", "b"] },
  spec: { size: 3, ports: [{ port: 80 }, { port: 443 }], nested: { keep: true, drop: 1 } },
});

describe("applyMergePatch", () => {
  it("merges objects, deletes keys set to null and replaces everything else", () => {
    const current = object();
    const out = applyMergePatch(current, {
      metadata: { labels: { tier: null, env: "prod" }, finalizers: ["c"] },
      spec: { size: 5, ports: [{ port: 8080 }], nested: { drop: null }, added: { x: 1 } },
    });
    assert.deepEqual(out, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w", labels: { app: "web", env: "prod" }, finalizers: ["c"] },
      spec: { size: 5, ports: [{ port: 8080 }], nested: { keep: true }, added: { x: 1 } },
    });
    assert.deepEqual(current, object(), "the input is not modified");
  });

  it("drops nulls inside new objects and deletes whole subtrees", () => {
    const out = applyMergePatch(object(), { spec: null, status: { phase: "Ready", reason: null } });
    assert.deepEqual(out, {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: object().metadata,
      status: { phase: "Ready" },
    });
  });

  it("replaces a scalar with an object and an object with a scalar", () => {
    const out = applyMergePatch(object(), { spec: { size: { min: 1 }, nested: "flat" } });
    assert.deepEqual(out.spec, {
      size: { min: 1 },
      ports: [{ port: 80 }, { port: 443 }],
      nested: "flat",
    });
  });

  it("keeps an own __proto__ key as data", () => {
    const patch = JSON.parse('{"spec":{"__proto__":{"polluted":true}}}') as unknown;
    const out = applyMergePatch(object(), patch);
    const spec = out.spec as Record<string, unknown>;
    assert.ok(Object.hasOwn(spec, "__proto__"));
    assert.equal((spec as { polluted?: boolean }).polluted, undefined);
  });

  it("rejects a body that is not an object with 400", () => {
    for (const patch of [null, [], "x", 3]) {
      assert.throws(
        () => applyMergePatch(object(), patch),
        (e: unknown) =>
          e instanceof ApiError && e.code === 400 && e.message === "Invalid JSON Patch",
      );
    }
  });
});
