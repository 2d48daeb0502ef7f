/**
 * Writes and watches through the in-process apiserver over HTTP: the status
 * subresource (each endpoint changes only its half), dry runs of every verb
 * (answered, never stored), and WATCH parameters (resourceVersion to start
 * from, initial ADDED events, selectors turning changes into ADDED/DELETED,
 * timeoutSeconds, refusals before the stream starts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv, type WatchLine } from "../../../test/support/raw-http.js";
import type { KubeList, KubeObject, Pod, Status } from "../../api/index.js";

const NS = "writes";
const PODS = `/api/v1/namespaces/${NS}/pods`;
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

let env: Env;
let api: RawApi;

const pod = (name: string): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "c", image: "busybox" }] },
});
const cm = (
  name: string,
  labels: Record<string, string> = {},
  data: Record<string, string> = {},
) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, labels },
  data,
});

before(async () => {
  ({ env, api } = await startRawEnv(NS));
});

after(() => env.stop());

describe("status subresource", () => {
  it("PUT /status changes status only; PUT of the object keeps the stored status", async () => {
    const created = await api.ok<Pod>("POST", PODS, pod("s1"));
    const withStatus = await api.ok<Pod>("PUT", `${PODS}/s1/status`, {
      ...created,
      spec: { ...created.spec, activeDeadlineSeconds: 5 },
      status: { phase: "Running" },
    });
    assert.equal(withStatus.status?.phase, "Running");
    assert.equal(withStatus.spec?.activeDeadlineSeconds, undefined, "spec ignored on /status");
    assert.equal(withStatus.metadata.generation, created.metadata.generation);
    const updated = await api.ok<Pod>("PUT", `${PODS}/s1`, {
      ...withStatus,
      metadata: { ...withStatus.metadata, labels: { a: "b" } },
      status: { phase: "Failed" },
    });
    assert.equal(updated.status?.phase, "Running", "status ignored on the main resource");
    assert.equal(updated.metadata.labels?.a, "b");
  });

  it("PATCH /status ignores spec, and GET /status returns the whole object", async () => {
    await api.ok("POST", PODS, pod("s2"));
    const patched = await api.ok<Pod>("PATCH", `${PODS}/s2/status`, {
      spec: { nodeName: "elsewhere" },
      status: { phase: "Succeeded" },
    });
    assert.equal(patched.status?.phase, "Succeeded");
    assert.equal(patched.spec?.nodeName, undefined);
    const got = await api.ok<Pod>("GET", `${PODS}/s2/status`);
    assert.equal(got.kind, "Pod");
    assert.equal(got.spec?.containers[0]?.image, "busybox");
    assert.equal(got.status?.phase, "Succeeded");
  });

  it("guards /status writes with the resourceVersion as any update", async () => {
    const created = await api.ok<Pod>("POST", PODS, pod("s3"));
    await api.ok("PATCH", `${PODS}/s3/status`, { status: { phase: "Running" } });
    const stale = await api.call("PUT", `${PODS}/s3/status`, {
      ...created,
      status: { phase: "Failed" },
    });
    assert.equal(stale.status, 409);
    assert.equal((stale.body as Status).reason, "Conflict");
  });

  it("has no status subresource on a kind without one", async () => {
    await api.ok("POST", CMS, cm("plain"));
    const reply = await api.call("GET", `${CMS}/plain/status`);
    assert.equal(reply.status, 404);
  });
});

describe("dry run", () => {
  before(() => api.ok("POST", CMS, cm("kept", {}, { v: "1" })));

  const stored = () => api.ok<KubeObject & { data?: Record<string, string> }>("GET", `${CMS}/kept`);

  const verbs = [
    {
      verb: "POST",
      path: `${CMS}?dryRun=All`,
      body: cm("dry-new", {}, { v: "1" }),
      check: (o: KubeObject) => assert.equal(o.metadata.name, "dry-new"),
    },
    {
      verb: "PATCH",
      path: `${CMS}/kept?dryRun=All`,
      body: { data: { v: "2" } },
      check: (o: KubeObject & { data?: Record<string, string> }) => assert.equal(o.data?.v, "2"),
    },
    { verb: "DELETE", path: `${CMS}/kept?dryRun=All`, body: undefined, check: () => {} },
  ];
  for (const v of verbs) {
    it(`${v.verb} with dryRun=All answers as the real call would and stores nothing`, async () => {
      const before = await stored();
      const reply = await api.call(v.verb, v.path, v.body);
      assert.ok(reply.status >= 200 && reply.status < 300, reply.text);
      v.check(reply.body as KubeObject);
      const after = await stored();
      assert.deepEqual(after, before);
      assert.equal((await api.call("GET", `${CMS}/dry-new`)).status, 404);
    });
  }

  it("PUT with dryRun=All answers the new object and stores nothing", async () => {
    const before = await stored();
    const reply = await api.ok<KubeObject & { data?: Record<string, string> }>(
      "PUT",
      `${CMS}/kept?dryRun=All`,
      {
        ...before,
        data: { v: "3" },
      },
    );
    assert.equal(reply.data?.v, "3");
    assert.deepEqual(await stored(), before);
  });

  it("still validates: a dry-run create of an invalid object is the same 422", async () => {
    const bad = cm("Bad_Name");
    const dry = await api.call("POST", `${CMS}?dryRun=All`, bad);
    const real = await api.call("POST", CMS, bad);
    assert.equal(dry.status, 422);
    assert.deepEqual(dry.body, real.body);
  });

  it("refuses a dryRun value other than All before reading the body", async () => {
    const reply = await api.call("POST", `${CMS}?dryRun=true`, "not even json");
    assert.equal(reply.status, 422);
    const s = reply.body as Status;
    assert.equal(s.details?.kind, "CreateOptions");
    assert.deepEqual(s.details?.causes, [
      {
        reason: "FieldValueNotSupported",
        message: 'Unsupported value: []string{"true"}: supported values: "All"',
        field: "dryRun",
      },
    ]);
  });
});

describe("WATCH parameters", () => {
  const W = `${CMS}?watch=1`;
  const summary = (seen: WatchLine[]) =>
    seen.map((e) => `${e.type} ${e.object.metadata?.name ?? ""}`);
  const until = (n: number) => (seen: WatchLine[]) => seen.length >= n;

  let start: string;
  before(async () => {
    for (const n of ["w1", "w2"]) await api.ok("POST", CMS, cm(n, { watch: "yes" }));
    start = (await api.ok<KubeList>("GET", `${CMS}?labelSelector=watch`)).metadata.resourceVersion!;
  });

  it("without a resourceVersion starts with the current state as ADDED", async () => {
    const seen = await api.watch(`${W}&labelSelector=watch`, until(2));
    assert.deepEqual(summary(seen).sort(), ["ADDED w1", "ADDED w2"]);
  });

  it("from a resourceVersion sends only what changed after it, in order", async () => {
    const watching = api.watch(`${W}&labelSelector=watch&resourceVersion=${start}`, until(3));
    await api.ok("PATCH", `${CMS}/w1`, { data: { x: "1" } });
    await api.ok("POST", CMS, cm("w3", { watch: "yes" }));
    await api.ok("DELETE", `${CMS}/w2`);
    const seen = await watching;
    assert.deepEqual(summary(seen), ["MODIFIED w1", "ADDED w3", "DELETED w2"]);
    const rvs = seen.map((e) => Number(e.object.metadata.resourceVersion));
    assert.ok(
      rvs.every((rv, i) => rv > Number(start) && (i === 0 || rv > rvs[i - 1]!)),
      `${rvs}`,
    );
  });

  it("turns an object entering or leaving the label selector into ADDED and DELETED", async () => {
    const now = (await api.ok<KubeList>("GET", CMS)).metadata.resourceVersion;
    const watching = api.watch(`${W}&labelSelector=phase%3Dhot&resourceVersion=${now}`, until(3));
    await api.ok("POST", CMS, cm("mover", { phase: "cold" }));
    await api.ok("PATCH", `${CMS}/mover`, { metadata: { labels: { phase: "hot" } } });
    await api.ok("PATCH", `${CMS}/mover`, { data: { a: "1" } });
    await api.ok("PATCH", `${CMS}/mover`, { metadata: { labels: { phase: "cold" } } });
    assert.deepEqual(summary(await watching), ["ADDED mover", "MODIFIED mover", "DELETED mover"]);
  });

  it("filters by field selector", async () => {
    const seen = await api.watch(`${W}&fieldSelector=metadata.name%3Dw3`, until(1));
    assert.deepEqual(summary(seen), ["ADDED w3"]);
  });

  it("ends the stream after timeoutSeconds", async () => {
    const started = Date.now();
    const seen = await api.watch(`${W}&labelSelector=none&timeoutSeconds=1`, () => false, 10_000);
    const took = Date.now() - started;
    assert.deepEqual(seen, []);
    assert.ok(took >= 900 && took < 8000, `ended after ${took} ms`);
  });

  const refused = [
    { query: "resourceVersionMatch=NotOlderThan", code: 422, reason: "Invalid" },
    { query: "sendInitialEvents=true", code: 422, reason: "Invalid" },
    { query: "resourceVersion=x", code: 400, reason: "BadRequest" },
    { query: "timeoutSeconds=soon", code: 400, reason: "BadRequest" },
    { query: "labelSelector=a%3D%3D%3D", code: 400, reason: "BadRequest" },
  ];
  for (const r of refused) {
    it(`refuses ${r.query} with a ${r.code} before streaming`, async () => {
      const reply = await api.call("GET", `${W}&${r.query}`);
      assert.equal(reply.status, r.code, reply.text);
      assert.equal((reply.body as Status).reason, r.reason);
    });
  }
});
