/**
 * The Tenant app as one layer: what `renderTenant` produces for a child and for
 * the root Tenant (namespace labels, owner, values inheritance, RBAC, quota,
 * module apps), and the `preDelete` order against an in-memory client:
 * applications first and waited for, then modules, done only when nothing is
 * left. The whole tree against real kubectl is in test/e2e/tenants.test.ts.
 */
import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import type { KubeList, KubeObject } from "../../../api/index.js";
import { ApiError, NotFoundError } from "../../../api/index.js";
import type { Client, ListOptions, ObjectRef, TypeRef } from "../../../client/index.js";
import { loadDefinitions } from "../../definitions.js";
import { limitedClient } from "../../engine/limited-client.js";
import {
  APPS_API_VERSION,
  type App,
  type HookResult,
  LABEL_TENANT_MODULE,
  type TenantContext,
} from "../../engine/module.js";
import { renderTenant, tenantModule } from "./index.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");
const definition = loadDefinitions(resolve(repoRoot, "config/apps")).get("Tenant")!;

function tenant(name: string, namespace: string, spec: Record<string, unknown> = {}): App {
  return { apiVersion: APPS_API_VERSION, kind: "Tenant", metadata: { name, namespace }, spec };
}

const namespaceObj = (name: string, uid: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, uid },
});

/** The context a Tenant `b` in `tenant-a` sees: tenant-a runs etcd, the rest is tenant-root's. */
const childContext: TenantContext = {
  namespace: {
    host: "a.example.org",
    etcd: "tenant-a",
    ingress: "tenant-root",
    monitoring: "tenant-root",
    seaweedfs: "tenant-root",
  },
  cluster: { "root-host": "example.org" },
  appNamespace: namespaceObj("tenant-a", "uid-of-tenant-a"),
};

const rootContext: TenantContext = {
  namespace: { host: "stale.example.org", etcd: "tenant-stale" },
  cluster: { "root-host": "example.org" },
  appNamespace: namespaceObj("tenant-root", "uid-of-tenant-root"),
};

function find(objects: KubeObject[], kind: string, name?: string): KubeObject | undefined {
  return objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
}

function only(objects: KubeObject[], kind: string, name?: string): KubeObject {
  const found = find(objects, kind, name);
  assert.ok(found, `no ${kind} ${name ?? ""} rendered`);
  return found;
}

/** `_namespace` and `_cluster` from the rendered values Secret. */
function values(objects: KubeObject[]): {
  _namespace: Record<string, string>;
  _cluster: Record<string, string>;
} {
  const secret = only(objects, "Secret", "cozystack-values");
  const data = (secret.data as Record<string, string>)["values.yaml"]!;
  return parse(Buffer.from(data, "base64").toString("utf8"));
}

const tenantLabels = (o: KubeObject) =>
  Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith("tenant.cozystack.io/"))
    .sort();

