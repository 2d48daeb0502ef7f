/**
 * What a CRD turns into: the served versions as ResourceTypes in kube's version
 * priority (unserved ones left out), their names, scope and subresources, printer
 * columns and selectable fields read by JSONPath, a `validate` only where rules
 * exist; and the JSONPath subset itself.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import {
  type CrdSpec,
  type CrdVersion,
  customResourceTypes,
  versionPriority,
} from "./custom-types.js";
import { evaluateJsonPath, jsonPathError } from "./json-path.js";

const schema: CrdVersion["schema"] = {
  openAPIV3Schema: {
    type: "object",
    properties: { spec: { type: "object", properties: { size: { type: "integer" } } } },
  },
};

function crd(versions: CrdVersion[], extra: Partial<CrdSpec> = {}): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      names: { plural: "widgets", kind: "Widget" },
      scope: "Namespaced",
      versions,
      ...extra,
    },
  };
}
const v = (name: string, more: Partial<CrdVersion> = {}): CrdVersion => ({
  name,
  served: true,
  storage: name === "v1",
  schema,
  ...more,
});

describe("versionPriority", () => {
  it("orders GA before beta before alpha, higher numbers first, the rest by name", () => {
    const shuffled = [
      "foo",
      "v1alpha1",
      "v2beta1",
      "v1",
      "v11alpha2",
      "v2",
      "v1beta1",
      "v10",
      "bar",
      "v10beta3",
      "v3beta1",
    ];
    assert.deepEqual([...shuffled].sort(versionPriority), [
      "v10",
      "v2",
      "v1",
      "v10beta3",
      "v3beta1",
      "v2beta1",
      "v1beta1",
      "v11alpha2",
      "v1alpha1",
      "bar",
      "foo",
    ]);
    assert.equal(versionPriority("v1", "v1"), 0);
  });
});

describe("customResourceTypes", () => {
  it("serves only the served versions, in priority order, with the CRD's names and defaults", () => {
    const types = customResourceTypes(
      crd([v("v1beta1"), v("v1"), v("v2alpha1", { served: false }), v("v2")]),
    );
    assert.deepEqual(
      types.map((t) => t.version),
      ["v2", "v1", "v1beta1"],
    );
    for (const t of types) {
      assert.equal(t.group, "example.com");
      assert.equal(t.kind, "Widget");
      assert.equal(t.listKind, "WidgetList");
      assert.equal(t.singular, "widget");
      assert.equal(t.plural, "widgets");
      assert.equal(t.namespaced, true);
      assert.deepEqual(t.shortNames, []);
      assert.equal(t.status, false);
      assert.equal(t.scale, undefined);
      assert.equal(t.validate, undefined, "no rules, no validate");
      assert.equal(t.strategicMergePatch, false);
    }
    assert.deepEqual(customResourceTypes(crd([v("v1", { served: false })])), []);
  });

  it("takes given names, cluster scope and the status and scale subresources", () => {
    const scale = { specReplicasPath: ".spec.size", statusReplicasPath: ".status.size" };
    const [t] = customResourceTypes(
      crd([v("v1", { subresources: { status: {}, scale } })], {
        scope: "Cluster",
        names: {
          plural: "widgets",
          kind: "Widget",
          singular: "wid",
          listKind: "Widgets",
          shortNames: ["wd"],
          categories: ["all"],
        },
      }),
    );
    assert.equal(t!.namespaced, false);
    assert.equal(t!.singular, "wid");
    assert.equal(t!.listKind, "Widgets");
    assert.deepEqual(t!.shortNames, ["wd"]);
    assert.deepEqual(t!.categories, ["all"]);
    assert.equal(t!.status, true);
    assert.deepEqual(t!.scale, scale);
    assert.ok(t!.subresourceHandlers?.scale);
  });

  it("wraps each version's schema in the object envelope, or preserves unknown fields without one", () => {
    const [withSchema, without] = customResourceTypes(
      crd([v("v2"), v("v1", { schema: undefined })]),
    );
    const props = (withSchema!.schema as { properties: Record<string, unknown> }).properties;
    assert.ok(props.metadata && props.apiVersion && props.kind && props.spec);
    assert.equal(
      (without!.schema as Record<string, unknown>)["x-kubernetes-preserve-unknown-fields"],
      true,
    );
  });

  it("runs a version's CEL rules as its validate", () => {
    const ruled: CrdVersion = v("v1", {
      schema: {
        openAPIV3Schema: {
          type: "object",
          properties: {
            spec: {
              type: "object",
              properties: { size: { type: "integer" } },
              "x-kubernetes-validations": [{ rule: "self.size <= 3", message: "too big" }],
            },
          },
        },
      },
    });
    const [t] = customResourceTypes(crd([ruled]));
    const obj = (size: number): KubeObject => ({
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w" },
      spec: { size },
    });
    assert.deepEqual(t!.validate!(obj(2), undefined), []);
    const errors = t!.validate!(obj(5), undefined);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.field, "spec");
    assert.match(errors[0]!.detail, /too big/);
  });

  it("renders printer columns and selectable fields by JSONPath", () => {
    const [t] = customResourceTypes(
      crd([
        v("v1", {
          additionalPrinterColumns: [
            { name: "Size", type: "integer", jsonPath: ".spec.size", priority: 1 },
            { name: "Ports", type: "string", jsonPath: ".spec.ports[*].port" },
            {
              name: "Ready",
              type: "string",
              jsonPath: '.status.conditions[?(@.type=="Ready")].status',
            },
            { name: "Spec", type: "string", jsonPath: ".spec.nested" },
            { name: "Missing", type: "string", jsonPath: ".spec.none" },
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
          ],
          selectableFields: [{ jsonPath: ".spec.color" }, { jsonPath: ".spec.none" }],
        }),
      ]),
    );
    const obj: KubeObject = {
      apiVersion: "example.com/v1",
      kind: "Widget",
      metadata: { name: "w", creationTimestamp: new Date(Date.now() - 3 * 3600_000).toISOString() },
      spec: { size: 3, ports: [{ port: 80 }, { port: 443 }], nested: { a: 1 }, color: "red" },
      status: {
        conditions: [
          { type: "Synced", status: "False" },
          { type: "Ready", status: "True" },
        ],
      },
    };
    const cells = t!.columns!.map((c) => c.cell(obj));
    assert.deepEqual(cells, [3, "80,443", "True", '{"a":1}', null, "3h"]);
    assert.deepEqual(
      t!.columns!.map((c) => [c.name, c.type, c.priority]),
      [
        ["Size", "integer", 1],
        ["Ports", "string", 0],
        ["Ready", "string", 0],
        ["Spec", "string", 0],
        ["Missing", "string", 0],
        ["Age", "date", 0],
      ],
    );
    assert.deepEqual(t!.selectableFields!(obj), { "spec.color": "red", "spec.none": "" });
  });
});

describe("the printer-column JSONPath subset", () => {
  const doc = {
    a: { b: [{ c: 1, t: "x" }, { c: 2, t: "y" }, { t: "x" }], "d-e": "dash", $s: "dollar" },
    n: null,
  };
  const cases: [string, unknown[]][] = [
    [".a.b[0].c", [1]],
    ["{.a.b[1].c}", [2]],
    ["$.a.b[*].c", [1, 2]],
    ['.a.b[?(@.t=="x")].c', [1]],
    [".a.b[?(@.t=='y')]", [{ c: 2, t: "y" }]],
    [".a['d-e']", ["dash"]],
    [".a.d-e", ["dash"]],
    [".a.$s", ["dollar"]],
    [".a.b[9].c", []],
    [".n.x", []],
    [".a.b.c", []],
    [".a[0]", []],
  ];
  for (const [path, expected] of cases) {
    it(`reads ${path}`, () => {
      assert.deepEqual(evaluateJsonPath(path, doc), expected);
      assert.equal(jsonPathError(path), undefined);
    });
  }

  it("refuses paths outside the subset, naming where", () => {
    for (const bad of [".a..b", "a.b", ".a[", ".a[-1]", ".a[?(@.t>1)]", ".a b"]) {
      assert.match(jsonPathError(bad) ?? "", /^unsupported JSONPath .* at \d+$/, bad);
      assert.throws(() => evaluateJsonPath(bad, doc), /unsupported JSONPath/);
    }
  });
});
