/** Group-version documents, checked against what kubectl explain, its field-validation verifier and client-side apply read. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isDeepStrictEqual } from "node:util";
import { allResources, configMaps, cronTabs } from "../../../test/support/fixtures/openapi.js";
import type { Schema } from "../../api/index.js";
import { buildGroupVersionDocument } from "./document.js";
import type { OpenApiDocument, OpenApiOperation, OpenApiResource } from "./types.js";

const core = buildGroupVersionDocument("", "v1", allResources);
const custom = buildGroupVersionDocument("stable.example.com", "v1", allResources);
const OBJECT_META = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
const SMP = "application/strategic-merge-patch+json";

function operations(doc: OpenApiDocument): OpenApiOperation[] {
  return Object.values(doc.paths).flatMap((item) =>
    [item.get, item.put, item.post, item.delete, item.patch].filter(
      (op): op is OpenApiOperation => op !== undefined,
    ),
  );
}

/** kubectl explain (plaintext.tmpl): find the GVK on the resource's paths, then its component. */
function explainLookup(doc: OpenApiDocument, r: OpenApiResource): Schema | undefined {
  const prefix = r.group === "" ? "/api" : `/apis/${r.group}`;
  const searchPaths = [
    `${prefix}/${r.version}/${r.plural}`,
    `${prefix}/${r.version}/${r.plural}/{name}`,
    `${prefix}/${r.version}/namespaces/{namespace}/${r.plural}`,
    `${prefix}/${r.version}/namespaces/{namespace}/${r.plural}/{name}`,
  ];
  let gvk: unknown;
  for (const p of searchPaths) {
    const item = doc.paths[p];
    if (!item) continue;
    for (const op of [item.get, item.post, item.put, item.patch, item.delete]) {
      if (op && gvk === undefined) gvk = op["x-kubernetes-group-version-kind"];
    }
  }
  // Round-trip through JSON: the template compares decoded maps with DeepEqual.
  const decoded = JSON.parse(JSON.stringify(doc)) as OpenApiDocument;
  const target = JSON.parse(JSON.stringify(gvk)) as unknown;
  return Object.values(decoded.components.schemas).find((s) =>
    (s["x-kubernetes-group-version-kind"] ?? []).some((g) => isDeepStrictEqual(g, target)),
  );
}

function patchOpsFor(doc: OpenApiDocument, r: OpenApiResource): OpenApiOperation[] {
  return Object.values(doc.paths)
    .map((item) => item.patch)
    .filter((op): op is OpenApiOperation => {
      const g = op?.["x-kubernetes-group-version-kind"];
      return g?.group === r.group && g.version === r.version && g.kind === r.kind;
    });
}

