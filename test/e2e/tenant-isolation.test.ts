/**
 * Issue 11's cross-tenant rules as properties, against `hearth up`: for every
 * tenant of a small tree (tenant-root → a → a-b, and a sibling c) and every
 * access level (view, use, admin, super-admin), impersonating the level's group
 * `<ns>-<level>`, no read, write or delete reaches outside the tenant's subtree —
 * directly (GET, LIST, WATCH, CREATE, PATCH, DELETE on the sibling's, the
 * parent's and cluster-scoped objects) or through the platform (a status it may
 * not write, a forged inventory, forged labels and owner references on its own
 * objects). Sentinel objects outside each subtree keep their resourceVersion.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { clientFromKubeconfig, type HttpClient } from "../../src/client/index.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";

const APPS = "apps.cozystack.io/v1alpha1";
const LEVELS = ["view", "use", "admin", "super-admin"] as const;

/** Each tenant namespace and the namespaces of its subtree. */
const SUBTREES: Record<string, string[]> = {
  "tenant-root": ["tenant-root", "tenant-a", "tenant-a-b", "tenant-c"],
  "tenant-a": ["tenant-a", "tenant-a-b"],
  "tenant-a-b": ["tenant-a-b"],
  "tenant-c": ["tenant-c"],
};
const NAMESPACES = ["default", "tenant-root", "tenant-a", "tenant-a-b", "tenant-c"];
/** The Tenants living in each namespace (a tenant's own Tenant lives in its parent's). */
const TENANTS_IN: Record<string, string[]> = {
  "tenant-root": ["root", "a", "c"],
  "tenant-a": ["b"],
};

interface Ref {
  path: string;
  what: string;
}

/** The sentinel objects: a ConfigMap and a Secret in every namespace, and cluster-scoped ones. */
function sentinels(): Ref[] {
  const refs: Ref[] = [];
  for (const ns of NAMESPACES) {
    refs.push({ path: `/api/v1/namespaces/${ns}/configmaps/sentinel`, what: `ConfigMap ${ns}` });
    refs.push({ path: `/api/v1/namespaces/${ns}/secrets/sentinel`, what: `Secret ${ns}` });
  }
  refs.push({
    path: "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/sentinel",
    what: "ClusterRoleBinding",
  });
  refs.push({
    path: "/apis/rbac.authorization.k8s.io/v1/clusterroles/sentinel",
    what: "ClusterRole",
  });
  return refs;
}