describe("renderTenant: a child tenant", () => {
  const objects = renderTenant(tenant("b", "tenant-a"), childContext, new Set());
  const ns = only(objects, "Namespace");

  it("renders its namespace labelled with every ancestor and itself, not with descendants", () => {
    assert.equal(ns.metadata.name, "tenant-a-b");
    assert.deepEqual(tenantLabels(ns), [
      "tenant.cozystack.io/tenant-a",
      "tenant.cozystack.io/tenant-a-b",
      "tenant.cozystack.io/tenant-root",
    ]);
    for (const k of tenantLabels(ns)) assert.equal(ns.metadata.labels![k], "");
    assert.equal(ns.metadata.labels?.["platform.cozystack.io/no-delete"], undefined);
  });

  it("makes the parent namespace the owner and names it in an annotation", () => {
    assert.deepEqual(ns.metadata.ownerReferences, [
      { apiVersion: "v1", kind: "Namespace", name: "tenant-a", uid: "uid-of-tenant-a" },
    ]);
    assert.equal(ns.metadata.annotations?.["tenant.cozystack.io/parent-namespace"], "tenant-a");
  });

  it("enforces Pod Security baseline in the tenant's namespace", () => {
    assert.equal(ns.metadata.labels?.["pod-security.kubernetes.io/enforce"], "baseline");
  });

  it("puts every namespaced child into its own namespace", () => {
    for (const o of objects.filter((o) => o.kind !== "Namespace"))
      assert.equal(o.metadata.namespace, "tenant-a-b", `${o.kind} ${o.metadata.name}`);
  });

  it("inherits host as <name>.<parent host> and each module from the parent", () => {
    const v = values(objects);
    assert.deepEqual(v._namespace, {
      host: "b.a.example.org",
      etcd: "tenant-a",
      ingress: "tenant-root",
      monitoring: "tenant-root",
      seaweedfs: "tenant-root",
    });
    assert.deepEqual(v._cluster, { "root-host": "example.org" });
    assert.equal(ns.metadata.labels?.["namespace.cozystack.io/host"], "b.a.example.org");
    assert.equal(ns.metadata.labels?.["namespace.cozystack.io/etcd"], "tenant-a");
  });

  it("uses its own namespace for the modules it enables and spec.host when given", () => {
    const own = renderTenant(
      tenant("b", "tenant-a", { host: "b.customer.net", monitoring: true, seaweedfs: true }),
      childContext,
      new Set(),
    );
    assert.deepEqual(values(own)._namespace, {
      host: "b.customer.net",
      etcd: "tenant-a",
      ingress: "tenant-root",
      monitoring: "tenant-a-b",
      seaweedfs: "tenant-a-b",
    });
    assert.equal(
      only(own, "Namespace").metadata.labels?.["namespace.cozystack.io/monitoring"],
      "tenant-a-b",
    );
  });

  it("has no host when no ancestor has one", () => {
    const bare = renderTenant(
      tenant("b", "tenant-a"),
      { ...childContext, namespace: {} },
      new Set(),
    );
    assert.equal(values(bare)._namespace.host, "");
  });

  it("has no owner when the parent namespace is not known", () => {
    const orphan = renderTenant(
      tenant("b", "tenant-a"),
      { ...childContext, appNamespace: undefined },
      new Set(),
    );
    assert.equal(only(orphan, "Namespace").metadata.ownerReferences, undefined);
  });

  it("binds each level to the groups of that level and above, of itself and every ancestor", () => {
    const levels = ["view", "use", "admin", "super-admin"];
    const bindings = objects.filter((o) => o.kind === "RoleBinding");
    assert.deepEqual(
      bindings.map((b) => b.metadata.name),
      levels.map((l) => `cozy:tenant:${l}`),
    );
    const groups = (level: string) =>
      (
        only(objects, "RoleBinding", `cozy:tenant:${level}`).subjects as {
          kind: string;
          name: string;
        }[]
      )
        .map((s) => {
          assert.equal(s.kind, "Group");
          return s.name;
        })
        .sort();
    assert.deepEqual(groups("super-admin"), [
      "tenant-a-b-super-admin",
      "tenant-a-super-admin",
      "tenant-root-super-admin",
    ]);
    assert.deepEqual(groups("admin"), [
      "tenant-a-admin",
      "tenant-a-b-admin",
      "tenant-a-b-super-admin",
      "tenant-a-super-admin",
      "tenant-root-admin",
      "tenant-root-super-admin",
    ]);
    const view = groups("view");
    assert.equal(view.length, 12);
    for (const ns of ["tenant-root", "tenant-a", "tenant-a-b"])
      for (const l of levels) assert.ok(view.includes(`${ns}-${l}`), `${ns}-${l} missing`);
    assert.ok(!groups("use").includes("tenant-a-view"), "use binds a view group");
    const b = only(objects, "RoleBinding", "cozy:tenant:use");
    assert.deepEqual(b.roleRef, {
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: "cozy:tenant:use",
    });
  });

  it("renders a LimitRange but no ResourceQuota when resourceQuotas is empty", () => {
    assert.ok(find(objects, "LimitRange", "tenant-limits"));
    assert.equal(find(objects, "ResourceQuota"), undefined);
  });

  it("maps resourceQuotas onto the ResourceQuota's hard limits", () => {
    const quotas = {
      cpu: "4",
      memory: "8Gi",
      "ephemeral-storage": "10Gi",
      storage: "100Gi",
      pods: 20,
      services: "5",
    };
    const withQuota = renderTenant(
      tenant("b", "tenant-a", { resourceQuotas: quotas }),
      childContext,
      new Set(),
    );
    const quota = only(withQuota, "ResourceQuota", "tenant-quota");
    assert.deepEqual(quota.spec, {
      hard: {
        "requests.cpu": "4",
        "limits.cpu": "4",
        "requests.memory": "8Gi",
        "limits.memory": "8Gi",
        "requests.ephemeral-storage": "10Gi",
        "limits.ephemeral-storage": "10Gi",
        "requests.storage": "100Gi",
        pods: "20",
        services: "5",
      },
    });
    const limits = only(withQuota, "LimitRange", "tenant-limits");
    assert.deepEqual((limits.spec as { limits: unknown[] }).limits, [
      {
        type: "Container",
        default: { cpu: "250m", memory: "128Mi" },
        defaultRequest: { cpu: "25m", memory: "128Mi" },
      },
    ]);
  });

  it("renders module apps only for enabled flags whose kind is served", () => {
    const spec = { etcd: true, monitoring: true, ingress: true, seaweedfs: false };
    const app = tenant("b", "tenant-a", spec);
    const served = renderTenant(app, childContext, new Set(["Etcd", "Ingress", "SeaweedFS"]));
    const modules = served.filter((o) => o.apiVersion === APPS_API_VERSION);
    assert.deepEqual(
      modules.map((m) => `${m.kind}/${m.metadata.namespace}/${m.metadata.name}`).sort(),
      ["Etcd/tenant-a-b/etcd", "Ingress/tenant-a-b/ingress"],
    );
    for (const m of modules) assert.equal(m.metadata.labels?.[LABEL_TENANT_MODULE], "true");
    const none = renderTenant(app, childContext, new Set());
    assert.deepEqual(
      none.filter((o) => o.apiVersion === APPS_API_VERSION),
      [],
    );
  });
});

