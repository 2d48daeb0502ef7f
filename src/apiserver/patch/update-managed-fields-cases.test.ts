/**
 * updateManagedFields on varied objects and write sequences, against the entries
 * the implementation recorded before it stopped deep-copying objects and started
 * sharing field-set nodes: a ConfigMap, a Pod-like workload with map lists and
 * sets, lists with duplicate or unkeyable items, a custom resource with atomic
 * maps and lists, a two-key map list with a defaulted key and unknown fields, an
 * untyped object, subresource writes, edits, removals, and requests that carry
 * managedFields of their own. Entry order and FieldsV1 key order count.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { configMapSchema, workloadSchema } from "../../../test/support/fixtures/patch.js";
import type { KubeObject, ManagedFieldsEntry, Schema } from "../../api/index.js";
import { type UpdateManagedFieldsArgs, updateManagedFields } from "./update-managed-fields.js";

const str: Schema = { type: "string" };
const int: Schema = { type: "integer" };

const widgetSchema: Schema = {
  type: "object",
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: "object" },
    spec: {
      type: "object",
      properties: {
        atomicMap: { type: "object", additionalProperties: str, "x-kubernetes-map-type": "atomic" },
        atomicList: {
          type: "array",
          items: { type: "object", properties: { a: str } },
          "x-kubernetes-list-type": "atomic",
        },
        backends: {
          type: "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["port", "name"],
          items: {
            type: "object",
            properties: {
              name: str,
              port: { type: "integer", default: 80 },
              weight: int,
              options: { type: "object", additionalProperties: str },
            },
          },
        },
        ids: { type: "array", items: int, "x-kubernetes-list-type": "set" },
        free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        inner: { type: "object", properties: { x: str, y: { type: "object", properties: {} } } },
        nothing: { type: "string", nullable: true },
      },
    },
    status: { type: "object", properties: { ready: { type: "boolean" } } },
  },
};

const T = (minute: number) => `2024-05-01T10:${String(minute).padStart(2, "0")}:00Z`;

const meta = (name: string, extra: Record<string, unknown> = {}): KubeObject["metadata"] => ({
  name,
  namespace: "default",
  uid: "u-1",
  resourceVersion: "7",
  creationTimestamp: T(0),
  generation: 1,
  ...extra,
});

const configMap: KubeObject = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: meta("c", {
    labels: { app: "web", tier: "1" },
    annotations: { note: "x" },
    finalizers: ["b.io/y", "a.io/x"],
    ownerReferences: [{ apiVersion: "v1", kind: "Tenant", name: "t", uid: "u1", controller: true }],
  }),
  data: { b: "2", a: "1", "": "empty key", "10": "numeric key" },
  binaryData: { bin: "AAE=" },
  immutable: false,
};

const workload: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Workload",
  metadata: meta("w", { labels: { app: "web" } }),
  spec: {
    replicas: 2,
    paused: false,
    selector: { app: "web" },
    strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1 } },
    containers: [
      {
        name: "app",
        image: "app:1",
        args: ["--a", "--b"],
        ports: [{ containerPort: 80 }, { containerPort: 53, protocol: "UDP", name: "dns" }],
        env: [{ name: "A", value: "1" }, { name: "B" }],
      },
      { name: "side", image: "side:1" },
    ],
    volumes: [
      { name: "data", emptyDir: {} },
      { name: "host", hostPath: { path: "/x" } },
    ],
    tags: ["b", "a", 3, true],
    args: [],
  },
};

const irregular: KubeObject = {
  apiVersion: "apps/v1",
  kind: "Workload",
  metadata: meta("odd"),
  spec: {
    containers: [
      {
        name: "app",
        ports: [null, { containerPort: 1 }],
        env: [{ name: "A", value: "1" }, { name: "A", value: "2" }, { name: "B" }],
      },
    ],
    tags: ["a", "a", "b"],
    strategy: null,
    selector: {},
  },
};

const widget: KubeObject = {
  apiVersion: "example.com/v1",
  kind: "Widget",
  metadata: meta("x", { labels: { a: "b" } }),
  spec: {
    atomicMap: { a: "1", b: "2" },
    atomicList: [{ a: "x" }],
    backends: [
      { name: "a", port: 81, weight: 1, options: { o: "1" } },
      { name: "b", weight: 2 },
      { name: "a", port: 80 },
    ],
    ids: [3, 1, 2],
    free: { nested: { deep: [1, { x: 1 }] }, flag: true, e: {}, n: null },
    inner: { y: {} },
    nothing: null,
  },
  status: { ready: true },
};

function write(
  old: KubeObject | undefined,
  updated: KubeObject,
  manager: string,
  now: string,
  schema: Schema | undefined,
  extra: Partial<UpdateManagedFieldsArgs> = {},
): KubeObject {
  return updateManagedFields({
    old,
    updated,
    manager,
    operation: "Update",
    schema,
    apiVersion: String(updated.apiVersion),
    now,
    ...extra,
  });
}

/** What the edits below touch. */
interface Editable {
  metadata: { labels: Record<string, string>; managedFields?: unknown[] };
  data: Record<string, string>;
  spec: {
    replicas?: number;
    selector?: Record<string, string>;
    volumes?: unknown[];
    tags: unknown[];
    containers: { image?: string; ports: unknown[]; env: unknown[] }[];
  };
}

