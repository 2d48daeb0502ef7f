/**
 * The platform's admission checks on app objects against an in-memory Reader:
 * reserved and undeclared spec keys, the Tenant name rules, module flags
 * without a backend, Tenants outside the tenant tree, and a child quota above
 * what the parent tenant has left. Each refusal is a 422 naming the field.
 */
import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { KubeList, KubeObject } from "../api/index.js";
import { type FieldError, hasCode, NotFoundError } from "../api/index.js";
import type { ListOptions, ObjectRef, Reader, TypeRef } from "../client/index.js";
import { AppAdmission, type AppAdmissionRequest, RESERVED_KEY_MESSAGE } from "./admission.js";
import { admissionRules } from "./assemble.js";
import { COMPONENTS } from "./components.js";
import { declaredKeys, loadDefinitions } from "./definitions.js";
import { APPS_API_VERSION } from "./engine/module.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const definitions = loadDefinitions(resolve(repoRoot, "config/apps"));
const specKeys = new Map([...definitions].map(([kind, def]) => [kind, declaredKeys(def)]));

/** Objects by `kind/namespace/name`; counts every read. */
class MemoryReader implements Reader {
  readonly objects = new Map<string, KubeObject>();
  reads = 0;

  add(obj: KubeObject): this {
    this.objects.set(`${obj.kind}/${obj.metadata.namespace ?? ""}/${obj.metadata.name}`, obj);
    return this;
  }

  async get<T extends KubeObject>({ kind, name, namespace }: ObjectRef): Promise<T> {
    this.reads++;
    const obj = this.objects.get(`${kind}/${namespace ?? ""}/${name}`);
    if (!obj) throw new NotFoundError({ group: "", resource: kind, name });
    return structuredClone(obj) as T;
  }

  async list<T extends KubeObject>(
    { apiVersion, kind }: TypeRef,
    opts?: ListOptions,
  ): Promise<KubeList<T>> {
    this.reads++;
    const items = [...this.objects.values()].filter(
      (o) => o.kind === kind && o.metadata.namespace === opts?.namespace,
    );
    return { apiVersion, kind: `${kind}List`, metadata: {}, items: structuredClone(items) as T[] };
  }
}

const namespace = (name: string, labels?: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, ...(labels ? { labels } : {}) },
});

const app = (
  kind: string,
  name: string,
  ns: string,
  spec: Record<string, unknown>,
  deleting = false,
): KubeObject => ({
  apiVersion: APPS_API_VERSION,
  kind,
  metadata: {
    name,
    namespace: ns,
    ...(deleting ? { deletionTimestamp: "2024-01-01T00:00:00Z" } : {}),
  },
  spec,
});

/** A tree: tenant-root, tenant-a (quota cpu 4, memory 8Gi, pods 20) holding Tenants b and gone. */
function tree(): MemoryReader {
  return new MemoryReader()
    .add(namespace("tenant-root"))
    .add(
      namespace("tenant-a", {
        "tenant.cozystack.io/tenant-root": "",
        "tenant.cozystack.io/tenant-a": "",
      }),
    )
    .add(namespace("default"))
    .add({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "tenant-quota", namespace: "tenant-a" },
      spec: {
        hard: {
          "requests.cpu": "4",
          "limits.cpu": "4",
          "requests.memory": "8Gi",
          "limits.memory": "8Gi",
          pods: "20",
        },
      },
    })
    .add(app("Tenant", "b", "tenant-a", { resourceQuotas: { cpu: "3", memory: "2Gi" } }))
    .add(app("Tenant", "gone", "tenant-a", { resourceQuotas: { cpu: "4" } }, true));
}

/** The admission of the platform's components, with `served` as the tenant modules that have a backend. */
function admission(reader: Reader | undefined, served: string[] = []): AppAdmission {
  const ctx = { definitions, servedModules: new Set(served) };
  return new AppAdmission(() => reader, ctx, specKeys, admissionRules(COMPONENTS));
}

function request(
  obj: KubeObject,
  operation: "CREATE" | "UPDATE" = "CREATE",
  old?: KubeObject,
): AppAdmissionRequest {
  return {
    operation,
    group: "apps.cozystack.io",
    kind: obj.kind,
    subresource: "",
    namespace: obj.metadata.namespace!,
    name: obj.metadata.name!,
    object: obj,
    oldObject: old ?? (operation === "UPDATE" ? obj : undefined),
  };
}

