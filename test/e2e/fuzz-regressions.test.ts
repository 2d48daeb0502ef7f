/**
 * Crashes the fuzz suite found, each pinned as the request that found it:
 * the answer kube gives (never a 500 kube does not give) and nothing written.
 * - a CRD whose schema holds null or a string where a schema belongs
 *   (`properties: {size: null}`) crashed the rule walk with a TypeError;
 * - a SubjectAccessReview with `spec.groups` of the wrong type crashed the
 *   authorizer (`attrs.user.groups is not iterable`);
 * - a pod log on a node without an address was a 503 (kube: a 500 of reason
 *   Unknown, from GetConnectionInfo);
 * - a warning naming an unknown field in a non-Latin-1 script made Node refuse
 *   the Warning header after the write (500, written); many unknown fields made
 *   the header outgrow what a client reads (kube caps warnings at 4096 runes);
 * - deletecollection on a namespaced kind's all-namespaces path deleted in every
 *   namespace (kube: 405, the route is not registered); a strategic merge patch
 *   on a custom resource was applied as a merge patch (kube: 415); a PUT with
 *   Content-Type application/apply-patch+yaml was taken as YAML (kube: 415);
 *   pod log options `tailLines=1e100` or beyond int64 were taken (kube: 400).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { gadgetCrdSpec } from "../support/fuzz/catalogue.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { expectRefused } from "../support/refusal.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function crd(properties: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.fuzz.hearth.io" },
    spec: gadgetCrdSpec(properties, extra),
  });
}

/** kube's reason for each code these regressions answer with. */
const REASONS: Record<number, string> = {
  400: "BadRequest",
  405: "MethodNotAllowed",
  415: "UnsupportedMediaType",
  422: "Invalid",
};

