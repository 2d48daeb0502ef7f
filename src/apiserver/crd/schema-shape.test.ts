/**
 * The shape check of a CRD's schemas, before anything walks them: a non-object
 * where a schema belongs is kube's 400 decode error naming the Go field, a null
 * one is a 422 `type: Required value` at its path, and well-shaped schemas of
 * every nesting pass.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BadRequestError, fieldErrorMessage } from "../../api/index.js";
import { schemaShapeErrors } from "./schema-shape.js";

const ROOT = "spec.versions[0].schema.openAPIV3Schema";
const versions = (openAPIV3Schema: unknown) => [{ name: "v1", schema: { openAPIV3Schema } }];
const obj = (extra: Record<string, unknown>) => ({ type: "object", ...extra });

describe("schemaShapeErrors", () => {
  it("passes well-shaped schemas at every nesting, and versions without one", () => {
    const schema = obj({
      properties: {
        a: { type: "array", items: obj({ properties: { b: { type: "string" } } }) },
        m: obj({ additionalProperties: { type: "integer" } }),
        free: obj({ additionalProperties: true }),
        tuple: { type: "array", items: [{ type: "string" }, { type: "integer" }] },
        either: { anyOf: [{ type: "string" }, { type: "integer" }], not: { type: "boolean" } },
      },
      patternProperties: { "^x-": { type: "string" } },
      allOf: [obj({})],
    });
    assert.deepEqual(schemaShapeErrors(versions(schema)), []);
    assert.deepEqual(schemaShapeErrors([{ name: "v1" }, { name: "v2", schema: null }, "junk"]), []);
    assert.deepEqual(schemaShapeErrors(undefined), []);
    // A null root decodes as no schema at all.
    assert.deepEqual(schemaShapeErrors(versions(null)), []);
  });

  const nulls: [string, unknown, string][] = [
    ["a property", obj({ properties: { a: null } }), `${ROOT}.properties[a].type`],
    ["items", { type: "array", items: null }, `${ROOT}.items.type`],
    ["a tuple item", { type: "array", items: [{ type: "string" }, null] }, `${ROOT}.items[1].type`],
    ["an anyOf entry", obj({ anyOf: [null] }), `${ROOT}.anyOf[0].type`],
    [
      "additionalProperties",
      obj({ additionalProperties: null }),
      `${ROOT}.additionalProperties.type`,
    ],
    [
      "a deep property",
      obj({ properties: { a: obj({ properties: { b: null } }) } }),
      `${ROOT}.properties[a].properties[b].type`,
    ],
  ];
  for (const [where, schema, field] of nulls) {
    it(`reports a null schema at ${where} as a required type`, () => {
      const errors = schemaShapeErrors(versions(schema));
      assert.deepEqual(
        errors.map((e) => [e.reason, e.field]),
        [["FieldValueRequired", field]],
      );
      assert.match(
        fieldErrorMessage(errors[0]!),
        /Required value: must not be empty for specified object fields/,
      );
    });
  }

  const undecodable: [string, unknown, RegExp][] = [
    [
      "a string root",
      "object",
      /cannot unmarshal string into Go struct field JSONSchemaProps.openAPIV3Schema/,
    ],
    [
      "a number property",
      obj({ properties: { a: 5 } }),
      /cannot unmarshal number into Go struct field JSONSchemaProps.properties/,
    ],
    [
      "an array properties map",
      obj({ properties: [] }),
      /cannot unmarshal array into Go struct field JSONSchemaProps.properties/,
    ],
    [
      "a boolean item",
      { type: "array", items: true },
      /cannot unmarshal bool into Go struct field JSONSchemaProps.items/,
    ],
    [
      "an object allOf",
      obj({ allOf: {} }),
      /cannot unmarshal object into Go struct field JSONSchemaProps.allOf/,
    ],
    [
      "a string not",
      obj({ not: "x" }),
      /cannot unmarshal string into Go struct field JSONSchemaProps.not/,
    ],
  ];
  for (const [what, schema, message] of undecodable) {
    it(`refuses ${what} as a decode error`, () => {
      const error = (() => {
        try {
          schemaShapeErrors(versions(schema));
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      assert.ok(error instanceof BadRequestError, `${what}: ${String(error)}`);
      assert.equal(error.code, 400);
      assert.match(
        error.message,
        /^CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: /,
      );
      assert.match(error.message, message);
    });
  }

  it("refuses a schema holder that is not an object", () => {
    assert.throws(
      () => schemaShapeErrors([{ name: "v1", schema: "x" }]),
      /cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.schema/,
    );
  });
});
