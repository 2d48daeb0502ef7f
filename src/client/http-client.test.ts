/**
 * The HTTP client against a real Hearth apiserver on loopback: what each verb
 * sends (read off the wire by a TCP tap in front of the server) and what the
 * server made of it — objects written, selected, refused — and its errors.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import {
  type LoopbackApiServer,
  shutdown,
  startLoopbackApiServer,
  waitUntil,
} from "../../test/support/loopback-apiserver.js";
import { openCrd } from "../../test/support/open-crd.js";
import type { KubeObject } from "../api/index.js";
import { ApiError } from "../api/index.js";
import { createHttpClient, type HttpClient } from "./http-client.js";
import { isStatus } from "./interface.js";

const configMap = (
  name: string,
  namespace = "ns",
  labels?: Record<string, string>,
): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace, ...(labels ? { labels } : {}) },
  data: { k: "v" },
});
const cmRef = (name: string, namespace = "ns") => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name,
  namespace,
});
const CM = { apiVersion: "v1", kind: "ConfigMap" };
const TENANT = "apps.cozystack.io/v1";
/** A custom kind with a status subresource. */
const STATUSED = "status.hearth.test/v1";

/** openCrd with the status subresource on its version. */
function crdWithStatus(group: string, kind: string, plural: string) {
  const crd = openCrd(group, kind, plural);
  const [version] = crd.spec.versions;
  return {
    ...crd,
    spec: { ...crd.spec, versions: [{ ...version!, subresources: { status: {} } }] },
  };
}