/** The field errors of a refusal, which must be a 422 Invalid. */
async function refusal(a: AppAdmission, req: AppAdmissionRequest): Promise<FieldError[]> {
  let errors: FieldError[] | undefined;
  await assert.rejects(a.validate(req), (e: unknown) => {
    assert.ok(hasCode(e, 422), `not a 422: ${String(e)}`);
    assert.equal((e as Error).name, "Invalid");
    errors = (e as { errors: FieldError[] }).errors;
    return true;
  });
  return errors!;
}

const fields = (errors: FieldError[]) => errors.map((e) => e.field);

describe("AppAdmission: spec keys", () => {
  it("refuses keys starting with _ and keys the schema does not declare, by field path", async () => {
    const tenant = app("Tenant", "c", "tenant-a", {
      host: "c.example.org",
      _namespace: { etcd: "tenant-root" },
      _cluster: {},
      colour: "blue",
    });
    const errors = await refusal(admission(tree()), request(tenant));
    assert.deepEqual(fields(errors), ["spec._namespace", "spec._cluster", "spec.colour"]);
    assert.ok(errors[0]!.detail.includes(RESERVED_KEY_MESSAGE), errors[0]!.detail);
    assert.equal(errors[0]!.reason, "FieldValueForbidden");
    assert.match(errors[2]!.detail, /unknown field; the fields of Tenant are: host, etcd, /);
  });

  it("checks only the key rules for apps other than Tenant, without reading anything", async () => {
    const reader = tree();
    const a = admission(reader);
    const errors = await refusal(
      a,
      request(app("Postgres", "my-db", "default", { _cluster: {}, replicas: 2 })),
    );
    assert.deepEqual(fields(errors), ["spec._cluster"]);
    await a.validate(request(app("Postgres", "My-DB", "default", { replicas: 2 })));
    assert.equal(reader.reads, 0);
  });

  it("lets a kind without a definition, another group, a subresource and a DELETE pass", async () => {
    const a = admission(tree());
    const odd = { _x: 1 };
    await a.validate(request(app("Unknown", "x", "default", odd)));
    await a.validate({ ...request(app("Tenant", "x-y", "default", odd)), group: "example.com" });
    await a.validate({ ...request(app("Tenant", "x-y", "default", odd)), subresource: "status" });
    await a.validate({ ...request(app("Tenant", "x-y", "default", odd)), operation: "DELETE" });
  });
});

describe("AppAdmission: Tenant", () => {
  it("refuses names with a dash, an uppercase letter or a leading digit, naming the rule", async () => {
    for (const name of ["my-team", "Team", "1team"]) {
      const errors = await refusal(admission(tree()), request(app("Tenant", name, "tenant-a", {})));
      assert.deepEqual(fields(errors), ["metadata.name"], name);
      assert.match(errors[0]!.detail, /must match \^\[a-z\]\[a-z0-9\]\*\$/);
    }
  });

  it("refuses a name whose namespace would exceed 63 characters", async () => {
    const errors = await refusal(
      admission(tree()),
      request(app("Tenant", "a".repeat(55), "tenant-a", {})),
    );
    assert.deepEqual(fields(errors), ["metadata.name"]);
    assert.match(errors[0]!.detail, /over the 63-character limit/);
  });

  it("checks the name only on create", async () => {
    const was = app("Tenant", "Legacy", "tenant-a", {});
    const changed = app("Tenant", "Legacy", "tenant-a", { host: "legacy.example.org" });
    await admission(tree()).validate(request(changed, "UPDATE", was));
  });

  it("lets an update that leaves the spec alone pass unchecked", async () => {
    const tenant = app("Tenant", "c", "default", { etcd: true, _cluster: {} });
    const reader = tree();
    await admission(reader).validate(request(tenant, "UPDATE"));
    assert.equal(reader.reads, 0);
    const changed = app("Tenant", "c", "default", { etcd: true, _cluster: {}, host: "c.org" });
    const errors = await refusal(admission(reader), request(changed, "UPDATE", tenant));
    assert.deepEqual(fields(errors), ["spec._cluster"]);
  });

  it("refuses a module flag whose module is not served, with the reason", async () => {
    const tenant = app("Tenant", "c", "tenant-a", { etcd: true, monitoring: false });
    const errors = await refusal(admission(tree()), request(tenant));
    assert.deepEqual(fields(errors), ["spec.etcd"]);
    assert.match(
      errors[0]!.detail,
      /the etcd module \(Etcd\) is not available in this version of Hearth/,
    );
    await admission(tree(), ["Etcd"]).validate(request(tenant));
  });

  it("refuses a Tenant outside a tenant namespace", async () => {
    const errors = await refusal(admission(tree()), request(app("Tenant", "c", "default", {})));
    assert.deepEqual(fields(errors), ["metadata.namespace"]);
    assert.match(errors[0]!.detail, /a Tenant is created in a tenant namespace/);
    await admission(tree()).validate(request(app("Tenant", "c", "tenant-root", {})));
    await admission(tree()).validate(request(app("Tenant", "c", "tenant-a", {})));
  });

  it("skips the checks that read the API while there is no client yet", async () => {
    await admission(undefined).validate(request(app("Tenant", "c", "default", {})));
  });
});

