/** PolicyRule matching: verbs, groups, resources and subresources, names, non-resource URLs. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AuthorizationAttributes } from "../auth/types.js";
import { nonResourceURLMatches, resourceMatches, ruleAllows } from "./rule-matching.js";
import type { PolicyRule } from "./types.js";

const user = { username: "bob", groups: [] };

function res(
  verb: string,
  resource: string,
  extra: Partial<AuthorizationAttributes> = {},
): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: "",
    apiGroup: "",
    apiVersion: "v1",
    resource,
    subresource: "",
    namespace: "default",
    name: "",
    ...extra,
  };
}

function url(verb: string, path: string): AuthorizationAttributes {
  return { ...res(verb, ""), isResourceRequest: false, path, namespace: "" };
}

const reader: PolicyRule = {
  verbs: ["get", "list", "watch"],
  apiGroups: [""],
  resources: ["configmaps"],
};

describe("ruleAllows", () => {
  it("needs verb, group and resource to match", () => {
    assert.ok(ruleAllows(res("list", "configmaps"), reader));
    assert.ok(!ruleAllows(res("delete", "configmaps"), reader));
    assert.ok(!ruleAllows(res("list", "secrets"), reader));
    assert.ok(!ruleAllows(res("list", "configmaps", { apiGroup: "apps" }), reader));
  });

  it("takes * for verbs, groups and resources", () => {
    const all: PolicyRule = { verbs: ["*"], apiGroups: ["*"], resources: ["*"] };
    assert.ok(
      ruleAllows(res("deletecollection", "crontabs", { apiGroup: "stable.example.com" }), all),
    );
    assert.ok(ruleAllows(res("get", "pods", { subresource: "log" }), all));
    assert.ok(ruleAllows(res("impersonate", "users", { namespace: "" }), all));
  });

  it("matches a subresource only when the rule names it", () => {
    const status: PolicyRule = {
      verbs: ["update"],
      apiGroups: [""],
      resources: ["namespaces/status"],
    };
    assert.ok(ruleAllows(res("update", "namespaces", { subresource: "status" }), status));
    assert.ok(!ruleAllows(res("update", "namespaces"), status));
    assert.ok(!ruleAllows(res("update", "namespaces", { subresource: "finalize" }), status));
    assert.ok(
      !ruleAllows(res("update", "namespaces", { subresource: "status" }), {
        ...status,
        resources: ["namespaces"],
      }),
    );
  });

  it("takes */subresource for that subresource of every resource", () => {
    assert.ok(resourceMatches({ verbs: [], resources: ["*/scale"] }, "deployments/scale", "scale"));
    assert.ok(!resourceMatches({ verbs: [], resources: ["*/scale"] }, "deployments", ""));
    assert.ok(
      !resourceMatches({ verbs: [], resources: ["*/scale"] }, "deployments/status", "status"),
    );
  });

  it("limits to resourceNames when given (so list and create, which have no name, fail)", () => {
    const one: PolicyRule = { ...reader, verbs: ["get", "list", "create"], resourceNames: ["app"] };
    assert.ok(ruleAllows(res("get", "configmaps", { name: "app" }), one));
    assert.ok(!ruleAllows(res("get", "configmaps", { name: "other" }), one));
    assert.ok(!ruleAllows(res("list", "configmaps"), one));
    assert.ok(!ruleAllows(res("create", "configmaps"), one));
  });

  it("never lets a resource rule match a non-resource request, or the reverse", () => {
    assert.ok(
      !ruleAllows(url("get", "/api"), { verbs: ["*"], apiGroups: ["*"], resources: ["*"] }),
    );
    assert.ok(!ruleAllows(res("get", "configmaps"), { verbs: ["*"], nonResourceURLs: ["*"] }));
  });
});

describe("nonResourceURLMatches", () => {
  const rule = (...nonResourceURLs: string[]): PolicyRule => ({ verbs: ["get"], nonResourceURLs });

  it("matches exactly, by *, or by a trailing-* prefix", () => {
    assert.ok(nonResourceURLMatches(rule("/healthz"), "/healthz"));
    assert.ok(!nonResourceURLMatches(rule("/healthz"), "/healthz/etcd"));
    assert.ok(nonResourceURLMatches(rule("/healthz/*"), "/healthz/etcd"));
    assert.ok(nonResourceURLMatches(rule("/apis*"), "/apis/apps/v1"));
    assert.ok(!nonResourceURLMatches(rule("/apis/*"), "/apis"));
    assert.ok(nonResourceURLMatches(rule("*"), "/anything"));
  });

  it("checks the verb of non-resource requests too", () => {
    assert.ok(ruleAllows(url("get", "/version"), rule("/version")));
    assert.ok(!ruleAllows(url("post", "/version"), rule("/version")));
  });
});
