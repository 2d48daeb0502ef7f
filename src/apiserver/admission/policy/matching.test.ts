/** Request matching: resource rules with wildcards and subresources, scope, selectors. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import type { MatchResources, NamedRuleWithOperations } from "./api-types.js";
import { type MatchRequest, matchesResources, matchesRule } from "./matching.js";

const obj = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, labels },
});

function request(over: Partial<MatchRequest> = {}): MatchRequest {
  return {
    operation: "CREATE",
    group: "",
    version: "v1",
    resource: "configmaps",
    subresource: "",
    namespace: "default",
    name: "c",
    object: obj("c"),
    oldObject: undefined,
    namespaceLabels: async () => ({ env: "prod" }),
    ...over,
  };
}

const rule = (over: Partial<NamedRuleWithOperations> = {}): NamedRuleWithOperations => ({
  apiGroups: ["*"],
  apiVersions: ["*"],
  operations: ["*"],
  resources: ["*"],
  scope: "*",
  ...over,
});

describe("matchesRule", () => {
  it("matches groups, versions and operations exactly or by *", () => {
    assert.ok(matchesRule(rule(), request()));
    assert.ok(matchesRule(rule({ apiGroups: [""], apiVersions: ["v1"] }), request()));
    assert.ok(!matchesRule(rule({ apiGroups: ["apps"] }), request()));
    assert.ok(!matchesRule(rule({ apiVersions: ["v2"] }), request()));
    assert.ok(matchesRule(rule({ operations: ["CREATE", "UPDATE"] }), request()));
    assert.ok(!matchesRule(rule({ operations: ["DELETE"] }), request()));
  });

  it("reads resources as kube does: * has no subresources, */* has all", () => {
    const status = request({ resource: "pods", subresource: "status" });
    const pod = request({ resource: "pods" });
    const cases: [string, MatchRequest, boolean][] = [
      ["*", pod, true],
      ["*", status, false],
      ["*/*", pod, true],
      ["*/*", status, true],
      ["pods", pod, true],
      ["pods", status, false],
      ["pods/status", status, true],
      ["pods/status", pod, false],
      ["pods/*", status, true],
      ["pods/*", pod, true],
      ["*/status", status, true],
      ["*/scale", status, false],
      ["configmaps", pod, false],
    ];
    for (const [pattern, req, want] of cases)
      assert.equal(
        matchesRule(rule({ resources: [pattern] }), req),
        want,
        `${pattern} ${req.subresource}`,
      );
  });

  it("treats Namespace objects as cluster-scoped", () => {
    const ns = request({ resource: "namespaces", namespace: "" });
    const cm = request();
    assert.ok(matchesRule(rule({ scope: "Cluster" }), ns));
    assert.ok(!matchesRule(rule({ scope: "Namespaced" }), ns));
    assert.ok(matchesRule(rule({ scope: "Namespaced" }), cm));
    assert.ok(!matchesRule(rule({ scope: "Cluster" }), cm));
  });

  it("limits by resourceNames when given", () => {
    assert.ok(matchesRule(rule({ resourceNames: ["c", "d"] }), request()));
    assert.ok(!matchesRule(rule({ resourceNames: ["d"] }), request()));
  });
});

describe("matchesResources", () => {
  const all: MatchResources = { resourceRules: [rule()] };

  it("matches everything when absent or without rules (a binding's)", async () => {
    assert.ok(await matchesResources(undefined, request()));
    assert.ok(await matchesResources({}, request()));
  });

  it("lets exclude rules win over resource rules", async () => {
    const m = { ...all, excludeResourceRules: [rule({ resources: ["configmaps"] })] };
    assert.ok(!(await matchesResources(m, request())));
    assert.ok(await matchesResources(m, request({ resource: "secrets" })));
  });

  it("matches the object selector on the new or the old object", async () => {
    const m = { ...all, objectSelector: { matchLabels: { keep: "true" } } };
    assert.ok(!(await matchesResources(m, request())));
    assert.ok(await matchesResources(m, request({ object: obj("c", { keep: "true" }) })));
    const del = request({
      operation: "DELETE",
      object: undefined,
      oldObject: obj("c", { keep: "true" }),
    });
    assert.ok(await matchesResources(m, del), "DELETE matches the stored object's labels");
    const unlabel = request({ object: obj("c"), oldObject: obj("c", { keep: "true" }) });
    assert.ok(await matchesResources(m, unlabel), "either object may match");
    const exprs = {
      ...all,
      objectSelector: { matchExpressions: [{ key: "keep", operator: "DoesNotExist" }] },
    };
    assert.ok(await matchesResources(exprs, request()));
  });

  it("matches the namespace selector on the request's namespace", async () => {
    const m = { ...all, namespaceSelector: { matchLabels: { env: "prod" } } };
    assert.ok(await matchesResources(m, request()));
    const dev = request({ namespaceLabels: async () => ({ env: "dev" }) });
    assert.ok(!(await matchesResources(m, dev)));
    const missing = request({ namespaceLabels: async () => undefined });
    assert.ok(!(await matchesResources(m, missing)));
  });

  it("never skips other cluster-scoped objects on a namespace selector", async () => {
    const m = { ...all, namespaceSelector: { matchLabels: { env: "prod" } } };
    let asked = false;
    const cluster = request({
      resource: "leases",
      namespace: "",
      namespaceLabels: async () => {
        asked = true;
        return {};
      },
    });
    assert.ok(await matchesResources(m, cluster));
    assert.equal(asked, false);
  });

  it("matches a Namespace on its own labels: new ones on write, stored ones on delete", async () => {
    const m = { ...all, namespaceSelector: { matchLabels: { env: "prod" } } };
    const base = { resource: "namespaces", namespace: "", namespaceLabels: async () => undefined };
    const prod = obj("ns", { env: "prod" });
    assert.ok(await matchesResources(m, request({ ...base, object: prod })));
    assert.ok(
      !(await matchesResources(
        m,
        request({ ...base, operation: "UPDATE", object: obj("ns"), oldObject: prod }),
      )),
    );
    assert.ok(
      await matchesResources(
        m,
        request({ ...base, operation: "DELETE", object: undefined, oldObject: prod }),
      ),
    );
  });
});
