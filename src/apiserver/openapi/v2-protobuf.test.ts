import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allResources } from "../../../test/support/fixtures/openapi.js";
import { toText, WireReader, WireType } from "../protobuf/wire.js";
import { buildOpenApiDocuments } from "./openapi-index.js";
import { buildSwaggerDocument } from "./v2-document.js";
import { encodeSwaggerDocument } from "./v2-protobuf.js";

/** A decoded message: each field number's raw values (bytes or varints), in order. */
type Fields = Map<number, (Uint8Array | bigint)[]>;

/** Decodes with the repo's independent wire reader (the encoder shares no code with it). */
function fields(buf: Uint8Array): Fields {
  const r = new WireReader(buf);
  const out: Fields = new Map();
  while (!r.done) {
    const { field, wire } = r.tag();
    const v =
      wire === WireType.bytes ? r.bytes() : wire === WireType.varint ? r.varint() : undefined;
    if (v === undefined) r.skip(wire);
    else out.set(field, [...(out.get(field) ?? []), v]);
  }
  return out;
}

function bytesOf(m: Fields, field: number): Uint8Array[] {
  return (m.get(field) ?? []).filter((v): v is Uint8Array => v instanceof Uint8Array);
}
const one = (m: Fields, field: number): Fields => fields(bytesOf(m, field)[0] ?? new Uint8Array());
const str = (m: Fields, field: number): string | undefined => {
  const b = bytesOf(m, field)[0];
  return b === undefined ? undefined : toText(b);
};
/** Repeated `Named*` entries (name = 1, value = 2) as a map of name → value message. */
function named(m: Fields, field: number): Map<string, Fields> {
  return new Map(
    bytesOf(m, field).map((b) => {
      const entry = fields(b);
      return [str(entry, 1) ?? "", one(entry, 2)];
    }),
  );
}

const swagger = buildSwaggerDocument(buildOpenApiDocuments(allResources).documents.values());
const doc = fields(encodeSwaggerDocument(swagger));

describe("encodeSwaggerDocument (gnostic openapi.v2.Document)", () => {
  it("writes swagger, info and every definition by name", () => {
    assert.equal(str(doc, 1), "2.0");
    assert.equal(str(one(doc, 2), 1), "Kubernetes");
    const defs = named(one(doc, 9), 1);
    assert.deepEqual([...defs.keys()], Object.keys(swagger.definitions));
  });

  it("writes a schema's type, properties, required, refs and GVK extension", () => {
    const defs = named(one(doc, 9), 1);
    const cron = defs.get("com.example.stable.v1.CronTab")!;
    assert.equal(str(one(cron, 22), 1), "object");
    const props = named(one(cron, 25), 1);
    assert.equal(
      str(props.get("metadata")!, 1),
      "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    );
    const ext = named(cron, 31).get("x-kubernetes-group-version-kind")!;
    assert.deepEqual(JSON.parse(str(ext, 2)!), [
      { group: "stable.example.com", kind: "CronTab", version: "v1" },
    ]);
    const list = defs.get("io.k8s.api.core.v1.ConfigMapList")!;
    assert.deepEqual(bytesOf(list, 19).map(toText), ["items"]);
    const items = named(one(list, 25), 1).get("items")!;
    const itemSchema = one(one(items, 23), 1);
    assert.equal(str(itemSchema, 1), "#/definitions/io.k8s.api.core.v1.ConfigMap");
  });

  it("writes paths with operations, query/path/body parameters and responses", () => {
    const paths = named(one(doc, 8), 2);
    assert.deepEqual([...paths.keys()], Object.keys(swagger.paths));
    const item = paths.get("/api/v1/namespaces/{namespace}/configmaps/{name}")!;
    const put = one(item, 3);
    assert.equal(str(put, 5), "replaceCoreV1NamespacedConfigMap");
    assert.equal(JSON.parse(str(named(put, 13).get("x-kubernetes-action")!, 2)!), "put");
    const params = bytesOf(put, 8).map((b) => one(fields(b), 1));
    const body = one(params[0]!, 1);
    assert.equal(str(body, 3), "body");
    assert.equal(str(one(body, 5), 1), "#/definitions/io.k8s.api.core.v1.ConfigMap");
    const query = params.slice(1).map((p) => one(one(p, 2), 3));
    assert.ok(query.some((q) => str(q, 4) === "fieldValidation" && str(q, 6) === "string"));
    const pathParams = bytesOf(item, 9).map((b) => one(one(one(fields(b), 1), 2), 4));
    const name = pathParams.find((p) => str(p, 4) === "name")!;
    assert.equal(name.get(1)?.[0], 1n, "required");
    assert.equal(str(name, 5), "string");
    const ok = named(one(put, 9), 1).get("200")!;
    assert.equal(str(one(one(one(ok, 1), 2), 1), 1), "#/definitions/io.k8s.api.core.v1.ConfigMap");
  });
});