describe("HttpClient", () => {
  let server: LoopbackApiServer;
  let client: HttpClient;
  const others: HttpClient[] = [];

  before(async () => {
    server = await startLoopbackApiServer({ tokens: new Map([["s3cret", "admin"]]) });
    client = createHttpClient({ server: server.url, token: "s3cret", userAgent: "hearth-test/1" });
    for (const name of ["ns", "tenant-root"])
      await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
    await client.create(openCrd("apps.cozystack.io", "Tenant", "tenants"));
    await client.create(crdWithStatus("status.hearth.test", "Widget", "widgets"));
    // A CRD is served once its registrar has picked it up.
    await waitUntil(
      async () => !!(await client.list({ apiVersion: TENANT, kind: "Tenant" })),
      "the Tenant CRD to be served",
    );
  });

  after(async () => {
    await shutdown(server, client, ...others);
  });

  beforeEach(() => {
    server.tap.requests.length = 0;
  });

  const only = () => {
    const calls = server.calls();
    assert.equal(calls.length, 1, calls.map((c) => `${c.method} ${c.url}`).join(", "));
    return calls[0]!;
  };

  it("gets with the token, user agent and accept headers; without the token it is refused", async () => {
    const created = await client.create(configMap("x", "default"));
    // The server names the writer after the user agent up to its "/".
    assert.equal(created.metadata.managedFields?.[0]?.manager, "hearth-test");
    server.tap.requests.length = 0;
    const got = await client.get(cmRef("x", "default"));
    assert.deepEqual(got.data, { k: "v" });
    const req = only();
    assert.equal(req.method, "GET");
    assert.equal(req.url, "/api/v1/namespaces/default/configmaps/x");
    assert.equal(req.headers.authorization, "Bearer s3cret");
    assert.equal(req.headers["user-agent"], "hearth-test/1");
    assert.equal(req.headers.accept, "application/json");
    const anonymous = createHttpClient({ server: server.url });
    others.push(anonymous);
    const refused = await anonymous.request("GET", "/api/v1/namespaces/default/configmaps/x");
    assert.equal(refused.status, 401);
    assert.equal(server.tap.requests.at(-1)?.headers.authorization, undefined);
  });

  it("gets cluster-scoped and grouped objects", async () => {
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "tenant-a" } });
    const tenant = {
      apiVersion: TENANT,
      kind: "Tenant",
      metadata: { name: "a", namespace: "tenant-root" },
    };
    await client.create(tenant);
    server.tap.requests.length = 0;
    const got = [
      await client.get({ apiVersion: "v1", kind: "Namespace", name: "tenant-a" }),
      await client.get({
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "CustomResourceDefinition",
        name: "tenants.apps.cozystack.io",
      }),
      await client.get({ apiVersion: TENANT, kind: "Tenant", name: "a", namespace: "tenant-root" }),
    ];
    assert.deepEqual(
      got.map((o) => `${o.kind}/${o.metadata.name}`),
      ["Namespace/tenant-a", "CustomResourceDefinition/tenants.apps.cozystack.io", "Tenant/a"],
    );
    assert.deepEqual(
      server.calls().map((r) => r.url),
      [
        "/api/v1/namespaces/tenant-a",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/tenants.apps.cozystack.io",
        "/apis/apps.cozystack.io/v1/namespaces/tenant-root/tenants/a",
      ],
    );
  });

  it("lists in a namespace or across all, encoding selectors, limit and continue", async () => {
    for (const app of ["a", "b", "c"])
      await client.create(configMap(`sel-${app}`, "ns", { app, set: "list" }));
    const names = (l: { items: KubeObject[] }) => l.items.map((o) => o.metadata.name);
    server.tap.requests.length = 0;
    const labelSelector = "app in (a,b)";
    const first = await client.list(CM, { namespace: "ns", labelSelector, limit: 1 });
    assert.deepEqual(names(first), ["sel-a"]);
    const token = first.metadata.continue;
    assert.ok(token, "a first page of one carries a continue token");
    const rest = await client.list(CM, { namespace: "ns", labelSelector, continue: token });
    assert.deepEqual(names(rest), ["sel-b"]);
    const byName = await client.list(CM, { namespace: "ns", fieldSelector: "metadata.name=sel-c" });
    assert.deepEqual(names(byName), ["sel-c"]);
    const everywhere = await client.list(CM, { resourceVersion: "0" });
    assert.ok(names(everywhere).includes("sel-c") && names(everywhere).includes("x"));
    assert.deepEqual(
      server.calls().map((r) => r.url),
      [
        "/api/v1/namespaces/ns/configmaps?labelSelector=app%20in%20(a%2Cb)&limit=1",
        `/api/v1/namespaces/ns/configmaps?labelSelector=app%20in%20(a%2Cb)&continue=${encodeURIComponent(token)}`,
        "/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dsel-c",
        "/api/v1/configmaps?resourceVersion=0",
      ],
    );
  });

  it("creates with POST to the collection; dryRun stores nothing, fieldManager names the writer", async () => {
    const dry = await client.create(configMap("new"), { fieldManager: "me", dryRun: true });
    assert.equal(dry.metadata.name, "new");
    const req = only();
    assert.equal(req.method, "POST");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps?fieldManager=me&dryRun=All");
    assert.equal(req.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(req.body), configMap("new"));
    await assert.rejects(client.get(cmRef("new")), { code: 404 });
    const created = await client.create(configMap("new"), { fieldManager: "me" });
    assert.equal(created.metadata.managedFields?.[0]?.manager, "me");
    assert.deepEqual((await client.get(cmRef("new"))).data, { k: "v" });
  });

  it("updates with PUT to the object, carrying its resourceVersion; a stale one conflicts", async () => {
    const current = await client.create(configMap("upd"));
    server.tap.requests.length = 0;
    const updated = await client.update({ ...current, data: { k: "w" } });
    assert.deepEqual(updated.data, { k: "w" });
    assert.notEqual(updated.metadata.resourceVersion, current.metadata.resourceVersion);
    const req = only();
    assert.equal(req.method, "PUT");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps/upd");
    assert.equal(JSON.parse(req.body).metadata.resourceVersion, current.metadata.resourceVersion);
    await assert.rejects(client.update({ ...current, data: { k: "stale" } }), {
      code: 409,
      reason: "Conflict",
    });
  });

  it("patches with the content type of each patch type", async () => {
    await client.create(configMap("p"));
    server.tap.requests.length = 0;
    const patches = [
      { type: "merge", patch: { data: { merge: "1" } } },
      { type: "json", patch: [{ op: "add", path: "/data/json", value: "2" }] },
      { type: "strategic", patch: { data: { strategic: "3" } } },
    ] as const;
    for (const { type, patch } of patches)
      await client.patch(cmRef("p"), patch, { type, fieldManager: "m" });
    assert.deepEqual((await client.get(cmRef("p"))).data, {
      k: "v",
      merge: "1",
      json: "2",
      strategic: "3",
    });
    const url = "/api/v1/namespaces/ns/configmaps/p?fieldManager=m";
    assert.deepEqual(
      server
        .calls()
        .slice(0, 3)
        .map((r) => [r.method, r.url, r.headers["content-type"]]),
      [
        ["PATCH", url, "application/merge-patch+json"],
        ["PATCH", url, "application/json-patch+json"],
        ["PATCH", url, "application/strategic-merge-patch+json"],
      ],
    );
  });

  it("applies server-side with the apply content type, fieldManager and force", async () => {
    const tenant: KubeObject = {
      apiVersion: TENANT,
      kind: "Tenant",
      metadata: { name: "applied", namespace: "tenant-root" },
      spec: { etcd: true },
    };
    await client.apply(tenant, { fieldManager: "other" });
    const mine = { ...tenant, spec: { etcd: false } };
    await assert.rejects(client.apply(mine, { fieldManager: "platform" }), { code: 409 });
    server.tap.requests.length = 0;
    const applied = await client.apply(mine, { fieldManager: "platform", force: true });
    assert.deepEqual(applied.spec, { etcd: false }, "force took spec.etcd from the other manager");
    const managers = applied.metadata.managedFields?.map((f) => `${f.manager} ${f.operation}`);
    assert.ok(managers?.includes("platform Apply"), String(managers));
    const req = only();
    assert.equal(req.method, "PATCH");
    assert.equal(
      req.url,
      "/apis/apps.cozystack.io/v1/namespaces/tenant-root/tenants/applied?fieldManager=platform&force=true",
    );
    assert.equal(req.headers["content-type"], "application/apply-patch+yaml");
    assert.deepEqual(JSON.parse(req.body), { ...tenant, spec: { etcd: false } });
  });

  it("deletes with DeleteOptions in the body and tells a Status from a kept object", async () => {
    const doomed = await client.create(configMap("del"));
    await assert.rejects(client.delete(cmRef("del"), { preconditions: { uid: "not-it" } }), {
      code: 409,
    });
    server.tap.requests.length = 0;
    const gone = await client.delete(cmRef("del"), {
      propagationPolicy: "Background",
      preconditions: { uid: doomed.metadata.uid! },
      gracePeriodSeconds: 0,
    });
    assert.ok(isStatus(gone));
    const req = only();
    assert.equal(req.method, "DELETE");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps/del");
    assert.deepEqual(JSON.parse(req.body), {
      kind: "DeleteOptions",
      apiVersion: "v1",
      propagationPolicy: "Background",
      preconditions: { uid: doomed.metadata.uid },
      gracePeriodSeconds: 0,
    });
    await assert.rejects(client.get(cmRef("del")), { code: 404 });
    // Foreground deletion keeps the object (no garbage collector runs here) and returns it.
    await client.create(configMap("kept"));
    const kept = await client.delete(cmRef("kept"), { propagationPolicy: "Foreground" });
    assert.ok(!isStatus(kept));
    assert.ok(kept.metadata.deletionTimestamp);
    assert.deepEqual(kept.metadata.finalizers, ["foregroundDeletion"]);
  });

  it("deletes a collection by selector; dryRun deletes nothing", async () => {
    for (const name of ["dc-1", "dc-2"]) await client.create(configMap(name, "ns", { a: "b" }));
    await client.create(configMap("dc-other", "ns", { a: "c" }));
    const names = async () =>
      (await client.list(CM, { namespace: "ns", labelSelector: "a" })).items.map(
        (o) => o.metadata.name,
      );
    server.tap.requests.length = 0;
    const opts = {
      namespace: "ns",
      labelSelector: "a=b",
      propagationPolicy: "Background",
    } as const;
    await client.deleteCollection(CM, { ...opts, dryRun: true });
    const req = only();
    assert.equal(req.method, "DELETE");
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db");
    assert.deepEqual(JSON.parse(req.body), {
      kind: "DeleteOptions",
      apiVersion: "v1",
      propagationPolicy: "Background",
      dryRun: ["All"],
    });
    assert.deepEqual(await names(), ["dc-1", "dc-2", "dc-other"]);
    await client.deleteCollection(CM, opts);
    assert.deepEqual(await names(), ["dc-other"]);
  });

  it("writes status through the /status subresource", async () => {
    const widget = {
      apiVersion: STATUSED,
      kind: "Widget",
      metadata: { name: "w", namespace: "ns" },
    };
    const ref = { apiVersion: STATUSED, kind: "Widget", name: "w", namespace: "ns" };
    await waitUntil(async () => !!(await client.create(widget)), "the Widget CRD to be served");
    const current = await client.get(ref);
    server.tap.requests.length = 0;
    await client.updateStatus({ ...current, spec: { ignored: true }, status: { phase: "Up" } });
    const patched = await client.patchStatus(ref, { status: { ok: true } }, { type: "merge" });
    assert.deepEqual(patched.status, { phase: "Up", ok: true });
    assert.equal(patched.spec, undefined, "the status subresource leaves spec alone");
    assert.deepEqual(
      server.calls().map((r) => [r.method, r.url]),
      [
        ["PUT", "/apis/status.hearth.test/v1/namespaces/ns/widgets/w/status"],
        ["PATCH", "/apis/status.hearth.test/v1/namespaces/ns/widgets/w/status"],
      ],
    );
  });

  it("throws the ApiError of a returned Status", async () => {
    await assert.rejects(client.get(cmRef("missing")), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.equal(e.code, 404);
      assert.equal(e.reason, "NotFound");
      assert.equal(e.message, 'configmaps "missing" not found');
      assert.equal(e.details.name, "missing");
      assert.equal(e.details.kind, "configmaps");
      return true;
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
    assert.deepEqual(server.calls(), []);
  });

  it("reports kinds the server does not serve", async () => {
    await assert.rejects(client.get({ apiVersion: "v1", kind: "Nope", name: "x" }), {
      code: 404,
      message: 'no matches for kind "Nope" in version "v1"',
    });
  });

  it("passes raw requests through without throwing on errors", async () => {
    const res = await client.request("POST", "/api/v1/namespaces/ns/configmaps?x=1", "payload", {
      "Content-Type": "text/plain",
    });
    assert.equal(res.status, 415);
    assert.match(String(res.headers["content-type"]), /application\/json/);
    assert.equal(JSON.parse(res.body).reason, "UnsupportedMediaType");
    const req = only();
    assert.equal(req.url, "/api/v1/namespaces/ns/configmaps?x=1");
    assert.equal(req.headers["content-type"], "text/plain");
    assert.equal(req.body, "payload");
  });

  it("reuses keep-alive connections", async () => {
    await client.get(cmRef("x", "default"));
    const opened = server.tap.connections;
    for (let i = 0; i < 5; i++) await client.get(cmRef("x", "default"));
    assert.equal(server.tap.connections, opened, "no new connection for 5 sequential gets");
    assert.equal(server.calls().length, 6);
  });
});
