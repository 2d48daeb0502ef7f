import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allResources } from "../../../test/support/fixtures/openapi.js";
import { buildOpenApiDocuments } from "./openapi-index.js";
import { buildSwaggerDocument } from "./v2-document.js";
import { toV2Schema } from "./v2-schema.js";

const v3 = buildOpenApiDocuments(allResources).documents;
const doc = buildSwaggerDocument(v3.values());

describe("toV2Schema", () => {
  it("moves refs to #/definitions and turns a single-$ref allOf into a $ref", () => {
    const out = toV2Schema({
      properties: {
        metadata: {
          allOf: [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }],
          default: {},
          description: "Standard object's metadata.",
        },
        items: { type: "array", items: { $ref: "#/components/schemas/a.b.v1.X" } },
      },
    });
    assert.deepEqual(out.properties?.metadata, {
      $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
      description: "Standard object's metadata.",
    });
    assert.equal(out.properties?.items?.items?.$ref, "#/definitions/a.b.v1.X");
  });

  it("drops what Swagger 2.0 cannot express: nullable (with the type), oneOf, anyOf, not", () => {
    const out = toV2Schema({
      type: "object",
      properties: {
        maybe: { type: "string", nullable: true },
        either: { type: "string", oneOf: [{ pattern: "a" }], anyOf: [{ pattern: "b" }] },
        never: { type: "string", not: { pattern: "c" } },
        port: { "x-kubernetes-int-or-string": true, type: "string" },
      },
    });
    assert.deepEqual(out.properties?.maybe, {});
    assert.deepEqual(out.properties?.either, { type: "string" });
    assert.deepEqual(out.properties?.never, { type: "string" });
    assert.deepEqual(out.properties?.port, { "x-kubernetes-int-or-string": true });
  });

  it("converts additionalProperties and leaves the input untouched", () => {
    const input = {
      type: "object" as const,
      additionalProperties: { type: "string" as const, nullable: true },
    };
    const copy = structuredClone(input);
    assert.deepEqual(toV2Schema(input).additionalProperties, {});
    assert.deepEqual(input, copy);
  });
});

describe("buildSwaggerDocument", () => {
  it("is Swagger 2.0 with every group-version's paths and kube's definition keys", () => {
    assert.equal(doc.swagger, "2.0");
    assert.ok(doc.paths["/api/v1/namespaces/{namespace}/configmaps/{name}"]);
    assert.ok(doc.paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs"]);
    assert.deepEqual(
      doc.definitions["com.example.stable.v1.CronTab"]?.["x-kubernetes-group-version-kind"],
      [{ group: "stable.example.com", kind: "CronTab", version: "v1" }],
    );
    assert.ok(doc.definitions["io.k8s.api.core.v1.ConfigMap"]);
    assert.ok(doc.definitions["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]);
    const keys = Object.keys(doc.definitions);
    assert.deepEqual(keys, [...keys].sort());
  });

  it("has no v3-only constructs left", () => {
    const text = JSON.stringify(doc);
    assert.doesNotMatch(text, /#\/components\/schemas\//);
    assert.doesNotMatch(text, /"requestBody"|"content"|"nullable"|"oneOf"|"anyOf"/);
  });

  it("turns a request body into a body parameter and lists a PATCH's content types", () => {
    const item = doc.paths["/api/v1/namespaces/{namespace}/configmaps/{name}"]!;
    const put = item.put!;
    const body = put.parameters?.find((p) => p.in === "body");
    assert.deepEqual(body, {
      in: "body",
      name: "body",
      required: true,
      schema: { $ref: "#/definitions/io.k8s.api.core.v1.ConfigMap" },
    });
    assert.deepEqual(put.consumes, ["*/*"]);
    assert.ok(item.patch!.consumes.includes("application/strategic-merge-patch+json"));
    const cron = doc.paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"]!;
    assert.ok(!cron.patch!.consumes.includes("application/strategic-merge-patch+json"));
    assert.deepEqual(put.responses["200"]?.schema, {
      $ref: "#/definitions/io.k8s.api.core.v1.ConfigMap",
    });
    assert.deepEqual(
      item.parameters?.find((p) => p.name === "name"),
      {
        description: "name of the ConfigMap",
        in: "path",
        name: "name",
        required: true,
        type: "string",
        uniqueItems: true,
      },
    );
    assert.equal(put["x-kubernetes-action"], "put");
    assert.deepEqual(put["x-kubernetes-group-version-kind"], {
      group: "",
      kind: "ConfigMap",
      version: "v1",
    });
  });
});