describe("renderTenant: the root Tenant", () => {
  const objects = renderTenant(tenant("root", "tenant-root"), rootContext, new Set());
  const ns = only(objects, "Namespace");

  it("owns tenant-root, labelled no-delete, with no owner and no parent", () => {
    assert.equal(ns.metadata.name, "tenant-root");
    assert.equal(ns.metadata.labels?.["platform.cozystack.io/no-delete"], "true");
    assert.deepEqual(tenantLabels(ns), ["tenant.cozystack.io/tenant-root"]);
    assert.equal(ns.metadata.ownerReferences, undefined);
    assert.equal(ns.metadata.annotations, undefined);
  });

  it("takes its host from _cluster.root-host and inherits nothing from its own namespace", () => {
    assert.deepEqual(values(objects)._namespace, {
      host: "example.org",
      etcd: "",
      ingress: "",
      monitoring: "",
      seaweedfs: "",
    });
    const own = renderTenant(tenant("root", "tenant-root", { etcd: true }), rootContext, new Set());
    assert.equal(values(own)._namespace.etcd, "tenant-root");
  });

  it("binds only tenant-root's groups", () => {
    const view = only(objects, "RoleBinding", "cozy:tenant:view");
    const names = (view.subjects as { name: string }[]).map((s) => s.name);
    assert.deepEqual(names, [
      "tenant-root-view",
      "tenant-root-use",
      "tenant-root-admin",
      "tenant-root-super-admin",
    ]);
  });
});

/**
 * Apps of `apps.cozystack.io` in memory: `list` by kind and namespace (a kind
 * not in `served` answers 404, as an unserved CRD does), `delete` marks an
 * object with finalizers and removes one without.
 */
class AppStore {
  readonly objects = new Map<string, KubeObject>();
  readonly deletes: string[] = [];
  readonly lists: string[] = [];

  constructor(readonly served: Set<string>) {}

  add(kind: string, namespace: string, name: string, module = false): void {
    this.objects.set(`${kind}/${namespace}/${name}`, {
      apiVersion: APPS_API_VERSION,
      kind,
      metadata: {
        name,
        namespace,
        finalizers: ["apps.cozystack.io/uninstall"],
        ...(module ? { labels: { [LABEL_TENANT_MODULE]: "true" } } : {}),
      },
    });
  }

  /** What the engine does once an app's uninstall finished. */
  finish(kind: string, namespace: string, name: string): void {
    const key = `${kind}/${namespace}/${name}`;
    assert.ok(this.objects.get(key)?.metadata.deletionTimestamp, `${key} was never deleted`);
    this.objects.delete(key);
  }

