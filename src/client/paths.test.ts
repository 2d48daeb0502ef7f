/** REST path and query building for core, grouped, namespaced and cluster-scoped kinds. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { groupVersionPath, queryString, resourcePath } from "./paths.js";

const configMaps = { plural: "configmaps", namespaced: true };
const namespaces = { plural: "namespaces", namespaced: false };
const tenants = { plural: "tenants", namespaced: true };
const crds = { plural: "customresourcedefinitions", namespaced: false };

describe("groupVersionPath", () => {
  it("puts the core group under /api and others under /apis", () => {
    assert.equal(groupVersionPath("v1"), "/api/v1");
    assert.equal(groupVersionPath("apps/v1"), "/apis/apps/v1");
    assert.equal(
      groupVersionPath("apps.cozystack.io/v1alpha1"),
      "/apis/apps.cozystack.io/v1alpha1",
    );
  });
});

describe("resourcePath", () => {
  it("builds core namespaced paths", () => {
    const base = { apiVersion: "v1", mapping: configMaps };
    assert.equal(resourcePath({ ...base, namespace: "ns" }), "/api/v1/namespaces/ns/configmaps");
    assert.equal(
      resourcePath({ ...base, namespace: "ns", name: "x" }),
      "/api/v1/namespaces/ns/configmaps/x",
    );
  });

  it("lists a namespaced kind across all namespaces when no namespace is given", () => {
    assert.equal(resourcePath({ apiVersion: "v1", mapping: configMaps }), "/api/v1/configmaps");
    assert.equal(
      resourcePath({ apiVersion: "v1", mapping: configMaps, namespace: "" }),
      "/api/v1/configmaps",
    );
  });

  it("builds grouped namespaced paths with subresources", () => {
    const path = resourcePath({
      apiVersion: "apps.cozystack.io/v1alpha1",
      mapping: tenants,
      namespace: "tenant-root",
      name: "a",
      subresource: "status",
    });
    assert.equal(path, "/apis/apps.cozystack.io/v1alpha1/namespaces/tenant-root/tenants/a/status");
  });

  it("ignores the namespace of cluster-scoped kinds", () => {
    assert.equal(
      resourcePath({ apiVersion: "v1", mapping: namespaces, namespace: "x", name: "tenant-a" }),
      "/api/v1/namespaces/tenant-a",
    );
    assert.equal(
      resourcePath({ apiVersion: "apiextensions.k8s.io/v1", mapping: crds, name: "a.b.c" }),
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/a.b.c",
    );
  });

  it("percent-encodes names that would break the path", () => {
    const path = resourcePath({
      apiVersion: "v1",
      mapping: configMaps,
      namespace: "n",
      name: "a/b?c",
    });
    assert.equal(path, "/api/v1/namespaces/n/configmaps/a%2Fb%3Fc");
  });
});

describe("queryString", () => {
  it("is empty when every value is undefined", () => {
    assert.equal(queryString({}), "");
    assert.equal(queryString({ limit: undefined }), "");
  });

  it("encodes selectors, numbers and booleans, keeping order", () => {
    const q = queryString({
      labelSelector: "app in (a,b),!legacy",
      fieldSelector: "metadata.name=x&y",
      limit: 500,
      watch: true,
      continue: undefined,
      resourceVersion: "0",
    });
    assert.equal(
      q,
      "?labelSelector=app%20in%20(a%2Cb)%2C!legacy&fieldSelector=metadata.name%3Dx%26y&limit=500&watch=true&resourceVersion=0",
    );
    const back = new URLSearchParams(q);
    assert.equal(back.get("labelSelector"), "app in (a,b),!legacy");
    assert.equal(back.get("fieldSelector"), "metadata.name=x&y");
  });
});
