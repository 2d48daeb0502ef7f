/** Request keys, typeKey, requestOf and groupOf: the names the runtime files requests under. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../api/index.js";
import { groupOf, requestFromKey, requestKey, requestOf, typeKey } from "./refs.js";

describe("requestKey / requestFromKey", () => {
  const cases = [
    { req: { name: "node-1" }, key: "node-1" },
    { req: { namespace: "tenant-a", name: "db" }, key: "tenant-a/db" },
    { req: { namespace: "a.b", name: "x.y-z" }, key: "a.b/x.y-z" },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.req)} ⇄ "${c.key}"`, () => {
      assert.equal(requestKey(c.req), c.key);
      assert.deepEqual(requestFromKey(c.key), c.req);
    });
  }

  it("reads an empty namespace as cluster-scoped", () => {
    assert.equal(requestKey({ namespace: "", name: "n" }), "n");
  });

  it("splits at the first slash only", () => {
    assert.deepEqual(requestFromKey("ns/a/b"), { namespace: "ns", name: "a/b" });
  });
});

describe("requestOf", () => {
  const obj = (metadata: KubeObject["metadata"]): KubeObject => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata,
  });
  const cases = [
    { meta: { name: "a", namespace: "ns" }, want: { namespace: "ns", name: "a" } },
    { meta: { name: "n1" }, want: { name: "n1" } },
    { meta: { name: "n1", namespace: "" }, want: { name: "n1" } },
    { meta: {}, want: { name: "" } },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.meta)} → ${JSON.stringify(c.want)}`, () => {
      assert.deepEqual(requestOf(obj(c.meta)), c.want);
    });
  }
});

describe("typeKey and groupOf", () => {
  const cases = [
    { apiVersion: "v1", kind: "Pod", key: "v1/Pod", group: "" },
    { apiVersion: "apps/v1", kind: "Deployment", key: "apps/v1/Deployment", group: "apps" },
    {
      apiVersion: "apps.cozystack.io/v1alpha1",
      kind: "Tenant",
      key: "apps.cozystack.io/v1alpha1/Tenant",
      group: "apps.cozystack.io",
    },
  ];
  for (const c of cases) {
    it(`${c.apiVersion} ${c.kind}`, () => {
      assert.equal(typeKey(c), c.key);
      assert.equal(groupOf(c.apiVersion), c.group);
    });
  }
});
