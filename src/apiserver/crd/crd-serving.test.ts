/**
 * CRDs served by a real ApiServer on the memory backend: a kind is served as
 * soon as its CRD's create returns (status Established, cleanup finalizer
 * added), objects are defaulted and pruned by the version's schema, only served
 * versions answer, the status subresource splits spec from status, bad CRDs are
 * refused with 422, and a second apiserver on the same store follows the CRDs
 * the first one writes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { MemoryBackend } from "../../storage/index.js";
import { ApiServer } from "../server.js";

interface Reply {
  status: number;
  body: KubeObject & { code?: number; message?: string; resources?: { name: string }[] };
}

interface Running {
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  stop(): Promise<void>;
}

async function serve(backend: MemoryBackend): Promise<Running> {
  const server = new ApiServer({ backend, tokens: new Map(), port: 0 });
  const controller = new AbortController();
  await server.start(controller.signal);
  const url = `http://127.0.0.1:${server.port}`;
  return {
    async call(method, path, body) {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: { "Content-Type": "application/json" },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Reply["body"] };
    },
    async stop() {
      controller.abort();
      await server.closed();
    },
  };
}

const GROUP = "serving.example.com";
const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function widgetCrd(plural: string, opts: { scope?: string; v1beta1Served?: boolean } = {}) {
  const kind = `${plural[0]!.toUpperCase()}${plural.slice(1, -1)}`;
  const schema = {
    openAPIV3Schema: {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            size: { type: "integer", default: 1 },
            mode: { type: "string", default: "fast" },
            free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
        },
        status: { type: "object", properties: { ready: { type: "boolean" } } },
      },
    },
  };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: { plural, kind },
      scope: opts.scope ?? "Namespaced",
      versions: [
        { name: "v1", served: true, storage: true, schema, subresources: { status: {} } },
        { name: "v1beta1", served: opts.v1beta1Served ?? false, storage: false, schema },
      ],
    },
  };
}

describe("CRDs served by the apiserver", () => {
  let backend: MemoryBackend;
  let api: Running;
  let plurals = 0;
  /** A fresh CRD per test; returns its stored form and the v1 collection path. */
  async function register(opts: Parameters<typeof widgetCrd>[1] = {}) {
    const plural = `widgets${++plurals}`;
    const created = await api.call("POST", CRDS, widgetCrd(plural, opts));
    assert.equal(created.status, 201, created.body.message);
    const scope = opts.scope === "Cluster" ? "" : "namespaces/default/";
    return { crd: created.body, plural, path: `/apis/${GROUP}/v1/${scope}${plural}` };
  }
  const object = (name: string, spec: unknown = {}) => ({
    apiVersion: `${GROUP}/v1`,
    metadata: { name },
    spec,
  });

  before(async () => {
    backend = new MemoryBackend();
    api = await serve(backend);
  });
  after(async () => {
    await api?.stop();
    await backend?.close();
  });

  it("serves the kind once the CRD's create returns, Established and with the cleanup finalizer", async () => {
    const { crd, plural, path } = await register();
    const conditions = (crd.status as { conditions: { type: string; status: string }[] })
      .conditions;
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status]),
      [
        ["NamesAccepted", "True"],
        ["Established", "True"],
      ],
    );
    assert.deepEqual(crd.metadata.finalizers, ["customresourcecleanup.apiextensions.k8s.io"]);
    assert.deepEqual((crd.status as { storedVersions: string[] }).storedVersions, ["v1"]);
    const discovery = await api.call("GET", `/apis/${GROUP}/v1`);
    assert.ok(discovery.body.resources?.some((r) => r.name === plural));
    assert.ok(discovery.body.resources?.some((r) => r.name === `${plural}/status`));
    const kind = (crd.spec as { names: { kind: string } }).names.kind;
    const made = await api.call("POST", path, { ...object("a"), kind });
    assert.equal(made.status, 201, made.body.message);
  });

  it("defaults and prunes objects by the version's schema, keeping preserved subtrees", async () => {
    const { crd, path } = await register();
    const kind = (crd.spec as { names: { kind: string } }).names.kind;
    const made = await api.call("POST", path, {
      ...object("d", { size: 5, unknown: "dropped", free: { anything: { goes: [1] } } }),
      kind,
      stray: "dropped too",
    });
    assert.equal(made.status, 201, made.body.message);
    assert.deepEqual(made.body.spec, { size: 5, mode: "fast", free: { anything: { goes: [1] } } });
    assert.equal((made.body as Record<string, unknown>).stray, undefined);
    const stored = await api.call("GET", `${path}/d`);
    assert.deepEqual(stored.body.spec, made.body.spec);
  });

  it("answers only the served versions, and a version once it is served", async () => {
    const { crd, plural, path } = await register();
    const kind = (crd.spec as { names: { kind: string } }).names.kind;
    await api.call("POST", path, { ...object("v"), kind });
    const beta = `/apis/${GROUP}/v1beta1/namespaces/default/${plural}`;
    assert.equal((await api.call("GET", beta)).status, 404);
    const current = (await api.call("GET", `${CRDS}/${plural}.${GROUP}`)).body;
    const spec = current.spec as { versions: { served: boolean }[] };
    spec.versions[1]!.served = true;
    const updated = await api.call("PUT", `${CRDS}/${plural}.${GROUP}`, current);
    assert.equal(updated.status, 200, updated.body.message);
    const listed = await api.call("GET", beta);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      (listed.body as unknown as { items: KubeObject[] }).items.map((o) => o.metadata.name),
      ["v"],
    );
    // Served no more: gone again.
    spec.versions[1]!.served = false;
    const again = await api.call("PUT", `${CRDS}/${plural}.${GROUP}`, {
      ...current,
      metadata: updated.body.metadata,
    });
    assert.equal(again.status, 200, again.body.message);
    assert.equal((await api.call("GET", beta)).status, 404);
  });

  it("keeps status out of the main resource and spec out of the status subresource", async () => {
    const { crd, path } = await register();
    const kind = (crd.spec as { names: { kind: string } }).names.kind;
    const made = (
      await api.call("POST", path, { ...object("s", { size: 2 }), kind, status: { ready: true } })
    ).body;
    assert.equal(made.status, undefined, "status is not set on create");
    assert.equal(made.metadata.generation, 1);
    const withStatus = await api.call("PUT", `${path}/s/status`, {
      ...made,
      spec: { size: 9 },
      status: { ready: true },
    });
    assert.equal(withStatus.status, 200, withStatus.body.message);
    assert.deepEqual(withStatus.body.status, { ready: true });
    assert.equal((withStatus.body.spec as { size: number }).size, 2, "spec ignored on /status");
    assert.equal(withStatus.body.metadata.generation, 1);
    const main = await api.call("PUT", `${path}/s`, {
      ...withStatus.body,
      spec: { size: 3 },
      status: { ready: false },
    });
    assert.equal(main.status, 200, main.body.message);
    assert.deepEqual(main.body.status, { ready: true }, "status ignored on the main resource");
    assert.equal((main.body.spec as { size: number }).size, 3);
    assert.equal(main.body.metadata.generation, 2);
  });

  it("serves a cluster-scoped kind without namespaces", async () => {
    const { crd, plural, path } = await register({ scope: "Cluster" });
    const kind = (crd.spec as { names: { kind: string } }).names.kind;
    const made = await api.call("POST", path, { ...object("c"), kind });
    assert.equal(made.status, 201, made.body.message);
    assert.equal(made.body.metadata.namespace, undefined);
    assert.equal((await api.call("GET", `${path}/c`)).status, 200);
    assert.equal(
      (await api.call("GET", `/apis/${GROUP}/v1/namespaces/default/${plural}/c`)).status,
      404,
    );
  });

  it("refuses a CRD whose name, storage versions or scope are wrong, with 422", async () => {
    const good = widgetCrd("refused");
    const cases: [string, unknown, RegExp][] = [
      [
        "name",
        { ...good, metadata: { name: "other.serving.example.com" } },
        /metadata.name: Invalid value.*must be spec.names.plural\+"."\+spec.group/,
      ],
      [
        "two storage versions",
        {
          ...good,
          spec: {
            ...good.spec,
            versions: good.spec.versions.map((v) => ({ ...v, storage: true })),
          },
        },
        /must have exactly one version marked as storage version/,
      ],
      [
        "scope",
        { ...good, spec: { ...good.spec, scope: "Global" } },
        /spec.scope: Unsupported value: "Global"/,
      ],
      [
        "group without a dot",
        {
          ...good,
          metadata: { name: "refused.example" },
          spec: { ...good.spec, group: "example" },
        },
        /should be a domain with at least one dot/,
      ],
    ];
    for (const [what, body, message] of cases) {
      const r = await api.call("POST", CRDS, body);
      assert.equal(r.status, 422, `${what}: ${r.body.message}`);
      assert.match(r.body.message ?? "", message, what);
    }
    assert.equal((await api.call("GET", `${CRDS}/refused.${GROUP}`)).status, 404);
  });

  it("refuses to change a CRD's group, plural or scope", async () => {
    const { plural } = await register();
    const current = (await api.call("GET", `${CRDS}/${plural}.${GROUP}`)).body;
    const spec = current.spec as { scope: string };
    const r = await api.call("PUT", `${CRDS}/${plural}.${GROUP}`, {
      ...current,
      spec: { ...spec, scope: "Cluster" },
    });
    assert.equal(r.status, 422);
    assert.match(r.body.message ?? "", /spec.scope: Forbidden: field is immutable/);
  });

  it("is followed by a second apiserver on the same store", async () => {
    const other = await serve(backend);
    try {
      const { crd, plural } = await register();
      const kind = (crd.spec as { names: { kind: string } }).names.kind;
      const path = `/apis/${GROUP}/v1/namespaces/default/${plural}`;
      // The other apiserver learns the CRD by its watch: wait for it with a deadline.
      const deadline = Date.now() + 5000;
      while ((await other.call("GET", path)).status !== 200) {
        assert.ok(Date.now() < deadline, "the second apiserver serves the kind");
        await new Promise((r) => setTimeout(r, 20));
      }
      const made = await other.call("POST", path, { ...object("o", { size: 4 }), kind });
      assert.equal(made.status, 201, made.body.message);
      assert.equal((await api.call("GET", `${path}/o`)).body.metadata.uid, made.body.metadata.uid);
    } finally {
      await other.stop();
    }
  });
});
