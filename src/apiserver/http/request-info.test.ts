/** RequestInfo parsing, as kube-apiserver's RequestInfoFactory. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRequestInfo } from "./request-info.js";

const parse = (method: string, path: string, query = "") =>
  parseRequestInfo(method, path, new URLSearchParams(query));

describe("parseRequestInfo", () => {
  it("reads group, version, namespace, resource, name and verb", () => {
    assert.deepEqual(parse("GET", "/apis/stable.example.com/v1/namespaces/ns/crontabs/x"), {
      isResourceRequest: true,
      path: "/apis/stable.example.com/v1/namespaces/ns/crontabs/x",
      verb: "get",
      group: "stable.example.com",
      version: "v1",
      namespace: "ns",
      resource: "crontabs",
      name: "x",
    });
    assert.equal(parse("GET", "/api/v1/configmaps")?.verb, "list");
    assert.equal(parse("GET", "/api/v1/namespaces/ns/configmaps", "watch=true")?.verb, "watch");
    assert.equal(parse("DELETE", "/api/v1/namespaces/ns/configmaps")?.verb, "deletecollection");
    assert.equal(parse("PATCH", "/api/v1/namespaces/ns/configmaps/x")?.verb, "patch");
  });

  it("treats a Namespace as being in itself, with status and finalize as its subresources", () => {
    const ns = parse("GET", "/api/v1/namespaces/foo");
    assert.equal(ns?.resource, "namespaces");
    assert.equal(ns?.name, "foo");
    assert.equal(ns?.namespace, "foo");
    const finalize = parse("PUT", "/api/v1/namespaces/foo/finalize");
    assert.deepEqual(
      [finalize?.resource, finalize?.name, finalize?.subresource, finalize?.namespace],
      ["namespaces", "foo", "finalize", "foo"],
    );
    const status = parse("PUT", "/api/v1/namespaces/foo/status");
    assert.deepEqual([status?.resource, status?.subresource], ["namespaces", "status"]);
    const list = parse("GET", "/api/v1/namespaces");
    assert.equal(list?.namespace, undefined);
    assert.equal(list?.verb, "list");
  });

  it("leaves discovery paths to the router", () => {
    for (const p of ["/api", "/api/v1", "/apis", "/apis/g", "/apis/g/v1", "/version"])
      assert.equal(parse("GET", p), undefined, p);
  });

  it("decodes each segment after splitting, skips empty ones, and leaves absent parts out", () => {
    const info = parse("GET", "//api/v1//namespaces/a%20b/configmaps/x%2Fy/");
    assert.deepEqual(info, {
      isResourceRequest: true,
      path: "//api/v1//namespaces/a%20b/configmaps/x%2Fy/",
      verb: "get",
      group: "",
      version: "v1",
      namespace: "a b",
      resource: "configmaps",
      name: "x/y",
    });
    assert.deepEqual(Object.keys(parse("GET", "/api/v1/namespaces/ns/pods/p/log") ?? {}), [
      "isResourceRequest",
      "path",
      "verb",
      "group",
      "version",
      "namespace",
      "resource",
      "name",
      "subresource",
    ]);
    assert.deepEqual(Object.keys(parse("POST", "/api/v1/nodes") ?? {}), [
      "isResourceRequest",
      "path",
      "verb",
      "group",
      "version",
      "resource",
    ]);
    assert.equal(parse("GET", "/%61pi/v1/pods")?.resource, "pods");
    assert.throws(() => parse("GET", "/api/v1/pods/%zz"), URIError);
  });

  it("reads watch=1 as a watch, and refuses paths with more than resource/name/subresource", () => {
    assert.equal(parse("GET", "/api/v1/pods/p", "watch=1")?.verb, "watch");
    assert.equal(parse("GET", "/api/v1/pods/p", "watch=false")?.verb, "get");
    assert.equal(parse("HEAD", "/api/v1/pods")?.verb, "list");
    assert.equal(parse("OPTIONS", "/api/v1/pods")?.verb, "options");
    assert.equal(parse("GET", "/api/v1/namespaces/ns/pods/p/log/extra"), undefined);
    assert.equal(parse("GET", "/apis/apps/v1/namespaces/ns/deployments/d/scale/x"), undefined);
    assert.deepEqual(parse("GET", "/apis/apps/v1/namespaces/ns/deployments/d/scale"), {
      isResourceRequest: true,
      path: "/apis/apps/v1/namespaces/ns/deployments/d/scale",
      verb: "get",
      group: "apps",
      version: "v1",
      namespace: "ns",
      resource: "deployments",
      name: "d",
      subresource: "scale",
    });
    assert.equal(parse("GET", "/api/v1/namespaces/ns")?.namespace, "ns");
    assert.equal(parse("GET", "/api/v1/namespaces/ns/pods")?.namespace, "ns");
  });
});
