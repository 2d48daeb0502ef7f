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
});
