/** CRD defaulting. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/schema.js";
import { applyDefaults } from "./defaults.js";

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

describe("applyDefaults", () => {
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

  it("copies defaults and leaves the input alone", () => {
    const input = { spec: {} };
    const a = applyDefaults(input, schema) as {
      spec: { template: { labels: Record<string, string> } };
    };
    const b = applyDefaults(input, schema) as typeof a;
    a.spec.template.labels.a = "changed";
    assert.equal(b.spec.template.labels.a, "b");
    assert.deepEqual(input, { spec: {} });
  });
});
