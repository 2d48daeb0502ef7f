/** RequestInfo parsing, as kube-apiserver's RequestInfoFactory. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRequestInfo, queryFlag } from "./request-info.js";
import { decodePath } from "./request-target.js";

const parse = (method: string, path: string, query = "") =>
  parseRequestInfo(method, decodePath(path), new URLSearchParams(query));

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

  it("takes the parts after a proxy subresource as its path, and nothing else past a subresource", () => {
    const proxy = parse("GET", "/api/v1/nodes/n1/proxy/stats/summary");
    assert.deepEqual(
      [proxy?.resource, proxy?.name, proxy?.subresource, proxy?.verb],
      ["nodes", "n1", "proxy", "get"],
    );
    assert.equal(parse("GET", "/api/v1/namespaces/ns/pods/p/log/more"), undefined);
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

  it("decodes each segment after splitting, and leaves absent parts out", () => {
    const info = parse("GET", "/api/v1/namespaces/a%20b/configmaps/x%2Fy/");
    assert.deepEqual(info, {
      isResourceRequest: true,
      path: "/api/v1/namespaces/a b/configmaps/x/y",
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
  });

  it("never reads a path with an empty segment as a resource path", () => {
    for (const p of [
      "//api/v1/pods",
      "/api//v1/pods",
      "/api/v1/namespaces//configmaps",
      "/api/v1/namespaces/default/configmaps//x",
    ])
      assert.equal(parse("DELETE", p), undefined, p);
  });

  it("keeps dot segments as names, for the router to refuse", () => {
    const info = parse("DELETE", "/api/v1/namespaces/default/configmaps/%2e%2e");
    assert.equal(info?.resource, "configmaps");
    assert.equal(info?.name, "..");
    assert.equal(info?.verb, "delete");
    assert.equal(parse("DELETE", "/api/v1/namespaces/default/configmaps/.")?.name, ".");
  });

  it("reads watch as kube's boolean, only on a collection", () => {
    for (const v of ["true", "1", "", "yes", "abc", "TRUE"])
      assert.equal(parse("GET", "/api/v1/pods", `watch=${v}`)?.verb, "watch", v);
    for (const v of ["false", "0", "FALSE", "False"])
      assert.equal(parse("GET", "/api/v1/pods", `watch=${v}`)?.verb, "list", v);
    // A named GET ignores watch, as kube's RequestInfoFactory does.
    assert.equal(parse("GET", "/api/v1/pods/p", "watch=1")?.verb, "get");
    assert.equal(queryFlag(new URLSearchParams("a=x"), "b"), false);
  });

  it("names a list or watch whose field selector pins metadata.name, as kube's RequestInfoFactory", () => {
    const cases: [query: string, verb: string, name: string | undefined][] = [
      ["fieldSelector=metadata.name%3Dapp", "list", "app"],
      ["fieldSelector=metadata.name%3D%3Dapp&watch=1", "watch", "app"],
      // Any term of the conjunction may pin it.
      ["fieldSelector=status.phase%3DRunning,metadata.name%3Dapp", "list", "app"],
      // Not pinned: another field, a negation, no selector.
      ["fieldSelector=metadata.namespace%3Dapp", "list", undefined],
      ["fieldSelector=metadata.name!%3Dapp&watch=true", "watch", undefined],
      ["", "list", undefined],
      // Not a valid path segment, or a selector that does not parse: no name.
      ["fieldSelector=metadata.name%3D..", "list", undefined],
      ["fieldSelector=metadata.name%3Da%2Fb", "list", undefined],
      ["fieldSelector=metadata.name%3Da%3Db&watch=1", "watch", undefined],
      ["fieldSelector=nonsense&watch=1", "watch", undefined],
    ];
    for (const [query, verb, name] of cases) {
      const info = parse("GET", "/api/v1/namespaces/ns/configmaps", query);
      assert.equal(info?.verb, verb, query);
      assert.equal(info?.name, name, query);
      assert.equal("name" in (info ?? {}), name !== undefined, query);
    }
    // Only lists and watches: a DELETE of the collection stays unnamed.
    const del = parse(
      "DELETE",
      "/api/v1/namespaces/ns/configmaps",
      "fieldSelector=metadata.name%3Dapp",
    );
    assert.equal(del?.verb, "deletecollection");
    assert.equal(del?.name, undefined);
  });

  it("refuses paths with more than resource/name/subresource", () => {
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
