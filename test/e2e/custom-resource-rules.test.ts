/**
 * CRD validation rules and the scale subresource over HTTP against an
 * in-process server: CEL rules on create and update (with defaults applied
 * first), refusal of CRDs whose rules do not compile, and GET/PUT/PATCH of
 * `/scale` as autoscaling/v1 Scale.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import YAML from "yaml";
import type { KubeObject } from "../../src/api/types.js";
import { REPO_ROOT } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WD = "/apis/rules.example.com/v1/namespaces/default/widgets";

function widgetCrd(): KubeObject {
  return YAML.parse(readFileSync(join(REPO_ROOT, "test/fixtures/widget-crd.yaml"), "utf8"));
}

function widget(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: "rules.example.com/v1",
    kind: "Widget",
    metadata: { name },
    spec,
  });
}

interface Reply {
  status: number;
  body: KubeObject & { message?: string; spec?: Record<string, unknown> };
}

describe("CRD validation rules and scale", () => {
  let s: InProcessServer;
  const req = (method: string, path: string, body?: unknown, type?: string) =>
    s.request(
      method,
      path,
      body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      type ? { "Content-Type": type } : {},
    ) as Promise<Reply & { text: string }>;

  before(async () => {
    s = await startInProcess();
    const r = await req("POST", CRDS, widgetCrd());
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await s?.stop();
  });

  it("applies defaults, then runs the rules", async () => {
    const created = await req("POST", WD, widget("a", { image: "nginx:1" }));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.spec, { image: "nginx:1", replicas: 1, mode: "Safe" });
    const tooMany = await req("POST", WD, widget("b", { image: "x", replicas: 11 }));
    assert.equal(tooMany.status, 422);
    assert.equal(
      tooMany.body.message,
      'Widget.rules.example.com "b" is invalid: spec: Invalid value: "object": replicas 11 needs mode Fast',
    );
    const tags = await req(
      "POST",
      WD,
      widget("c", { image: "x", tags: ["ok", "far-too-long-tag"] }),
    );
    assert.equal(tags.status, 422);
    assert.match(
      tags.body.message!,
      /spec\.tags: Invalid value: "array": tags must be at most 10 characters/,
    );
  });

  it("keeps spec.image immutable on update and patch", async () => {
    const current = (await req("GET", `${WD}/a`)).body;
    const put = await req("PUT", `${WD}/a`, {
      ...current,
      spec: { ...current.spec, image: "nginx:2" },
    });
    assert.equal(put.status, 422);
    assert.equal(
      put.body.message,
      'Widget.rules.example.com "a" is invalid: spec.image: Invalid value: "string": Value is immutable',
    );
    const patch = await req(
      "PATCH",
      `${WD}/a`,
      { spec: { image: "nginx:3" } },
      "application/merge-patch+json",
    );
    assert.equal(patch.status, 422);
    const same = await req(
      "PATCH",
      `${WD}/a`,
      { spec: { tags: ["t"] } },
      "application/merge-patch+json",
    );
    assert.equal(same.status, 200, same.text);
  });

  it("refuses a CRD whose rule does not compile, naming kube's path", async () => {
    const crd = widgetCrd();
    crd.metadata.name = "gadgets.rules.example.com";
    const spec = crd.spec as {
      names: Record<string, unknown>;
      versions: {
        schema: { openAPIV3Schema: { properties: { spec: Record<string, unknown> } } };
      }[];
    };
    spec.names = { plural: "gadgets", singular: "gadget", kind: "Gadget" };
    spec.versions[0]!.schema.openAPIV3Schema.properties.spec["x-kubernetes-validations"] = [
      { rule: "self.replicas >" },
    ];
    const r = await req("POST", CRDS, crd);
    assert.equal(r.status, 422, r.text);
    assert.match(
      r.body.message!,
      /^CustomResourceDefinition\.apiextensions\.k8s\.io "gadgets\.rules\.example\.com" is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.replicas >", .*\}: compilation failed: ERROR: <input>:1:\d+: Syntax error/,
    );
    const unknown = structuredClone(crd);
    (unknown.spec as typeof spec).versions[0]!.schema.openAPIV3Schema.properties.spec[
      "x-kubernetes-validations"
    ] = [{ rule: "self.replicaz > 1" }];
    const r2 = await req("POST", CRDS, unknown);
    assert.equal(r2.status, 422);
    assert.match(r2.body.message!, /undefined field 'replicaz'/);
  });

  it("serves the scale subresource as autoscaling/v1 Scale", async () => {
    await req("POST", WD, widget("s", { image: "x", replicas: 2 }));
    await req(
      "PATCH",
      `${WD}/s/status`,
      { status: { replicas: 2, selector: "app=s" } },
      "application/merge-patch+json",
    );
    const scale = await req("GET", `${WD}/s/scale`);
    assert.equal(scale.status, 200, scale.text);
    assert.equal(scale.body.apiVersion, "autoscaling/v1");
    assert.equal(scale.body.kind, "Scale");
    assert.deepEqual(scale.body.spec, { replicas: 2 });
    assert.deepEqual(scale.body.status, { replicas: 2, selector: "app=s" });

    const patched = await req(
      "PATCH",
      `${WD}/s/scale`,
      { spec: { replicas: 5 } },
      "application/merge-patch+json",
    );
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.spec, { replicas: 5 });
    const obj = (await req("GET", `${WD}/s`)).body;
    assert.equal(obj.spec?.replicas, 5);
    assert.equal(obj.metadata.generation, 2);

    const put = await req("PUT", `${WD}/s/scale`, { ...patched.body, spec: { replicas: 3 } });
    assert.equal(put.status, 200, put.text);
    assert.equal((await req("GET", `${WD}/s`)).body.spec?.replicas, 3);

    const stale = await req("PUT", `${WD}/s/scale`, { ...patched.body, spec: { replicas: 4 } });
    assert.equal(stale.status, 409);
    const negative = await req(
      "PATCH",
      `${WD}/s/scale`,
      { spec: { replicas: -1 } },
      "application/merge-patch+json",
    );
    assert.equal(negative.status, 422);
    assert.equal(
      negative.body.message,
      'Scale.autoscaling "s" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
    const rules = await req(
      "PATCH",
      `${WD}/s/scale`,
      { spec: { replicas: 20 } },
      "application/merge-patch+json",
    );
    assert.equal(rules.status, 422, "the kind's CEL rules apply to scale writes too");
    const missing = await req("GET", `${WD}/nope/scale`);
    assert.equal(missing.status, 404);
    const del = await req("DELETE", `${WD}/s/scale`);
    assert.equal(del.status, 405);
  });

  it("lists the scale subresource in discovery", async () => {
    const r = await s.request("GET", "/apis/rules.example.com/v1");
    const resources = (r.body as { resources: { name: string; kind: string }[] }).resources;
    assert.ok(resources.some((x) => x.name === "widgets/scale" && x.kind === "Scale"));
  });
});
