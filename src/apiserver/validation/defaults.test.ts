/** CRD defaulting. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import { defaultInPlace } from "./defaults.js";

const schema: Schema = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      default: {},
      properties: {
        replicas: { type: "integer", default: 1 },
        mode: { type: "string", default: "auto" },
        note: { type: "string", nullable: true, default: "n" },
        template: { type: "object", default: { labels: { a: "b" } } },
        ports: {
          type: "array",
          items: {
            type: "object",
            properties: { protocol: { type: "string", default: "TCP" } },
          },
        },
        byName: {
          type: "object",
          additionalProperties: {
            type: "object",
            properties: { weight: { type: "integer", default: 10 } },
          },
        },
      },
    },
  },
};

/** Defaults `obj` in place and returns it. */
function applyDefaults<T>(obj: T, s: Schema): T {
  defaultInPlace(obj, s);
  return obj;
}

describe("defaultInPlace", () => {
  it("fills absent fields, including a defaulted parent's children", () => {
    assert.deepEqual(applyDefaults({}, schema), {
      spec: { replicas: 1, mode: "auto", note: "n", template: { labels: { a: "b" } } },
    });
  });

  it("keeps given values and replaces non-nullable nulls only", () => {
    const out = applyDefaults({ spec: { replicas: 3, mode: null, note: null } }, schema);
    assert.deepEqual(out.spec, {
      replicas: 3,
      mode: "auto",
      note: null,
      template: { labels: { a: "b" } },
    });
  });

  it("defaults inside list items and map values", () => {
    const out = applyDefaults(
      { spec: { ports: [{}, { protocol: "UDP" }], byName: { a: {}, b: { weight: 1 } } } },
      schema,
    );
    assert.deepEqual(out.spec.ports, [{ protocol: "TCP" }, { protocol: "UDP" }]);
    assert.deepEqual(out.spec.byName, { a: { weight: 10 }, b: { weight: 1 } });
  });

  it("puts a copy of the default in each object", () => {
    const a = applyDefaults({ spec: {} }, schema) as {
      spec: { template: { labels: Record<string, string> } };
    };
    const b = applyDefaults({ spec: {} }, schema) as typeof a;
    a.spec.template.labels.a = "changed";
    assert.equal(b.spec.template.labels.a, "b");
    assert.deepEqual(schema.properties?.spec?.properties?.template?.default, {
      labels: { a: "b" },
    });
  });

  it("finds a default deep below nodes that declare none", () => {
    const deep: Schema = {
      type: "object",
      properties: {
        plain: { type: "string" },
        spec: {
          type: "object",
          properties: {
            groups: {
              type: "object",
              additionalProperties: {
                type: "array",
                items: {
                  type: "object",
                  properties: { policy: { type: "string", default: "Retain" } },
                },
              },
            },
          },
        },
      },
    };
    const first = applyDefaults(
      { plain: "x", spec: { groups: { a: [{}, { policy: "Delete" }] } } },
      deep,
    );
    assert.deepEqual(first.spec.groups.a, [{ policy: "Retain" }, { policy: "Delete" }]);
    // The second object takes the cached answer for the same schema nodes.
    const second = applyDefaults({ spec: { groups: { b: [{}] } } }, deep);
    assert.deepEqual(second, { spec: { groups: { b: [{ policy: "Retain" }] } } });
  });

  it("leaves objects alone where the schema has no default", () => {
    const none: Schema = {
      type: "object",
      properties: { spec: { type: "object", properties: { a: { type: "string" } } } },
      additionalProperties: { type: "object" },
    };
    const obj = { spec: { a: null }, other: { b: null } };
    assert.deepEqual(applyDefaults(obj, none), { spec: { a: null }, other: { b: null } });
  });

  it("replaces null list items and map values by their default", () => {
    const s: Schema = {
      type: "object",
      properties: {
        list: { type: "array", items: { type: "string", default: "d" } },
        map: { type: "object", additionalProperties: { type: "integer", default: 7 } },
      },
    };
    assert.deepEqual(applyDefaults({ list: ["a", null], map: { x: null, y: 1 } }, s), {
      list: ["a", "d"],
      map: { x: 7, y: 1 },
    });
  });

  it("handles a schema that contains itself", () => {
    const node: Schema = { type: "object", properties: { n: { type: "integer", default: 1 } } };
    node.properties!.child = node;
    assert.deepEqual(applyDefaults({ child: { child: {} } }, node), {
      child: { child: { n: 1 }, n: 1 },
      n: 1,
    });
  });
});