describe("AppAdmission: Tenant quota", () => {
  const child = (quotas: Record<string, unknown>, name = "c") =>
    app("Tenant", name, "tenant-a", { resourceQuotas: quotas });

  it("accepts a quota that fits what the parent has left", async () => {
    // cpu: 4 − 3 given to b (the Tenant being deleted does not count) = 1 left.
    await admission(tree()).validate(request(child({ cpu: "1", memory: "6Gi", pods: 20 })));
    await admission(tree()).validate(request(child({ cpu: "500m" })));
  });

  it("refuses a quota above what is left, once per key the user wrote", async () => {
    const errors = await refusal(admission(tree()), request(child({ cpu: "2", pods: 10 })));
    assert.deepEqual(fields(errors), ["spec.resourceQuotas.cpu"]);
    assert.equal(errors[0]!.reason, "FieldValueInvalid");
    assert.match(
      errors[0]!.detail,
      /^Invalid value: "2": exceeds what the parent tenant has left: requests\.cpu 1 of 4 \(quota tenant-quota in tenant-a/,
    );
  });

  it("reports every key that does not fit", async () => {
    const errors = await refusal(
      admission(tree()),
      request(child({ cpu: "1500m", memory: "7Gi", pods: "21" })),
    );
    assert.deepEqual(fields(errors), [
      "spec.resourceQuotas.cpu",
      "spec.resourceQuotas.memory",
      "spec.resourceQuotas.pods",
    ]);
  });

  it("does not count a Tenant's own quota against its update", async () => {
    const was = child({ cpu: "3" }, "b");
    await admission(tree()).validate(request(child({ cpu: "4" }, "b"), "UPDATE", was));
    const errors = await refusal(
      admission(tree()),
      request(child({ cpu: "5" }, "b"), "UPDATE", was),
    );
    assert.deepEqual(fields(errors), ["spec.resourceQuotas.cpu"]);
  });

  it("lets a Tenant being deleted drop its finalizer after the parent's quota shrank", async () => {
    // tenant-a's quota was lowered to cpu 2 after b (3) and c (1) were admitted.
    const reader = tree();
    reader.objects.delete("Tenant/tenant-a/gone");
    reader.add(child({ cpu: "1" }));
    const quota = reader.objects.get("ResourceQuota/tenant-a/tenant-quota")!;
    (quota.spec as { hard: Record<string, string> }).hard["requests.cpu"] = "2";
    (quota.spec as { hard: Record<string, string> }).hard["limits.cpu"] = "2";
    const leaving = app(
      "Tenant",
      "b",
      "tenant-a",
      { resourceQuotas: { cpu: "3", memory: "2Gi" } },
      true,
    );
    const req = request(leaving, "UPDATE");
    req.oldObject = {
      ...leaving,
      metadata: { ...leaving.metadata, finalizers: ["apps.cozystack.io/uninstall"] },
    };
    await admission(reader).validate(req);
  });

  it("leaves keys the parent does not limit, and parents without a quota, unchecked", async () => {
    await admission(tree()).validate(request(child({ services: "100", storage: "1Ti" })));
    await admission(tree()).validate(
      request(app("Tenant", "c", "tenant-root", { resourceQuotas: { cpu: "1000" } })),
    );
  });
});