describe("fuzz regressions", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  /** Refused with `code` and kube's reason for it, nothing written, the server still up. */
  function refused(method: string, path: string, body: string, code: number) {
    const reason = REASONS[code];
    assert.ok(reason, `no reason known for ${code}`);
    return expectRefused(s, `${method} ${path}`, () => s.request(method, path, body), {
      code,
      reason,
    });
  }

  it("refuses a CRD with a null schema where a schema belongs (422, as structural validation)", async () => {
    const status = await refused("POST", CRDS, crd({ size: null }), 422);
    assert.equal(
      status.details?.causes?.[0]?.field,
      "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].type",
    );
    assert.match(status.message, /Required value: must not be empty for specified object fields/);
    await refused("POST", CRDS, crd({}, { items: null }), 422);
    await refused("POST", CRDS, crd({}, { additionalProperties: null }), 422);
  });

  it("refuses a CRD with a string or number where a schema belongs (400, as kube's decoder)", async () => {
    const status = await refused("POST", CRDS, crd({ size: "x" }), 400);
    assert.match(
      status.message,
      /cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.properties of type v1.JSONSchemaProps/,
    );
    await refused("POST", CRDS, crd({}, { items: 5 }), 400);
    await refused("POST", CRDS, crd({}, { allOf: [7] }), 400);
    await refused("POST", CRDS, crd({}, { properties: "nope" }), 400);
  });

  it("refuses a SubjectAccessReview whose fields have the wrong types (400, as kube's decoder)", async () => {
    const review = (spec: unknown) =>
      JSON.stringify({ apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec });
    const status = await refused(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      review({ user: "u", groups: 9007199254740992, resourceAttributes: { verb: "get" } }),
      400,
    );
    assert.match(
      status.message,
      /SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: spec.groups/,
    );
    await refused(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      review({ user: "u", extra: { a: "not-a-list" }, resourceAttributes: { verb: "get" } }),
      400,
    );
    await refused(
      "POST",
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      JSON.stringify({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SelfSubjectAccessReview",
        spec: { resourceAttributes: "get" },
      }),
      400,
    );
  });

  it("still answers a well-typed review", async () => {
    const r = await s.request(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      JSON.stringify({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec: { user: "u", groups: ["g"], resourceAttributes: { verb: "get", resource: "pods" } },
      }),
    );
    assert.equal(r.status, 201, r.text);
    assert.equal((r.body as { status: { allowed: boolean } }).status.allowed, true);
  });

  it("sends warnings in any script as UTF-8 and writes as kube does (201, not 500 after the write)", async () => {
    const body = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "warned-utf8" },
      "😀İ\u202eevil": ["x"],
    });
    const r = await s.request("POST", "/api/v1/namespaces/default/configmaps", body);
    assert.equal(r.status, 201, r.text);
    const warning = Buffer.from(r.headers.get("warning") ?? "", "latin1").toString("utf8");
    assert.equal(warning, '299 - "unknown field \\"😀İ\u202eevil\\""');
  });

  it("caps warnings at 4096 runes as kube's recorder does", async () => {
    const data: Record<string, unknown> = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "warned-many" },
    };
    for (let i = 0; i < 2000; i++) data[`unknown-field-${"x".repeat(20)}-${i}`] = i;
    const r = await s.request(
      "POST",
      "/api/v1/namespaces/default/configmaps",
      JSON.stringify(data),
    );
    assert.equal(r.status, 201, r.text);
    const warning = r.headers.get("warning") ?? "";
    assert.ok(warning.length > 0 && warning.length < 4096 + 2000 * 12, `${warning.length}`);
  });

  it("refuses deletecollection across all namespaces (405) and deletes nothing", async () => {
    const cm = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "kept" } });
    assert.equal(
      (await s.request("POST", "/api/v1/namespaces/default/configmaps", cm)).status,
      201,
    );
    await refused("DELETE", "/api/v1/configmaps", "", 405);
    await refused("DELETE", "/api/v1/configmaps?labelSelector=app%3Dx", "", 405);
    const kept = await s.request("GET", "/api/v1/namespaces/default/configmaps/kept");
    assert.equal(kept.status, 200);
  });

  it("refuses deletecollection with list options that do not parse (400) and deletes nothing", async () => {
    const cm = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "kept-2" },
    });
    assert.equal(
      (await s.request("POST", "/api/v1/namespaces/default/configmaps", cm)).status,
      201,
    );
    for (const q of ["limit=abc", "limit=1e100", "timeoutSeconds=NaN", "timeoutSeconds=abc"])
      await refused("DELETE", `/api/v1/namespaces/default/configmaps?${q}`, "", 400);
    const kept = await s.request("GET", "/api/v1/namespaces/default/configmaps/kept-2");
    assert.equal(kept.status, 200);
  });

  it("refuses a strategic merge patch on a custom resource (415) and writes nothing", async () => {
    const crdBody = JSON.parse(crd({ color: { type: "string" } })) as Record<string, unknown>;
    const created = await s.request("POST", CRDS, JSON.stringify(crdBody));
    assert.equal(created.status, 201, created.text);
    const gadgets = "/apis/fuzz.hearth.io/v1/namespaces/default/gadgets";
    const gadget = JSON.stringify({
      apiVersion: "fuzz.hearth.io/v1",
      kind: "Gadget",
      metadata: { name: "g" },
      spec: { color: "red" },
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await s.request("POST", gadgets, gadget);
      if (r.status === 201) break;
      assert.ok(Date.now() < deadline, `gadget not created: ${r.text}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const rev = await s.backend.currentRevision();
    const r = await s.request("PATCH", `${gadgets}/g`, '{"spec":{"color":"blue"}}', {
      "Content-Type": "application/strategic-merge-patch+json",
    });
    assert.equal(r.status, 415, r.text);
    assert.equal((r.body as { reason: string }).reason, "UnsupportedMediaType");
    assert.equal(
      (r.body as { message: string }).message,
      "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
    );
    assert.equal(await s.backend.currentRevision(), rev, "a refused request writes nothing");
    const merged = await s.request("PATCH", `${gadgets}/g`, '{"spec":{"color":"blue"}}', {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal(merged.status, 200, merged.text);
  });

  it("refuses a PUT or POST with Content-Type application/apply-patch+yaml (415)", async () => {
    const cm = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "kept" },
      data: { a: "changed" },
    });
    const headers = { "Content-Type": "application/apply-patch+yaml" };
    for (const [method, path] of [
      ["PUT", "/api/v1/namespaces/default/configmaps/kept"],
      ["POST", "/api/v1/namespaces/default/configmaps"],
    ] as const) {
      const rev = await s.backend.currentRevision();
      const r = await s.request(method, path, cm, headers);
      assert.equal(r.status, 415, r.text);
      assert.equal((r.body as { reason: string }).reason, "UnsupportedMediaType");
      assert.equal(await s.backend.currentRevision(), rev, "a refused request writes nothing");
    }
  });

  it("refuses pod log options that are no int64 (400, as kube's parameter codec)", async () => {
    const pod = JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "logged" },
      spec: { containers: [{ name: "main", image: "busybox" }] },
    });
    const created = await s.request("POST", "/api/v1/namespaces/default/pods", pod);
    assert.equal(created.status, 201, created.text);
    const log = "/api/v1/namespaces/default/pods/logged/log";
    for (const [q, why] of [
      ["tailLines=1e100", 'strconv.ParseInt: parsing "1e100": invalid syntax'],
      ["sinceSeconds=9223372036854775808", "value out of range"],
      ["limitBytes=1.5", "invalid syntax"],
    ] as const) {
      const r = await s.request("GET", `${log}?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.ok((r.body as { message: string }).message.includes(why), r.text);
    }
    assert.equal((await s.request("GET", `${log}?tailLines=5`)).status, 200);
  });

  it("answers a pod log on a node without an address as kube does (500 Unknown, not 503)", async () => {
    const node = JSON.stringify({ apiVersion: "v1", kind: "Node", metadata: { name: "bare" } });
    assert.equal((await s.request("POST", "/api/v1/nodes", node)).status, 201);
    const pod = JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "on-bare" },
      spec: { nodeName: "bare", containers: [{ name: "main", image: "busybox" }] },
    });
    assert.equal((await s.request("POST", "/api/v1/namespaces/default/pods", pod)).status, 201);
    const r = await s.request("GET", "/api/v1/namespaces/default/pods/on-bare/log");
    assert.equal(r.status, 500, r.text);
    const status = r.body as { reason: string; message: string };
    assert.equal(status.reason, "Unknown");
    assert.equal(status.message, "no preferred addresses found; known addresses: []");
  });

  it("refuses a patch that nulls a CronJob's or Job's spec (422), never a 500", async () => {
    const template = {
      spec: { restartPolicy: "Never", containers: [{ name: "main", image: "busybox" }] },
    };
    const cronJob = JSON.stringify({
      apiVersion: "batch/v1",
      kind: "CronJob",
      metadata: { name: "nightly" },
      spec: { schedule: "0 0 * * *", jobTemplate: { spec: { template } } },
    });
    const job = JSON.stringify({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "once" },
      spec: { template },
    });
    const cj = await s.request("POST", "/apis/batch/v1/namespaces/default/cronjobs", cronJob);
    assert.equal(cj.status, 201, cj.text);
    const j = await s.request("POST", "/apis/batch/v1/namespaces/default/jobs", job);
    assert.equal(j.status, 201, j.text);
    const merge = { "Content-Type": "application/merge-patch+json" };
    for (const path of [
      "/apis/batch/v1/namespaces/default/cronjobs/nightly",
      "/apis/batch/v1/namespaces/default/jobs/once",
    ]) {
      const rev = await s.backend.currentRevision();
      const r = await s.request("PATCH", path, '{"spec":null}', merge);
      assert.equal(r.status, 422, r.text);
      assert.equal(await s.backend.currentRevision(), rev, "a refused request writes nothing");
    }
  });

  it("checks the options of a scale patch (fieldValidation Bogus is a 422)", async () => {
    const def = JSON.parse(crd({ replicas: { type: "integer" } })) as {
      metadata: { name: string };
      spec: { names: Record<string, string>; versions: Record<string, unknown>[] };
    };
    def.metadata.name = "scalers.fuzz.hearth.io";
    def.spec.names = { plural: "scalers", singular: "scaler", kind: "Scaler" };
    def.spec.versions[0]!.subresources = {
      scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
    };
    assert.equal((await s.request("POST", CRDS, JSON.stringify(def))).status, 201);
    const scalers = "/apis/fuzz.hearth.io/v1/namespaces/default/scalers";
    const scaler = JSON.stringify({
      apiVersion: "fuzz.hearth.io/v1",
      kind: "Scaler",
      metadata: { name: "sc" },
      spec: { replicas: 1 },
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await s.request("POST", scalers, scaler);
      if (r.status === 201) break;
      assert.ok(Date.now() < deadline, `scaler not created: ${r.text}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const merge = { "Content-Type": "application/merge-patch+json" };
    const body = '{"spec":{"replicas":3}}';
    for (const q of ["fieldValidation=Bogus", "dryRun=Bogus", `fieldManager=${"x".repeat(129)}`]) {
      const rev = await s.backend.currentRevision();
      const r = await s.request("PATCH", `${scalers}/sc/scale?${q}`, body, merge);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
      assert.equal(await s.backend.currentRevision(), rev, "a refused request writes nothing");
    }
    const ok = await s.request("PATCH", `${scalers}/sc/scale`, body, merge);
    assert.equal(ok.status, 200, ok.text);
  });
});