describe("buildGroupVersionDocument", () => {
  it("is an OpenAPI 3.0 document titled like kube's", () => {
    assert.equal(core.openapi, "3.0.0");
    assert.deepEqual(core.info, { title: "Kubernetes", version: "v1.32.0" });
  });

  it("publishes collection, item and all-namespaces paths of a namespaced kind", () => {
    const base = "/api/v1/namespaces/{namespace}/configmaps";
    const collection = core.paths[base];
    const item = core.paths[`${base}/{name}`];
    assert.deepEqual(
      [collection?.get, collection?.post, collection?.delete].map(
        (o) => o?.["x-kubernetes-action"],
      ),
      ["list", "post", "deletecollection"],
    );
    assert.deepEqual(
      [item?.get, item?.put, item?.patch, item?.delete].map((o) => o?.["x-kubernetes-action"]),
      ["get", "put", "patch", "delete"],
    );
    assert.equal(core.paths["/api/v1/configmaps"]?.get?.["x-kubernetes-action"], "list");
    assert.equal(
      core.paths["/api/v1/configmaps"]?.get?.operationId,
      "listCoreV1ConfigMapForAllNamespaces",
    );
    assert.equal(item?.patch?.operationId, "patchCoreV1NamespacedConfigMap");
    assert.equal(collection?.delete?.operationId, "deleteCoreV1CollectionNamespacedConfigMap");
    assert.deepEqual(
      item?.parameters?.map((p) => `${p.in}:${p.name}`),
      ["path:name", "path:namespace", "query:pretty"],
    );
  });

  it("publishes cluster-scoped paths and the status subresource", () => {
    assert.ok(core.paths["/api/v1/namespaces"]?.post);
    assert.ok(core.paths["/api/v1/namespaces/{name}"]?.patch);
    const status = core.paths["/api/v1/namespaces/{name}/status"];
    assert.deepEqual(Object.keys(status ?? {}).sort(), ["get", "parameters", "patch", "put"]);
    assert.equal(status?.patch?.operationId, "patchCoreV1NamespaceStatus");
    assert.equal(status?.patch?.description, "partially update status of the specified Namespace");
  });

  it("publishes /scale with the autoscaling/v1 Scale GVK", () => {
    const scale =
      custom.paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale"];
    assert.deepEqual(scale?.get?.["x-kubernetes-group-version-kind"], {
      group: "autoscaling",
      kind: "Scale",
      version: "v1",
    });
    assert.ok(custom.components.schemas["io.k8s.api.autoscaling.v1.Scale"]);
    assert.equal(core.components.schemas["io.k8s.api.autoscaling.v1.Scale"], undefined);
  });

  it("puts a single-map GVK and an action on every operation", () => {
    for (const op of [...operations(core), ...operations(custom)]) {
      const gvk = op["x-kubernetes-group-version-kind"];
      assert.deepEqual(Object.keys(gvk).sort(), ["group", "kind", "version"]);
      assert.ok(op["x-kubernetes-action"]);
    }
  });

  it("lets kubectl find fieldValidation on every PATCH of a kind (server-side validation)", () => {
    for (const [doc, r] of [
      [core, configMaps],
      [custom, cronTabs],
    ] as const) {
      const patches = patchOpsFor(doc, r);
      assert.ok(patches.length >= 1);
      for (const op of patches) {
        const query = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
        for (const name of ["dryRun", "fieldManager", "fieldValidation", "force"]) {
          assert.ok(query.includes(name), `${op.operationId} has ${name}`);
        }
      }
    }
  });

  it("advertises strategic merge patch for built-in kinds only", () => {
    for (const op of patchOpsFor(core, configMaps)) {
      assert.deepEqual(Object.keys(op.requestBody?.content ?? {}).sort(), [
        "application/apply-patch+yaml",
        "application/json-patch+json",
        "application/merge-patch+json",
        SMP,
      ]);
    }
    for (const op of patchOpsFor(custom, cronTabs)) {
      const types = Object.keys(op.requestBody?.content ?? {});
      assert.equal(types.includes(SMP), false);
      assert.equal(types.length, 3);
    }
  });

  it("lets kubectl explain find each kind's component by GVK", () => {
    const cm = explainLookup(core, configMaps);
    assert.deepEqual(cm, core.components.schemas["io.k8s.api.core.v1.ConfigMap"]);
    assert.ok(cm?.properties?.data);
    const ct = explainLookup(custom, cronTabs);
    assert.equal(ct?.properties?.spec?.properties?.cronSpec?.type, "string");
  });

  it("references ObjectMeta the way kube does, with GVK lists on components", () => {
    const cm = core.components.schemas["io.k8s.api.core.v1.ConfigMap"];
    assert.deepEqual(cm?.properties?.metadata?.allOf, [{ $ref: OBJECT_META }]);
    assert.deepEqual(cm?.properties?.metadata?.default, {});
    assert.ok(cm?.properties?.metadata?.description);
    assert.deepEqual(cm?.["x-kubernetes-group-version-kind"], [
      { group: "", kind: "ConfigMap", version: "v1" },
    ]);
    const ct = custom.components.schemas["com.example.stable.v1.CronTab"];
    assert.deepEqual(ct?.properties?.metadata?.allOf, [{ $ref: OBJECT_META }]);
    const meta = core.components.schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"];
    assert.equal(meta?.properties?.finalizers?.["x-kubernetes-patch-strategy"], "merge");
    assert.equal(meta?.properties?.labels?.additionalProperties instanceof Object, true);
  });

  it("publishes list components and leaves no dangling $ref", () => {
    assert.ok(core.components.schemas["io.k8s.api.core.v1.ConfigMapList"]);
    const refs = JSON.stringify([core, custom]).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const name = JSON.parse(ref).slice("#/components/schemas/".length);
      const doc = name.startsWith("com.example") ? custom : core;
      assert.ok(
        doc.components.schemas[name] ?? custom.components.schemas[name],
        `${name} is defined`,
      );
    }
  });

  it("does not modify the input schema", () => {
    assert.equal(configMaps.schema.properties?.metadata?.allOf, undefined);
    assert.ok(configMaps.schema.properties?.metadata?.properties?.name);
  });

  it("ignores resources of other group-versions and is deterministic", () => {
    assert.equal(
      Object.keys(core.paths).some((p) => p.includes("crontabs")),
      false,
    );
    const again = buildGroupVersionDocument("", "v1", [...allResources].reverse());
    assert.equal(JSON.stringify(again), JSON.stringify(core));
  });
});
