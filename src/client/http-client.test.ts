/** The HTTP client against a scripted fake apiserver: paths, verbs, bodies, errors. */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  FakeApiServer,
  sendJson,
  shutdown,
  statusBody,
} from "../../test/support/fixtures/fake-apiserver.js";
import type { KubeObject } from "../api/index.js";
import { ApiError } from "../api/index.js";
import { createHttpClient, type HttpClient } from "./http-client.js";
import { isStatus } from "./interface.js";

const configMap = (name: string, namespace = "default"): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace, resourceVersion: "7" },
  data: { k: "v" },
});

describe("HttpClient", () => {
  let server: FakeApiServer;
  let client: HttpClient;

  before(async () => {
    server = await FakeApiServer.start();
    server.discovery.set("/api/v1", [
      { name: "configmaps", kind: "ConfigMap", namespaced: true },
      { name: "configmaps/status", kind: "ConfigMap", namespaced: true },
      { name: "namespaces", kind: "Namespace", namespaced: false },
    ]);
    server.discovery.set("/apis/apps.cozystack.io/v1alpha1", [
      { name: "tenants", kind: "Tenant", namespaced: true },
    ]);
    server.discovery.set("/apis/apiextensions.k8s.io/v1", [
      { name: "customresourcedefinitions", kind: "CustomResourceDefinition", namespaced: false },
    ]);
    client = createHttpClient({ server: server.url, token: "s3cret", userAgent: "hearth-test" });
  });

  after(async () => {
    await shutdown(server, client);
  });

  beforeEach(() => {
    server.requests.length = 0;
    // Echo: answer every call with its own body, or with a ConfigMap when there is none.
    server.handler = (req, res) =>
      sendJson(res, 200, req.body ? JSON.parse(req.body) : configMap("x"));
  });

  const only = () => {
    assert.equal(server.calls.length, 1);
    return server.calls[0]!;
  };

  it("gets a core namespaced object with the token, user agent and accept headers", async () => {
    const got = await client.get({
      apiVersion: "v1",
      kind: "ConfigMap",
      name: "x",
      namespace: "default",
    });
    assert.equal(got.metadata.name, "x");
    const req = only();
    assert.equal(req.method, "GET");
    assert.equal(req.url, "/api/v1/namespaces/default/configmaps/x");
    assert.equal(req.headers.authorization, "Bearer s3cret");
    assert.equal(req.headers["user-agent"], "hearth-test");
    assert.equal(req.headers.accept, "application/json");
  });

  it("gets cluster-scoped and grouped objects", async () => {
    await client.get({ apiVersion: "v1", kind: "Namespace", name: "tenant-a" });
    await client.get({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      name: "tenants.apps.cozystack.io",
    });
    await client.get({
      apiVersion: "apps.cozystack.io/v1alpha1",
      kind: "Tenant",
      name: "a",
      namespace: "tenant-root",
    });
    assert.deepEqual(
      server.calls.map((r) => r.url),
      [
        "/api/v1/namespaces/tenant-a",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/tenants.apps.cozystack.io",
        "/apis/apps.cozystack.io/v1alpha1/namespaces/tenant-root/tenants/a",
      ],
    );
  });

  it("lists in a namespace or across all, encoding the query", async () => {
    server.handler = (_req, res) =>
      sendJson(res, 200, { apiVersion: "v1", kind: "ConfigMapList", metadata: {}, items: [] });
    const list = await client.list(
      { apiVersion: "v1", kind: "ConfigMap" },
      {
        namespace: "ns",
        labelSelector: "app in (a,b)",
        fieldSelector: "metadata.name=x",
        limit: 10,
        continue: "tok/en=",
        resourceVersion: "0",
      },
    );
    assert.deepEqual(list.items, []);
    await client.list({ apiVersion: "v1", kind: "ConfigMap" });
    assert.deepEqual(
      server.calls.map((r) => r.url),
      [
        "/api/v1/namespaces/ns/configmaps?labelSelector=app%20in%20(a%2Cb)&fieldSelector=metadata.name%3Dx&limit=10&continue=tok%2Fen%3D&resourceVersion=0",
        "/api/v1/configmaps",
      ],
    );
  });

  it("creates with POST to the collection, with fieldManager and dryRun", async () => {
    const created = await client.create(configMap("new", "ns"), {
      fieldManager: "me",
      dryRun: true,
    });
    assert.equal(created.metadata.name, "new");
    const req = only();
    assert.equal(req.method, "POST");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps?fieldManager=me&dryRun=All");
    assert.equal(req.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(req.body), configMap("new", "ns"));
  });

  it("updates with PUT to the object, carrying its resourceVersion", async () => {
    await client.update(configMap("x", "ns"));
    const req = only();
    assert.equal(req.method, "PUT");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps/x");
    assert.equal(JSON.parse(req.body).metadata.resourceVersion, "7");
  });

  it("patches with the content type of each patch type", async () => {
    const types = ["merge", "json", "strategic"] as const;
    for (const type of types) {
      const patch = type === "json" ? [{ op: "add", path: "/data/a", value: "b" }] : { data: {} };
      await client.patch(
        { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "ns" },
        patch,
        { type, fieldManager: "m" },
      );
    }
    assert.deepEqual(
      server.calls.map((r) => [r.method, r.url, r.headers["content-type"]]),
      [
        [
          "PATCH",
          "/api/v1/namespaces/ns/configmaps/x?fieldManager=m",
          "application/merge-patch+json",
        ],
        [
          "PATCH",
          "/api/v1/namespaces/ns/configmaps/x?fieldManager=m",
          "application/json-patch+json",
        ],
        [
          "PATCH",
          "/api/v1/namespaces/ns/configmaps/x?fieldManager=m",
          "application/strategic-merge-patch+json",
        ],
      ],
    );
  });

  it("applies server-side with the apply content type, fieldManager and force", async () => {
    const tenant: KubeObject = {
      apiVersion: "apps.cozystack.io/v1alpha1",
      kind: "Tenant",
      metadata: { name: "a", namespace: "tenant-root" },
      spec: { etcd: true },
    };
    await client.apply(tenant, { fieldManager: "platform", force: true });
    const req = only();
    assert.equal(req.method, "PATCH");
    assert.equal(
      req.url,
      "/apis/apps.cozystack.io/v1alpha1/namespaces/tenant-root/tenants/a?fieldManager=platform&force=true",
    );
    assert.equal(req.headers["content-type"], "application/apply-patch+yaml");
    assert.deepEqual(JSON.parse(req.body), tenant);
  });

  it("deletes with DeleteOptions in the body and tells a Status from a kept object", async () => {
    const success = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      code: 200,
    };
    server.handler = (_req, res) => sendJson(res, 200, success);
    const gone = await client.delete(
      { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "ns" },
      {
        propagationPolicy: "Foreground",
        preconditions: { uid: "u1" },
        gracePeriodSeconds: 0,
      },
    );
    assert.ok(isStatus(gone));
    const req = only();
    assert.equal(req.method, "DELETE");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps/x");
    assert.deepEqual(JSON.parse(req.body), {
      kind: "DeleteOptions",
      apiVersion: "v1",
      propagationPolicy: "Foreground",
      preconditions: { uid: "u1" },
      gracePeriodSeconds: 0,
    });
    const kept = configMap("x");
    kept.metadata.deletionTimestamp = "2025-01-01T00:00:00Z";
    server.handler = (_req, res) => sendJson(res, 200, kept);
    const result = await client.delete({
      apiVersion: "v1",
      kind: "ConfigMap",
      name: "x",
      namespace: "ns",
    });
    assert.ok(!isStatus(result));
    assert.equal(result.metadata.deletionTimestamp, "2025-01-01T00:00:00Z");
  });

  it("deletes a collection with selectors in the query", async () => {
    server.handler = (_req, res) =>
      sendJson(res, 200, { apiVersion: "v1", kind: "ConfigMapList", metadata: {}, items: [] });
    await client.deleteCollection(
      { apiVersion: "v1", kind: "ConfigMap" },
      {
        namespace: "ns",
        labelSelector: "a=b",
        propagationPolicy: "Background",
        dryRun: true,
      },
    );
    const req = only();
    assert.equal(req.method, "DELETE");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db");
    assert.deepEqual(JSON.parse(req.body), {
      kind: "DeleteOptions",
      apiVersion: "v1",
      propagationPolicy: "Background",
      dryRun: ["All"],
    });
  });

  it("writes status through the /status subresource", async () => {
    await client.updateStatus(configMap("x", "ns"));
    await client.patchStatus(
      { apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "ns" },
      { status: { ok: true } },
      { type: "merge" },
    );
    assert.deepEqual(
      server.calls.map((r) => [r.method, r.url]),
      [
        ["PUT", "/api/v1/namespaces/ns/configmaps/x/status"],
        ["PATCH", "/api/v1/namespaces/ns/configmaps/x/status"],
      ],
    );
  });

  it("throws the ApiError of a returned Status", async () => {
    server.handler = (_req, res) =>
      sendJson(res, 404, {
        ...statusBody(404, "NotFound", 'configmaps "x" not found'),
        details: { name: "x", kind: "configmaps" },
      });
    await assert.rejects(
      client.get({ apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "ns" }),
      (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.equal(e.code, 404);
        assert.equal(e.reason, "NotFound");
        assert.equal(e.message, 'configmaps "x" not found');
        assert.equal(e.details.name, "x");
        return true;
      },
    );
  });

  it("throws a generic ApiError when the error body is not a Status", async () => {
    server.handler = (_req, res) => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end("upstream down");
    };
    await assert.rejects(client.update(configMap("x", "ns")), {
      code: 502,
      message:
        'cannot update ConfigMap "ns/x": the server responded with status 502: upstream down',
    });
  });

  it("refuses one namespaced object without a namespace, sending nothing", async () => {
    await assert.rejects(client.get({ apiVersion: "v1", kind: "ConfigMap", name: "x" }), {
      code: 400,
      message: /a namespace is required for namespaced kind ConfigMap/,
    });
    const homeless = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "y" } };
    await assert.rejects(client.create(homeless), {
      code: 400,
      message: /cannot reach ConfigMap "y": a namespace is required/,
    });
    await assert.rejects(client.update({ apiVersion: "v1", kind: "ConfigMap", metadata: {} }), {
      code: 400,
      message: "cannot update ConfigMap: metadata.name is required",
    });
    assert.equal(server.calls.length, 0);
  });

  it("reports kinds the server does not serve", async () => {
    await assert.rejects(client.get({ apiVersion: "v1", kind: "Nope", name: "x" }), {
      code: 404,
      message: 'no matches for kind "Nope" in version "v1"',
    });
  });

  it("passes raw requests through without throwing on errors", async () => {
    server.handler = (_req, res) => {
      res.writeHead(418, { "x-tea": "yes" });
      res.end("short and stout");
    };
    const res = await client.request("POST", "/raw?x=1", "payload", {
      "Content-Type": "text/plain",
    });
    assert.equal(res.status, 418);
    assert.equal(res.headers["x-tea"], "yes");
    assert.equal(res.body, "short and stout");
    const req = only();
    assert.equal(req.url, "/raw?x=1");
    assert.equal(req.headers["content-type"], "text/plain");
    assert.equal(req.body, "payload");
  });

  it("reuses keep-alive connections", async () => {
    for (let i = 0; i < 5; i++)
      await client.get({ apiVersion: "v1", kind: "ConfigMap", name: "x", namespace: "ns" });
    assert.equal(server.openConnections, 1);
  });
});

describe("HttpClient with a path prefix", () => {
  it("puts the server URL's path in front of every request", async () => {
    const server = await FakeApiServer.start();
    const client = createHttpClient({ server: `${server.url}/prefix/` });
    try {
      server.discovery.set("/prefix/api/v1", [
        { name: "namespaces", kind: "Namespace", namespaced: false },
      ]);
      server.handler = (_req, res) => sendJson(res, 200, configMap("x"));
      await client.get({ apiVersion: "v1", kind: "Namespace", name: "a" });
      assert.deepEqual(
        server.requests.map((r) => r.url),
        ["/prefix/api/v1", "/prefix/api/v1/namespaces/a"],
      );
      assert.equal(server.requests[0]?.headers.authorization, undefined);
    } finally {
      await shutdown(server, client);
    }
  });
});