/** The stored object sent back with changes, as `kubectl edit` or a PUT would send it. */
function edit(obj: KubeObject, change: (o: Editable) => void): KubeObject {
  const next = structuredClone(obj);
  change(next as unknown as Editable);
  return next;
}

/** Every step of the cases below, in order: name, the request's object, the result. */
function run(): [string, KubeObject, KubeObject][] {
  const steps: [string, KubeObject, KubeObject][] = [];
  const step = (name: string, updated: KubeObject, result: (u: KubeObject) => KubeObject) => {
    const out = result(structuredClone(updated));
    steps.push([name, updated, out]);
    return out;
  };
  const cm = step("ConfigMap create", configMap, (u) =>
    write(undefined, u, "kubectl-create", T(1), configMapSchema),
  );
  let w = step("workload create", workload, (u) =>
    write(undefined, u, "kubectl-create", T(1), workloadSchema),
  );
  step("irregular lists create", irregular, (u) => write(undefined, u, "", T(1), workloadSchema));
  step("custom resource create", widget, (u) =>
    write(undefined, u, "kubectl-create", T(1), widgetSchema),
  );
  step("untyped create", widget, (u) => write(undefined, u, "untyped", T(1), undefined));
  step("status subresource create", widget, (u) =>
    write(undefined, u, "ctrl", T(1), widgetSchema, { subresource: "status" }),
  );
  const edited = edit(w, (o) => {
    const app = o.spec.containers[0]!;
    app.image = "app:2";
    app.ports.pop();
    app.env.push({ name: "C", value: "3" });
    o.metadata.labels.app = "api";
    o.metadata.labels.extra = "1";
    o.spec.tags.push("c");
  });
  const before = w;
  w = step("workload edit", edited, (u) => write(before, u, "kubectl-edit", T(2), workloadSchema));
  const scaled = edit(w, (o) => {
    o.spec.replicas = 5;
    o.metadata.managedFields = [];
  });
  const beforeScale = w;
  w = step("workload scale", scaled, (u) =>
    write(beforeScale, u, "scaler", T(3), workloadSchema, { subresource: "scale" }),
  );
  const trimmed = edit(w, (o) => {
    delete o.spec.volumes;
    o.spec.selector = { app: "api" };
    o.spec.containers.pop();
    delete o.metadata.labels.extra;
  });
  const beforeTrim = w;
  w = step("workload removals", trimmed, (u) =>
    write(beforeTrim, u, "kubectl-create", T(4), workloadSchema),
  );
  const beforeNoop = w;
  step(
    "workload unchanged by another writer",
    edit(w, () => {}),
    (u) => write(beforeNoop, u, "someone", T(5), workloadSchema),
  );
  const imported = edit(cm, (o) => {
    o.data.a = "changed";
    o.metadata.managedFields = [
      {
        manager: "importer",
        operation: "Update",
        apiVersion: "v1",
        time: T(0),
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:data": { "f:a": {}, "f:b": {} },
          "f:metadata": { "f:labels": { "f:tier": {} } },
        },
      },
      {
        manager: "applier",
        operation: "Apply",
        apiVersion: "v1",
        time: T(0),
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": { "f:b": {} }, "f:immutable": {} },
      },
    ];
  });
  const c = step("request names other managers", imported, (u) =>
    write(cm, u, "kubectl-edit", T(6), configMapSchema),
  );
  const broken = edit(c, (o) => {
    o.data.b = "changed";
    delete o.metadata.labels.tier;
    o.metadata.managedFields = [{ manager: "broken", operation: "Update", apiVersion: "v1" }];
  });
  step("request with invalid managedFields falls back to the stored ones", broken, (u) =>
    write(c, u, "kubectl-edit", T(7), configMapSchema),
  );
  return steps;
}

