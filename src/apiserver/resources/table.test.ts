/**
 * Table rendering (`meta.k8s.io/v1` Table) as `kubectl get` reads it: kube's
 * HumanDuration for AGE, the NAME…AGE column frame (own columns replace it), the
 * row object in each `includeObject` mode, headers only when asked, and the
 * list metadata carried over.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { builtinTypes } from "./builtin.js";
import { builtinType, type ResourceType } from "./resource-type.js";
import { age, humanDuration, toTable } from "./table.js";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe("humanDuration", () => {
  const cases: [number, string][] = [
    [-5 * S, "0s"],
    [0, "0s"],
    [999, "0s"],
    [45 * S, "45s"],
    [119 * S, "119s"],
    [2 * M, "2m"],
    [5 * M + 30 * S, "5m30s"],
    [9 * M + 59 * S, "9m59s"],
    [10 * M + 30 * S, "10m"],
    [179 * M, "179m"],
    [3 * H, "3h"],
    [3 * H + 20 * M, "3h20m"],
    [7 * H + 59 * M, "7h59m"],
    [8 * H + 30 * M, "8h"],
    [47 * H, "47h"],
    [2 * D, "2d"],
    [2 * D + 5 * H, "2d5h"],
    [7 * D + 23 * H, "7d23h"],
    [8 * D + 5 * H, "8d"],
    [400 * D, "400d"],
    [2 * Y, "2y"],
    [3 * Y + 100 * D, "3y100d"],
    [7 * Y + 364 * D, "7y364d"],
    [8 * Y + 100 * D, "8y"],
    [30 * Y, "30y"],
  ];
  for (const [ms, want] of cases)
    it(`renders ${ms} ms as ${want}`, () => assert.equal(humanDuration(ms), want));
});

describe("age", () => {
  it("is <unknown> without a timestamp and counts from the given now otherwise", () => {
    assert.equal(age(undefined), "<unknown>");
    assert.equal(age(""), "<unknown>");
    const now = Date.parse("2026-01-10T12:00:00Z");
    assert.equal(age("2026-01-10T11:57:00Z", now), "3m");
    assert.equal(age("2026-01-08T12:00:00Z", now), "2d");
  });
});

const byKind = (kind: string, group = ""): ResourceType => {
  const t = builtinTypes().find((x) => x.kind === kind && x.group === group);
  assert.ok(t, `no built-in kind ${group}/${kind}`);
  return t;
};

const obj = (name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  ...extra,
  metadata: {
    name,
    namespace: "ns",
    creationTimestamp: new Date(Date.now() - 3 * H).toISOString(),
    managedFields: [
      {
        manager: "kubectl",
        operation: "Update",
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: {},
      },
    ],
    ...(extra.metadata ?? {}),
  },
});

const headers = (table: Record<string, unknown>) =>
  (table.columnDefinitions as { name: string }[]).map((c) => c.name);
const rows = (table: Record<string, unknown>) =>
  table.rows as { cells: unknown[]; object?: KubeObject }[];

describe("toTable", () => {
  it("frames a kind's columns with NAME first and AGE last", () => {
    const table = toTable(byKind("ConfigMap"), [obj("a", { data: { x: "1", y: "2" } })], {
      includeObject: "None",
      withHeaders: true,
    });
    assert.equal(table.kind, "Table");
    assert.equal(table.apiVersion, "meta.k8s.io/v1");
    assert.deepEqual(headers(table), ["Name", "Data", "Age"]);
    assert.deepEqual(rows(table)[0]!.cells, ["a", 2, "3h"]);
    const defs = table.columnDefinitions as Record<string, unknown>[];
    assert.deepEqual(defs[0], {
      name: "Name",
      type: "string",
      format: "name",
      description: "Name must be unique within a namespace.",
      priority: 0,
    });
    assert.equal(defs[1]!.format, "", "an unset format is an empty string");
  });

  it("does not add a second AGE when the kind places its own", () => {
    const table = toTable(byKind("Node"), [], { includeObject: "None", withHeaders: true });
    const names = headers(table);
    assert.equal(names.filter((n) => n === "Age").length, 1);
    assert.deepEqual(names.slice(0, 4), ["Name", "Status", "Roles", "Age"]);
    assert.equal(names.at(-1), "Container-Runtime");
  });

  it("takes own columns as the whole table", () => {
    const t = builtinType({
      group: "x",
      version: "v1",
      kind: "Thing",
      plural: "things",
      singular: "thing",
      ownColumns: true,
      columns: [{ name: "Only", type: "string", cell: (o) => `=${o.metadata.name}` }],
    });
    const table = toTable(t, [obj("b")], { includeObject: "None", withHeaders: true });
    assert.deepEqual(headers(table), ["Only"]);
    assert.deepEqual(rows(table)[0]!.cells, ["=b"]);
  });

  it("turns an undefined cell into null and renders a missing timestamp as <unknown>", () => {
    const t = builtinType({
      group: "x",
      version: "v1",
      kind: "Thing",
      plural: "things",
      singular: "thing",
      columns: [{ name: "Maybe", type: "string", cell: () => undefined }],
    });
    const o: KubeObject = { apiVersion: "x/v1", kind: "Thing", metadata: { name: "c" } };
    const table = toTable(t, [o], { includeObject: "None", withHeaders: false });
    assert.deepEqual(rows(table)[0]!.cells, ["c", null, "<unknown>"]);
  });

  it("sends no column definitions when headers are not wanted (later watch events)", () => {
    const table = toTable(byKind("ConfigMap"), [obj("a")], {
      includeObject: "None",
      withHeaders: false,
    });
    assert.deepEqual(table.columnDefinitions, []);
    assert.equal(rows(table)[0]!.cells.length, 3);
  });

  it("carries the object in each includeObject mode", () => {
    const o = obj("a", { data: { k: "v" } });
    const none = rows(
      toTable(byKind("ConfigMap"), [o], { includeObject: "None", withHeaders: false }),
    );
    assert.equal("object" in none[0]!, false);

    const whole = rows(
      toTable(byKind("ConfigMap"), [o], { includeObject: "Object", withHeaders: false }),
    );
    assert.deepEqual(whole[0]!.object, o);

    const meta = rows(
      toTable(byKind("ConfigMap"), [o], { includeObject: "Metadata", withHeaders: false }),
    )[0]!.object!;
    assert.equal(meta.kind, "PartialObjectMetadata");
    assert.equal(meta.apiVersion, "meta.k8s.io/v1");
    assert.equal(meta.metadata.name, "a");
    assert.equal(meta.metadata.namespace, "ns");
    assert.equal(meta.metadata.managedFields, undefined, "managedFields are left out");
    assert.equal((meta as Record<string, unknown>).data, undefined);
    assert.ok(o.metadata.managedFields, "the stored object is not changed");
  });

  it("carries resourceVersion, continue and remainingItemCount (also 0) into metadata", () => {
    const t = byKind("ConfigMap");
    const base = { includeObject: "None" as const, withHeaders: false };
    assert.deepEqual(toTable(t, [], base).metadata, {});
    assert.deepEqual(
      toTable(t, [], { ...base, resourceVersion: "42", continue: "tok", remainingItemCount: 0 })
        .metadata,
      { resourceVersion: "42", continue: "tok", remainingItemCount: 0 },
    );
  });

  it("gives one row per object, in order", () => {
    const table = toTable(byKind("ConfigMap"), [obj("x"), obj("y"), obj("z")], {
      includeObject: "None",
      withHeaders: false,
    });
    assert.deepEqual(
      rows(table).map((r) => r.cells[0]),
      ["x", "y", "z"],
    );
  });
});