describe("tenant isolation under hearth up", () => {
  let hearth: Hearth;
  let client: HttpClient;
  /** resourceVersion of each sentinel when the tree was built. */
  const versions = new Map<string, string>();

  const send = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await client.request(
      method,
      path,
      body === undefined ? undefined : JSON.stringify(body),
      { "content-type": "application/json", ...headers },
    );
    return res;
  };
  const as = (ns: string, level: string) => ({
    "Impersonate-User": `user-${ns}-${level}`,
    "Impersonate-Group": `${ns}-${level}`,
  });
  const tenant = (name: string, namespace: string, extra: Partial<KubeObject> = {}) => ({
    apiVersion: APPS,
    kind: "Tenant",
    ...extra,
    metadata: { name, namespace, ...extra.metadata },
    spec: {},
  });
  const waitReady = (name: string, namespace: string) =>
    waitFor(
      `Tenant ${namespace}/${name} Ready`,
      async () => {
        const t = await client.get({ apiVersion: APPS, kind: "Tenant", name, namespace });
        const conditions = (t.status as { conditions?: { type: string; status: string }[] })
          ?.conditions;
        return conditions?.some((c) => c.type === "Ready" && c.status === "True");
      },
      40_000,
    );
  const unchanged = async () => {
    for (const ref of sentinels()) {
      const res = await send("GET", ref.path);
      assert.equal(res.status, 200, `${ref.what} sentinel is gone`);
      const obj = JSON.parse(res.body) as KubeObject;
      assert.equal(obj.metadata.resourceVersion, versions.get(ref.path), `${ref.what} changed`);
    }
  };

  before(async () => {
    hearth = await startHearth({ extraArgs: ["--no-node-agent"] });
    client = await clientFromKubeconfig(hearth.kubeconfig);
    await waitReady("root", "tenant-root");
    await client.create(tenant("a", "tenant-root"));
    await client.create(tenant("c", "tenant-root"));
    await waitReady("a", "tenant-root");
    await client.create(tenant("b", "tenant-a"));
    await waitReady("b", "tenant-a");
    await waitReady("c", "tenant-root");
    for (const ns of NAMESPACES) {
      const metadata = { name: "sentinel", namespace: ns };
      await client.create({ apiVersion: "v1", kind: "ConfigMap", metadata, data: { k: "v" } });
      await client.create({ apiVersion: "v1", kind: "Secret", metadata, data: { k: "dg==" } });
    }
    await client.create({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "sentinel" },
      rules: [],
    });
    await client.create({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "sentinel" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "sentinel" },
      subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "nobody" }],
    });
    for (const ref of sentinels()) {
      const obj = JSON.parse((await send("GET", ref.path)).body) as KubeObject;
      versions.set(ref.path, obj.metadata.resourceVersion!);
    }
  });
  after(async () => {
    client?.close();
    await hearth?.cleanup();
  });

  it("refuses every direct read, write and delete outside a tenant's subtree, at every level", async () => {
    const failures: string[] = [];
    let allowedInside = 0;
    for (const [ns, subtree] of Object.entries(SUBTREES))
      for (const level of LEVELS) {
        const headers = as(ns, level);
        const expect403 = async (method: string, path: string, body?: unknown, type?: string) => {
          const res = await send(method, path, body, {
            ...headers,
            ...(type ? { "content-type": type } : {}),
          });
          if (res.status !== 403)
            failures.push(`${ns}-${level}: ${method} ${path} → ${res.status}`);
        };
        const merge = "application/merge-patch+json";
        const label = { metadata: { labels: { touched: "yes" } } };
        for (const outside of NAMESPACES.filter((n) => !subtree.includes(n))) {
          for (const res of ["configmaps", "secrets"]) {
            const base = `/api/v1/namespaces/${outside}/${res}`;
            await expect403("GET", `${base}/sentinel`);
            await expect403("GET", base);
            await expect403("GET", `${base}?watch=1&timeoutSeconds=1`);
            await expect403("POST", base, {
              apiVersion: "v1",
              kind: res === "secrets" ? "Secret" : "ConfigMap",
              metadata: { name: "intruder" },
            });
            await expect403("PATCH", `${base}/sentinel`, label, merge);
            await expect403("DELETE", `${base}/sentinel`);
            await expect403("DELETE", base);
          }
          const tenants = `/apis/${APPS}/namespaces/${outside}/tenants`;
          await expect403("GET", tenants);
          await expect403("GET", `${tenants}?watch=1&timeoutSeconds=1`);
          await expect403("POST", tenants, tenant("intruder", outside));
          for (const name of TENANTS_IN[outside] ?? []) {
            await expect403("GET", `${tenants}/${name}`);
            await expect403("PATCH", `${tenants}/${name}`, label, merge);
            await expect403("PATCH", `${tenants}/${name}/status`, { status: {} }, merge);
            await expect403("DELETE", `${tenants}/${name}`);
          }
        }
        for (const path of [
          "/api/v1/namespaces/tenant-c",
          "/api/v1/namespaces/default",
          "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/sentinel",
          "/apis/rbac.authorization.k8s.io/v1/clusterroles/sentinel",
          "/apis/hearth.io/v1alpha1/applicationdefinitions/tenant",
        ]) {
          await expect403("GET", path);
          await expect403("PATCH", path, label, merge);
          await expect403("DELETE", path);
        }
        await expect403("GET", "/api/v1/namespaces");
        await expect403("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", {
          apiVersion: "rbac.authorization.k8s.io/v1",
          kind: "ClusterRoleBinding",
          metadata: { name: "intruder" },
          roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "admin" },
          subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: `${ns}-view` }],
        });
        // The property holds for a reason: the level does read its own subtree.
        for (const inside of subtree) {
          const res = await send(
            "GET",
            `/apis/${APPS}/namespaces/${inside}/tenants`,
            undefined,
            headers,
          );
          if (res.status === 200) allowedInside++;
          else
            failures.push(`${ns}-${level}: cannot list the Tenants of ${inside} (${res.status})`);
        }
      }
    assert.deepEqual(failures, []);
    assert.ok(allowedInside > 0);
    await unchanged();
  });

  it("grants no tenant level a write on the status of an app, even inside its subtree", async () => {
    const failures: string[] = [];
    for (const [ns, subtree] of Object.entries(SUBTREES))
      for (const level of LEVELS)
        for (const inside of subtree)
          for (const resource of ["tenants", "etcds"])
            for (const verb of ["update", "patch", "create", "delete"]) {
              const review = await client.create<KubeObject>({
                apiVersion: "authorization.k8s.io/v1",
                kind: "SubjectAccessReview",
                metadata: {},
                spec: {
                  user: "jane",
                  groups: [`${ns}-${level}`, "system:authenticated"],
                  resourceAttributes: {
                    namespace: inside,
                    verb,
                    group: "apps.cozystack.io",
                    resource,
                    subresource: "status",
                  },
                },
              });
              if ((review.status as { allowed: boolean }).allowed)
                failures.push(`${ns}-${level} may ${verb} ${resource}/status in ${inside}`);
            }
    assert.deepEqual(failures, []);
    // What kubectl users see, for the level that holds every app verb.
    const canI = await hearth.kubectl([
      "auth",
      "can-i",
      "patch",
      "tenants.apps.cozystack.io/b",
      "--subresource=status",
      "-n",
      "tenant-a",
      "--as",
      "jane",
      "--as-group",
      "tenant-a-super-admin",
    ]);
    assert.equal(canI.stdout.trim(), "no");
    // …while it still manages the apps themselves.
    const manage = await hearth.kubectl([
      "auth",
      "can-i",
      "delete",
      "tenants.apps.cozystack.io/b",
      "-n",
      "tenant-a",
      "--as",
      "jane",
      "--as-group",
      "tenant-a-super-admin",
    ]);
    assert.equal(manage.stdout.trim(), "yes");
  });

  /** Entries naming sentinels outside tenant-a-b, as a forged inventory of Tenant b. */
  const forged = [
    { apiVersion: "v1", kind: "Secret", name: "sentinel", namespace: "tenant-c" },
    { apiVersion: "v1", kind: "ConfigMap", name: "sentinel", namespace: "tenant-root" },
    { apiVersion: "v1", kind: "Secret", name: "sentinel", namespace: "tenant-a" },
    { apiVersion: "v1", kind: "ConfigMap", name: "sentinel", namespace: "tenant-a-b" },
    { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding", name: "sentinel" },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      name: "sentinel",
      namespace: "tenant-a-b",
    },
  ];

  it("refuses a super-admin's forged status, and the engine ignores a forged inventory with a Warning", async () => {
    const path = `/apis/${APPS}/namespaces/tenant-a/tenants/b/status`;
    const patch = { status: { inventory: forged } };
    const merge = { "content-type": "application/merge-patch+json" };
    const refused = await send("PATCH", path, patch, {
      ...as("tenant-a", "super-admin"),
      ...merge,
    });
    assert.equal(refused.status, 403, refused.body);
    // Had it been written (by anyone who may write status), the engine does not act on it.
    const written = await send("PATCH", path, patch, merge);
    assert.equal(written.status, 200, written.body);
    await waitFor("the forged entries dropped from the inventory", async () => {
      const b = await client.get({
        apiVersion: APPS,
        kind: "Tenant",
        name: "b",
        namespace: "tenant-a",
      });
      const inventory = (b.status as { inventory?: { name: string }[] }).inventory ?? [];
      return inventory.every((e) => e.name !== "sentinel");
    });
    const warnings = await waitFor("a Warning naming the ignored entries", async () => {
      const events = await client.list(
        { apiVersion: "v1", kind: "Event" },
        {
          namespace: "tenant-a",
          fieldSelector: "involvedObject.name=b,type=Warning",
        },
      );
      const messages = events.items.map((e) => String(e.message));
      return messages.some((m) => m.includes("ClusterRoleBinding sentinel")) && messages;
    });
    assert.ok(
      warnings.some((m) => m.includes("Secret tenant-c/sentinel")),
      warnings.join("\n"),
    );
    await unchanged();
  });

  it("deletes nothing outside a subtree on uninstall, whatever the status or labels say", async () => {
    // tenant-a's super-admin makes a Tenant of its own, labelled, annotated and owned as if it were c's.
    const ns = (await client.get({
      apiVersion: "v1",
      kind: "Namespace",
      name: "tenant-c",
    })) as KubeObject;
    const crb = (await client.get({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      name: "sentinel",
    })) as KubeObject;
    const mimic = tenant("x", "tenant-a", {
      metadata: {
        labels: {
          "apps.cozystack.io/application.kind": "Tenant",
          "apps.cozystack.io/application.group": "apps.cozystack.io",
          "apps.cozystack.io/application.name": "c",
          "apps.cozystack.io/application.uid": ns.metadata.uid!,
          "tenant.cozystack.io/tenant-c": "",
        },
        annotations: { "tenant.cozystack.io/parent-namespace": "tenant-c" },
        ownerReferences: [
          { apiVersion: "v1", kind: "Namespace", name: "tenant-c", uid: ns.metadata.uid! },
          {
            apiVersion: "rbac.authorization.k8s.io/v1",
            kind: "ClusterRoleBinding",
            name: "sentinel",
            uid: crb.metadata.uid!,
          },
        ],
      },
    });
    const superAdmin = as("tenant-a", "super-admin");
    const created = await send(
      "POST",
      `/apis/${APPS}/namespaces/tenant-a/tenants`,
      mimic,
      superAdmin,
    );
    assert.equal(created.status, 201, created.body);
    // Nor can it place an app outside its subtree.
    const outside = await send(
      "POST",
      `/apis/${APPS}/namespaces/tenant-c/tenants`,
      tenant("y", "tenant-c"),
      superAdmin,
    );
    assert.equal(outside.status, 403, outside.body);
    await waitReady("x", "tenant-a");

    // A forged inventory written just before the delete, for the uninstall to read.
    const status = `/apis/${APPS}/namespaces/tenant-a/tenants/b/status`;
    const merge = { "content-type": "application/merge-patch+json" };
    const b = await client.get({
      apiVersion: APPS,
      kind: "Tenant",
      name: "b",
      namespace: "tenant-a",
    });
    const inventory = [...((b.status as { inventory?: unknown[] }).inventory ?? []), ...forged];
    assert.equal((await send("PATCH", status, { status: { inventory } }, merge)).status, 200);
    for (const name of ["b", "x"]) {
      const res = await send(
        "DELETE",
        `/apis/${APPS}/namespaces/tenant-a/tenants/${name}`,
        undefined,
        superAdmin,
      );
      assert.ok(res.status === 200 || res.status === 202, res.body);
    }
    await waitFor(
      "Tenants b and x and their namespaces gone",
      async () => {
        for (const path of [
          `/apis/${APPS}/namespaces/tenant-a/tenants/b`,
          `/apis/${APPS}/namespaces/tenant-a/tenants/x`,
          "/api/v1/namespaces/tenant-a-b",
          "/api/v1/namespaces/tenant-a-x",
        ])
          if ((await send("GET", path)).status !== 404) return false;
        return true;
      },
      60_000,
    );
    // The sentinel that lived inside b's namespace went with it; every other one is untouched.
    versions.delete("/api/v1/namespaces/tenant-a-b/configmaps/sentinel");
    versions.delete("/api/v1/namespaces/tenant-a-b/secrets/sentinel");
    for (const ref of sentinels()) {
      if (ref.path.includes("/tenant-a-b/")) continue;
      const res = await send("GET", ref.path);
      assert.equal(res.status, 200, `${ref.what} sentinel is gone`);
      const obj = JSON.parse(res.body) as KubeObject;
      assert.equal(obj.metadata.resourceVersion, versions.get(ref.path), `${ref.what} changed`);
    }
    for (const path of [
      "/api/v1/namespaces/tenant-c",
      `/apis/${APPS}/namespaces/tenant-root/tenants/c`,
    ])
      assert.equal((await send("GET", path)).status, 200, path);
  });

  it("deletes a Tenant whatever its status held: a status outside the schema is refused", async () => {
    await client.create(tenant("d", "tenant-c"));
    await waitReady("d", "tenant-c");
    const path = `/apis/${APPS}/namespaces/tenant-c/tenants/d/status`;
    const merge = { "content-type": "application/merge-patch+json" };
    for (const status of [
      { inventory: "everything" },
      { inventory: [{ kind: 5, name: ["x"] }] },
      { conditions: "broken" },
      { conditions: [{ type: 1 }] },
    ]) {
      const res = await send("PATCH", path, { status }, merge);
      assert.equal(res.status, 422, `${JSON.stringify(status)} → ${res.status} ${res.body}`);
    }
    const res = await send("DELETE", `/apis/${APPS}/namespaces/tenant-c/tenants/d`);
    assert.ok(res.status === 200 || res.status === 202, res.body);
    await waitFor(
      "Tenant d and its namespace gone",
      async () =>
        (await send("GET", `/apis/${APPS}/namespaces/tenant-c/tenants/d`)).status === 404 &&
        (await send("GET", "/api/v1/namespaces/tenant-c-d")).status === 404,
      30_000,
    );
  });
});