/** An entry with its FieldsV1 as JSON, so key order is compared too. */
function entry(
  manager: string,
  apiVersion: string,
  time: string,
  fieldsV1: string,
  extra: { operation?: "Apply"; subresource?: string } = {},
) {
  return {
    manager,
    operation: extra.operation ?? "Update",
    apiVersion,
    time,
    fieldsType: "FieldsV1",
    fieldsV1,
    ...(extra.subresource ? { subresource: extra.subresource } : {}),
  };
}

const printed = (entries: ManagedFieldsEntry[] | undefined) =>
  (entries ?? []).map((e) => ({ ...e, fieldsV1: JSON.stringify(e.fieldsV1) }));

const withoutManaged = (obj: KubeObject): KubeObject => {
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

const EXPECTED: Record<string, ReturnType<typeof entry>[]> = {
  "ConfigMap create": [
    entry(
      "kubectl-create",
      "v1",
      T(1),
      '{"f:binaryData":{".":{},"f:bin":{}},"f:data":{".":{},"f:":{},"f:10":{},"f:a":{},"f:b":{}},"f:immutable":{},"f:metadata":{"f:annotations":{".":{},"f:note":{}},"f:finalizers":{".":{},"v:\\"a.io/x\\"":{},"v:\\"b.io/y\\"":{}},"f:labels":{".":{},"f:app":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\\"uid\\":\\"u1\\"}":{}}}}',
    ),
  ],
  "workload create": [
    entry(
      "kubectl-create",
      "apps/v1",
      T(1),
      '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{".":{},"f:args":{},"f:containers":{".":{},"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{}}},"f:image":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:image":{},"f:name":{}}},"f:paused":{},"f:replicas":{},"f:selector":{},"f:strategy":{".":{},"f:rollingUpdate":{".":{},"f:maxSurge":{}},"f:type":{}},"f:tags":{".":{},"v:3":{},"v:\\"a\\"":{},"v:\\"b\\"":{},"v:true":{}},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}},"k:{\\"name\\":\\"host\\"}":{".":{},"f:hostPath":{".":{},"f:path":{}},"f:name":{}}}}}',
    ),
  ],
  "irregular lists create": [
    entry(
      "unknown",
      "apps/v1",
      T(1),
      '{"f:spec":{".":{},"f:containers":{".":{},"k:{\\"name\\":\\"app\\"}":{".":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{}}},"f:name":{},"f:ports":{}}},"f:selector":{},"f:strategy":{},"f:tags":{".":{},"v:\\"a\\"":{},"v:\\"b\\"":{}}}}',
    ),
  ],
  "custom resource create": [
    entry(
      "kubectl-create",
      "example.com/v1",
      T(1),
      '{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{".":{},"f:atomicList":{},"f:atomicMap":{},"f:backends":{".":{},"k:{\\"name\\":\\"a\\",\\"port\\":80}":{".":{},"f:name":{},"f:port":{}},"k:{\\"name\\":\\"a\\",\\"port\\":81}":{".":{},"f:name":{},"f:options":{".":{},"f:o":{}},"f:port":{},"f:weight":{}},"k:{\\"name\\":\\"b\\",\\"port\\":80}":{".":{},"f:name":{},"f:weight":{}}},"f:free":{".":{},"f:e":{},"f:flag":{},"f:n":{},"f:nested":{".":{},"f:deep":{}}},"f:ids":{".":{},"v:1":{},"v:2":{},"v:3":{}},"f:inner":{".":{},"f:y":{}},"f:nothing":{}},"f:status":{".":{},"f:ready":{}}}',
    ),
  ],
  "untyped create": [
    entry(
      "untyped",
      "example.com/v1",
      T(1),
      '{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{".":{},"f:atomicList":{},"f:atomicMap":{".":{},"f:a":{},"f:b":{}},"f:backends":{},"f:free":{".":{},"f:e":{},"f:flag":{},"f:n":{},"f:nested":{".":{},"f:deep":{}}},"f:ids":{},"f:inner":{".":{},"f:y":{}},"f:nothing":{}},"f:status":{".":{},"f:ready":{}}}',
    ),
  ],
  "status subresource create": [
    entry(
      "ctrl",
      "example.com/v1",
      T(1),
      '{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{".":{},"f:atomicList":{},"f:atomicMap":{},"f:backends":{".":{},"k:{\\"name\\":\\"a\\",\\"port\\":80}":{".":{},"f:name":{},"f:port":{}},"k:{\\"name\\":\\"a\\",\\"port\\":81}":{".":{},"f:name":{},"f:options":{".":{},"f:o":{}},"f:port":{},"f:weight":{}},"k:{\\"name\\":\\"b\\",\\"port\\":80}":{".":{},"f:name":{},"f:weight":{}}},"f:free":{".":{},"f:e":{},"f:flag":{},"f:n":{},"f:nested":{".":{},"f:deep":{}}},"f:ids":{".":{},"v:1":{},"v:2":{},"v:3":{}},"f:inner":{".":{},"f:y":{}},"f:nothing":{}},"f:status":{".":{},"f:ready":{}}}',
      { subresource: "status" },
    ),
  ],
  "workload edit": [
    entry(
      "kubectl-create",
      "apps/v1",
      T(1),
      '{"f:metadata":{"f:labels":{}},"f:spec":{".":{},"f:args":{},"f:containers":{".":{},"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{}}},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:image":{},"f:name":{}}},"f:paused":{},"f:replicas":{},"f:selector":{},"f:strategy":{".":{},"f:rollingUpdate":{".":{},"f:maxSurge":{}},"f:type":{}},"f:tags":{".":{},"v:3":{},"v:\\"a\\"":{},"v:\\"b\\"":{},"v:true":{}},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}},"k:{\\"name\\":\\"host\\"}":{".":{},"f:hostPath":{".":{},"f:path":{}},"f:name":{}}}}}',
    ),
    entry(
      "kubectl-edit",
      "apps/v1",
      T(2),
      '{"f:metadata":{"f:labels":{"f:app":{},"f:extra":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{"f:env":{"k:{\\"name\\":\\"C\\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{}}},"f:tags":{"v:\\"c\\"":{}}}}',
    ),
  ],
  "workload scale": [
    entry(
      "kubectl-create",
      "apps/v1",
      T(1),
      '{"f:metadata":{"f:labels":{}},"f:spec":{".":{},"f:args":{},"f:containers":{".":{},"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{}}},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}},"k:{\\"name\\":\\"side\\"}":{".":{},"f:image":{},"f:name":{}}},"f:paused":{},"f:selector":{},"f:strategy":{".":{},"f:rollingUpdate":{".":{},"f:maxSurge":{}},"f:type":{}},"f:tags":{".":{},"v:3":{},"v:\\"a\\"":{},"v:\\"b\\"":{},"v:true":{}},"f:volumes":{".":{},"k:{\\"name\\":\\"data\\"}":{".":{},"f:emptyDir":{},"f:name":{}},"k:{\\"name\\":\\"host\\"}":{".":{},"f:hostPath":{".":{},"f:path":{}},"f:name":{}}}}}',
    ),
    entry(
      "kubectl-edit",
      "apps/v1",
      T(2),
      '{"f:metadata":{"f:labels":{"f:app":{},"f:extra":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{"f:env":{"k:{\\"name\\":\\"C\\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{}}},"f:tags":{"v:\\"c\\"":{}}}}',
    ),
    entry("scaler", "apps/v1", T(3), '{"f:spec":{"f:replicas":{}}}', { subresource: "scale" }),
  ],
  "workload removals": [
    entry(
      "kubectl-edit",
      "apps/v1",
      T(2),
      '{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{"f:env":{"k:{\\"name\\":\\"C\\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{}}},"f:tags":{"v:\\"c\\"":{}}}}',
    ),
    entry("scaler", "apps/v1", T(3), '{"f:spec":{"f:replicas":{}}}', { subresource: "scale" }),
    entry(
      "kubectl-create",
      "apps/v1",
      T(4),
      '{"f:metadata":{"f:labels":{}},"f:spec":{".":{},"f:args":{},"f:containers":{".":{},"k:{\\"name\\":\\"app\\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\\"name\\":\\"A\\"}":{".":{},"f:name":{},"f:value":{}},"k:{\\"name\\":\\"B\\"}":{".":{},"f:name":{}}},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}},"f:paused":{},"f:selector":{},"f:strategy":{".":{},"f:rollingUpdate":{".":{},"f:maxSurge":{}},"f:type":{}},"f:tags":{".":{},"v:3":{},"v:\\"a\\"":{},"v:\\"b\\"":{},"v:true":{}}}}',
    ),
  ],
  "workload unchanged by another writer": [],
  "request names other managers": [
    entry("applier", "v1", T(0), '{"f:data":{"f:b":{}},"f:immutable":{}}', { operation: "Apply" }),
    entry("importer", "v1", T(0), '{"f:data":{"f:b":{}},"f:metadata":{"f:labels":{"f:tier":{}}}}'),
    entry("kubectl-edit", "v1", T(6), '{"f:data":{"f:a":{}}}'),
  ],
  "request with invalid managedFields falls back to the stored ones": [
    entry("applier", "v1", T(0), '{"f:immutable":{}}', { operation: "Apply" }),
    entry("kubectl-edit", "v1", T(7), '{"f:data":{"f:a":{},"f:b":{}}}'),
  ],
};
// A writer that changes nothing leaves the entries exactly as the removals left them.
EXPECTED["workload unchanged by another writer"] = EXPECTED["workload removals"]!;

describe("updateManagedFields, recorded cases", () => {
  const steps = run();

  it("covers every recorded case", () => {
    assert.deepEqual(
      steps.map(([name]) => name),
      Object.keys(EXPECTED),
    );
  });

  for (const [name, updated, out] of steps) {
    it(`records the same entries: ${name}`, () => {
      const expected = EXPECTED[name] ?? [];
      assert.deepEqual(printed(out.metadata.managedFields), expected);
      // Entry keys in kube's order, as the stored JSON shows them.
      assert.deepEqual(
        (out.metadata.managedFields ?? []).map((e) => Object.keys(e)),
        expected.map((e) => Object.keys(e)),
      );
      assert.deepEqual(withoutManaged(out), withoutManaged(updated));
    });
  }

  it("leaves the request's object as it was", () => {
    const deepFreeze = <V>(v: V): V => {
      if (v && typeof v === "object") for (const child of Object.values(v)) deepFreeze(child);
      return Object.freeze(v);
    };
    const request: KubeObject = {
      ...workload,
      metadata: { ...workload.metadata, managedFields: [] },
    };
    const frozen = deepFreeze(structuredClone(request));
    const out = write(undefined, frozen, "kubectl-create", T(1), workloadSchema);
    assert.equal(out.metadata.managedFields?.length, 1);
    assert.deepEqual(frozen.metadata.managedFields, []);
    // Only the top level and metadata are the result's own; the rest is shared, not copied.
    assert.equal(out.spec, frozen.spec);
    assert.notEqual(out.metadata, frozen.metadata);
  });
});
