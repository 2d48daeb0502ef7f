/**
 * Strategic merge patch driven by less common schema shapes: fields wrapped in
 * `allOf` (as kube publishes referenced types), maps of structs, the `replace`
 * strategy on a map, and malformed strategies.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { objectMetaSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject, Schema } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { applyStrategicMergePatch } from "./strategic-patch.js";

const str: Schema = { type: "string" };
const rule: Schema = {
  type: "object",
  properties: {
    host: str,
    paths: {
      type: "array",
      items: { type: "object", properties: { path: str, backend: str } },
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "path",
    },
  },
};

const schema: Schema = {
  type: "object",
  properties: {
    metadata: { description: "Standard object metadata.", allOf: [objectMetaSchema] },
    spec: {
      type: "object",
      properties: {
        rules: { type: "object", additionalProperties: rule },
        template: {
          type: "object",
          properties: { a: str, b: str },
          "x-kubernetes-patch-strategy": "replace",
        },
        odd: {
          type: "array",
          items: str,
          "x-kubernetes-patch-strategy": "merge,replace,retainKeys",
        },
        plain: {
          type: "array",
          items: { type: "object", properties: { name: str } },
          "x-kubernetes-patch-strategy": "merge",
        },
      },
    },
  },
};

const current = (): KubeObject => ({
  apiVersion: "example.com/v1",
  kind: "Router",
  metadata: { name: "r", finalizers: ["a"] },
  spec: {
    rules: { main: { host: "a.example", paths: [{ path: "/", backend: "web" }] } },
    template: { a: "1", b: "2" },
    odd: ["x"],
    plain: [{ name: "p" }],
  },
});

describe("strategic merge patch through schema shapes", () => {
  it("reads extensions through allOf-wrapped fields", () => {
    const out = applyStrategicMergePatch(current(), { metadata: { finalizers: ["b"] } }, schema);
    assert.deepEqual(out.metadata.finalizers, ["b", "a"]);
  });

  it("merges lists inside the values of a map of structs", () => {
    const out = applyStrategicMergePatch(
      current(),
      { spec: { rules: { main: { paths: [{ path: "/api", backend: "api" }] } } } },
      schema,
    );
    assert.deepEqual((out.spec as { rules: unknown }).rules, {
      main: {
        host: "a.example",
        paths: [
          { path: "/api", backend: "api" },
          { path: "/", backend: "web" },
        ],
      },
    });
  });

  it("replaces a map whose strategy is replace", () => {
    const out = applyStrategicMergePatch(
      current(),
      { spec: { template: { a: "9", c: null } } },
      schema,
    );
    assert.deepEqual((out.spec as { template: unknown }).template, { a: "9" });
  });

  it("rejects a strategy kube cannot read, and a merge list of maps without a merge key", () => {
    assert.throws(
      () => applyStrategicMergePatch(current(), { spec: { odd: ["y"] } }, schema),
      (e: unknown) =>
        e instanceof ApiError &&
        e.code === 400 &&
        e.message === "unexpected patch strategy: [merge replace retainKeys]",
    );
    assert.throws(
      () => applyStrategicMergePatch(current(), { spec: { plain: [{ name: "q" }] } }, schema),
      (e: unknown) =>
        e instanceof ApiError &&
        e.code === 400 &&
        e.message === "cannot merge lists without merge key for object",
    );
  });
});