  client(): Client {
    const unused = (what: string) => () => {
      throw new Error(`the test client has no ${what}`);
    };
    return {
      mapper: { resolve: unused("mapper") },
      get: unused("get"),
      watch: unused("watch"),
      create: unused("create"),
      update: unused("update"),
      patch: unused("patch"),
      apply: unused("apply"),
      deleteCollection: unused("deleteCollection"),
      updateStatus: unused("updateStatus"),
      patchStatus: unused("patchStatus"),
      request: unused("request"),
      list: async <T extends KubeObject>({ apiVersion, kind }: TypeRef, opts?: ListOptions) => {
        this.lists.push(kind);
        if (apiVersion !== APPS_API_VERSION || !this.served.has(kind))
          throw new ApiError(404, "NotFound", "the server could not find the requested resource");
        const items = [...this.objects.values()].filter(
          (o) => o.kind === kind && o.metadata.namespace === opts?.namespace,
        );
        return {
          apiVersion: APPS_API_VERSION,
          kind: `${kind}List`,
          metadata: {},
          items: structuredClone(items),
        } as KubeList<T>;
      },
      delete: async ({ kind, name, namespace }: ObjectRef) => {
        const key = `${kind}/${namespace}/${name}`;
        this.deletes.push(key);
        const obj = this.objects.get(key);
        if (!obj) throw new NotFoundError({ group: "apps.cozystack.io", resource: kind, name });
        if ((obj.metadata.finalizers ?? []).length === 0) this.objects.delete(key);
        else obj.metadata.deletionTimestamp ??= "2024-01-01T00:00:00Z";
        return structuredClone(obj);
      },
    };
  }
}

describe("Tenant preDelete", () => {
  const module = tenantModule(definition, new Set());
  const preDelete = module.hooks!.preDelete!;
  const kinds = ["Tenant", "Postgres", "Etcd", "Redis"];

  function setUp() {
    const store = new AppStore(new Set(["Tenant", "Postgres", "Etcd"]));
    store.add("Tenant", "tenant-a", "b");
    store.add("Postgres", "tenant-a", "db");
    store.add("Etcd", "tenant-a", "etcd", true);
    store.add("Postgres", "tenant-other", "keep");
    const client = limitedClient(store.client(), module.hooks!.permissions);
    const run = (app = tenant("a", "tenant-root")): Promise<HookResult> =>
      preDelete({ app, client, signal: new AbortController().signal, appKinds: kinds });
    return { store, run };
  }

  it("deletes the applications first, then the modules, and is done when none is left", async () => {
    const { store, run } = setUp();

    const first = await run();
    assert.equal(first.done, false);
    assert.deepEqual(store.deletes.sort(), ["Postgres/tenant-a/db", "Tenant/tenant-a/b"]);
    assert.match(first.waitingFor!, /^2 applications to be deleted/);
    assert.match(first.waitingFor!, /Tenant\/b/);
    assert.match(first.waitingFor!, /Postgres\/db/);

    store.deletes.length = 0;
    const again = await run();
    assert.equal(again.done, false);
    assert.deepEqual(store.deletes, [], "apps already being deleted were deleted again");

    store.finish("Postgres", "tenant-a", "db");
    const oneLeft = await run();
    assert.equal(oneLeft.done, false);
    assert.match(oneLeft.waitingFor!, /^1 applications to be deleted \(Tenant\/b\)/);
    assert.deepEqual(store.deletes, [], "a module was deleted while an application remained");

    store.finish("Tenant", "tenant-a", "b");
    const modules = await run();
    assert.equal(modules.done, false);
    assert.deepEqual(store.deletes, ["Etcd/tenant-a/etcd"]);
    assert.match(modules.waitingFor!, /^1 modules to be deleted \(Etcd\/etcd\)/);

    store.deletes.length = 0;
    assert.equal((await run()).done, false, "done while a module is still being deleted");
    assert.deepEqual(store.deletes, []);

    store.finish("Etcd", "tenant-a", "etcd");
    assert.deepEqual(await run(), { done: true });
    assert.deepEqual(store.deletes, []);
    assert.ok(store.objects.has("Postgres/tenant-other/keep"), "an app of another namespace went");
  });

  it("treats a kind that is not served (list answers 404) as having no apps", async () => {
    const { store, run } = setUp();
    await run();
    assert.ok(store.lists.includes("Redis"), "the unserved kind was not asked");
    store.served.clear();
    store.deletes.length = 0;
    assert.deepEqual(await run(), { done: true });
    assert.deepEqual(store.deletes, []);
  });

  it("is done at once for the root Tenant, without listing anything", async () => {
    const { store, run } = setUp();
    assert.deepEqual(await run(tenant("root", "tenant-root")), { done: true });
    assert.deepEqual(store.lists, []);
    assert.deepEqual(store.deletes, []);
  });

  it("fails on a list error other than 404, deleting nothing", async () => {
    const { store } = setUp();
    const broken: Client = {
      ...store.client(),
      list: async () => {
        throw new ApiError(500, "InternalError", "Internal error occurred: storage is down");
      },
    };
    const app = tenant("a", "tenant-root");
    const signal = new AbortController().signal;
    await assert.rejects(
      preDelete({ app, client: broken, signal, appKinds: kinds }),
      /storage is down/,
    );
    assert.deepEqual(store.deletes, []);
  });
});
