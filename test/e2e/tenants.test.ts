/**
 * Issue 5's acceptance with real kubectl against `hearth up`: Cozystack-style
 * Tenant manifests apply unchanged and build the tree (namespaces, labels,
 * values, RBAC, quota); tenant access by group through the tree; the
 * guardrails; bad input refused with the field and the rule; and deleting a
 * Tenant removes its subtree deepest first, leaving nothing behind.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import type { KubeObject, WatchEvent } from "../../src/api/types.js";
import { clientFromKubeconfig, type HttpClient } from "../../src/client/index.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";

const TREE = `
apiVersion: apps.cozystack.io/v1alpha1
kind: Tenant
metadata:
  name: alpha
  namespace: tenant-root
spec:
  resourceQuotas:
    cpu: "4"
    memory: 8Gi
    pods: "20"
`;
const CHILD = `
apiVersion: apps.cozystack.io/v1alpha1
kind: Tenant
metadata:
  name: beta
  namespace: tenant-alpha
spec:
  resourceQuotas:
    cpu: "1"
`;

function tenant(name: string, namespace: string, spec: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "apps.cozystack.io/v1alpha1",
    kind: "Tenant",
    metadata: { name, namespace },
    spec,
  });
}

describe("tenants under hearth up", () => {
  let hearth: Hearth;
  let client: HttpClient;

  before(async () => {
    hearth = await startHearth({ extraArgs: ["--no-node-agent", "--root-host", "example.org"] });
    client = await clientFromKubeconfig(hearth.kubeconfig);
  });
  after(async () => {
    client?.close();
    await hearth?.cleanup();
  });

  const json = async (args: string[]) =>
    JSON.parse(await hearth.kubectlOk([...args, "-o", "json"])) as KubeObject;

  it("serves tenant-root from the first start, protected from deletion", async () => {
    const ns = await json(["get", "namespace", "tenant-root"]);
    assert.equal(ns.metadata.labels?.["platform.cozystack.io/no-delete"], "true");
    const root = await json(["get", "tenants.apps.cozystack.io", "root", "-n", "tenant-root"]);
    assert.equal(root.metadata.labels?.["platform.cozystack.io/no-delete"], "true");
    for (const args of [
      ["delete", "namespace", "tenant-root"],
      ["delete", "tenants.apps.cozystack.io", "root", "-n", "tenant-root"],
    ]) {
      const r = await hearth.kubectl(args);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Forbidden.*platform\.cozystack\.io\/no-delete=true/);
    }
    const defs = await hearth.kubectlOk(["get", "applicationdefinitions"]);
    assert.match(defs, /tenant\s+Tenant\s+tenant-\s+True/);
  });

  it("builds a tenant tree from Cozystack manifests, with labels, values, RBAC and quota", async () => {
    await hearth.kubectlOk(["apply", "-f", "-"], { input: TREE });
    await hearth.kubectlOk(
      [
        "wait",
        "--for=condition=Ready",
        "tenants.apps.cozystack.io/alpha",
        "-n",
        "tenant-root",
        "--timeout=30s",
      ],
      { timeoutMs: 40_000 },
    );
    await hearth.kubectlOk(["apply", "-f", "-"], { input: CHILD });
    await hearth.kubectlOk(
      [
        "wait",
        "--for=condition=Ready",
        "tenants.apps.cozystack.io/beta",
        "-n",
        "tenant-alpha",
        "--timeout=30s",
      ],
      { timeoutMs: 40_000 },
    );
    const table = await hearth.kubectlOk(["get", "tenants", "-A"]);
    assert.match(table, /NAMESPACE\s+NAME\s+READY\s+AGE\s+VERSION/);
    assert.match(table, /tenant-alpha\s+beta\s+True/);

    const alphaNs = await json(["get", "namespace", "tenant-alpha"]);
    const betaNs = await json(["get", "namespace", "tenant-alpha-beta"]);
    const rootNs = await json(["get", "namespace", "tenant-root"]);
    for (const label of ["tenant.cozystack.io/tenant-root", "tenant.cozystack.io/tenant-alpha"]) {
      assert.equal(alphaNs.metadata.labels?.[label], "");
      assert.equal(betaNs.metadata.labels?.[label], "");
    }
    assert.equal(betaNs.metadata.labels?.["tenant.cozystack.io/tenant-alpha-beta"], "");
    assert.equal(alphaNs.metadata.labels?.["tenant.cozystack.io/tenant-alpha-beta"], undefined);
    assert.equal(alphaNs.metadata.labels?.["apps.cozystack.io/application.kind"], "Tenant");
    assert.equal(alphaNs.metadata.labels?.["apps.cozystack.io/application.name"], "alpha");
    assert.deepEqual(
      alphaNs.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]),
      [["Namespace", "tenant-root", rootNs.metadata.uid]],
    );
    assert.equal(betaNs.metadata.ownerReferences?.[0]?.uid, alphaNs.metadata.uid);

    const secret = await json(["get", "secret", "cozystack-values", "-n", "tenant-alpha-beta"]);
    const values = parse(
      Buffer.from((secret.data as Record<string, string>)["values.yaml"]!, "base64").toString(),
    ) as { _namespace: Record<string, string>; _cluster: Record<string, string> };
    assert.equal(values._namespace.host, "beta.alpha.example.org");
    assert.equal(values._cluster["root-host"], "example.org");

    const bindings = await json(["get", "rolebindings", "-n", "tenant-alpha-beta"]);
    const items = (bindings as unknown as { items: KubeObject[] }).items;
    assert.deepEqual(items.map((b) => b.metadata.name).sort(), [
      "cozy:tenant:admin",
      "cozy:tenant:super-admin",
      "cozy:tenant:use",
      "cozy:tenant:view",
    ]);
    const view = items.find((b) => b.metadata.name === "cozy:tenant:view")!;
    const groups = (view.subjects as { name: string }[]).map((s) => s.name);
    for (const g of [
      "tenant-root-view",
      "tenant-alpha-view",
      "tenant-alpha-beta-view",
      "tenant-alpha-admin",
    ])
      assert.ok(groups.includes(g), `${g} in ${groups.join(",")}`);

    const quota = await json(["get", "resourcequota", "tenant-quota", "-n", "tenant-alpha"]);
    assert.deepEqual((quota.spec as { hard: Record<string, string> }).hard, {
      "requests.cpu": "4",
      "limits.cpu": "4",
      "requests.memory": "8Gi",
      "limits.memory": "8Gi",
      pods: "20",
    });
    await json(["get", "limitrange", "tenant-limits", "-n", "tenant-alpha"]);
    const alpha = await json(["get", "tenant", "alpha", "-n", "tenant-root"]);
    assert.equal((alpha.status as { namespace?: string }).namespace, "tenant-alpha");
  });

  it("gives a tenant's groups its whole subtree and nothing above it", async () => {
    const as = (group: string) => ["--as", "jane", "--as-group", group];
    const viewer = as("tenant-alpha-view");
    await hearth.kubectlOk(["get", "tenants", "-n", "tenant-alpha", ...viewer]);
    await hearth.kubectlOk(["get", "tenants", "-n", "tenant-alpha-beta", ...viewer]);
    const above = await hearth.kubectl(["get", "tenants", "-n", "tenant-root", ...viewer]);
    assert.notEqual(above.code, 0);
    assert.match(above.stderr, /Forbidden/);
    const create = await hearth.kubectl(["create", "-f", "-", ...viewer], {
      input: tenant("gamma", "tenant-alpha"),
    });
    assert.notEqual(create.code, 0);
    assert.match(create.stderr, /forbidden/i);
    // Admins manage apps (kinds served later, e.g. Postgres); only super-admins make tenants.
    const allowed = async (group: string, namespace: string, resource: string) => {
      const review = await client.create<KubeObject>({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        metadata: {},
        spec: {
          user: "jane",
          groups: [group, "system:authenticated"],
          resourceAttributes: { namespace, verb: "create", group: "apps.cozystack.io", resource },
        },
      });
      return (review.status as { allowed: boolean }).allowed;
    };
    assert.equal(await allowed("tenant-alpha-view", "tenant-alpha", "postgreses"), false);
    assert.equal(await allowed("tenant-alpha-admin", "tenant-alpha", "postgreses"), true);
    assert.equal(await allowed("tenant-alpha-admin", "tenant-alpha-beta", "postgreses"), true);
    assert.equal(await allowed("tenant-alpha-admin", "tenant-root", "postgreses"), false);
    assert.equal(await allowed("tenant-alpha-admin", "tenant-alpha", "tenants"), false);
    await hearth.kubectlOk(
      ["create", "--dry-run=server", "-f", "-", ...as("tenant-alpha-super-admin")],
      {
        input: tenant("gamma", "tenant-alpha"),
      },
    );
  });

  it("refuses a direct delete of a tenant namespace with the way to do it", async () => {
    const r = await hearth.kubectl(["delete", "namespace", "tenant-alpha"]);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /namespace tenant-alpha belongs to the Tenant alpha; delete the Tenant instead: kubectl delete tenants\.apps\.cozystack\.io alpha -n tenant-root/,
    );
    await json(["get", "namespace", "tenant-alpha"]);
  });

  it("refuses bad tenants with the field and the rule, and writes nothing", async () => {
    const refused = async (manifest: string, pattern: RegExp) => {
      const r = await hearth.kubectl(["apply", "-f", "-"], { input: manifest });
      assert.notEqual(r.code, 0, manifest);
      assert.match(r.stderr, pattern);
    };
    await refused(
      tenant("with-dash", "tenant-alpha"),
      /metadata\.name: Invalid value: "with-dash": must match \^\[a-z\]\[a-z0-9\]\*\$/,
    );
    await refused(
      tenant("upper", "tenant-alpha").replace('"upper"', '"Upper"'),
      /metadata\.name: Invalid value: "Upper"/,
    );
    const long = "a".repeat(50);
    await refused(
      tenant(long, "tenant-alpha-beta"),
      /would be 68 characters long, over the 63-character limit/,
    );
    await refused(
      tenant("gamma", "tenant-alpha", { monitoring: true }),
      /spec\.monitoring: Forbidden: the monitoring module \(Monitoring\) is not available in this version/,
    );
    await refused(
      tenant("gamma", "tenant-alpha", { host: 5 }),
      /spec\.host: Invalid value: "integer": spec\.host in body must be of type string/,
    );
    await refused(
      tenant("gamma", "tenant-alpha", { _namespace: { etcd: "x" } }),
      /keys starting with '_' are reserved/,
    );
    await refused(
      tenant("gamma", "tenant-alpha", { resourceQuotas: { cpu: "5" } }),
      /spec\.resourceQuotas\.cpu: Invalid value: "5": exceeds what the parent tenant has left: requests\.cpu 3 of 4/,
    );
    await refused(
      tenant("gamma", "default"),
      /metadata\.namespace: Invalid value: "default": a Tenant is created in a tenant namespace/,
    );
    const list = await hearth.kubectlOk(["get", "tenants", "-A", "-o", "name"]);
    assert.equal(
      list.trim().split("\n").sort().join(" "),
      "tenant.apps.cozystack.io/alpha tenant.apps.cozystack.io/beta tenant.apps.cozystack.io/root",
    );
  });

  it("deletes a tenant's subtree deepest first and leaves nothing behind", async () => {
    const seen: { rv: number; type: string; kind: string; name: string; deleting: boolean }[] = [];
    const stop = new AbortController();
    const record = async (apiVersion: string, kind: string) => {
      const list = await client.list({ apiVersion, kind });
      try {
        for await (const ev of client.watch(
          { apiVersion, kind },
          { resourceVersion: list.metadata.resourceVersion!, signal: stop.signal },
        )) {
          const e = ev as WatchEvent<KubeObject>;
          seen.push({
            rv: Number(e.object.metadata.resourceVersion),
            type: e.type,
            kind,
            name: e.object.metadata.name!,
            deleting: e.object.metadata.deletionTimestamp !== undefined,
          });
        }
      } catch (e) {
        if (!stop.signal.aborted) throw e;
      }
    };
    const watches = [record("v1", "Namespace"), record("apps.cozystack.io/v1alpha1", "Tenant")];
    await hearth.kubectlOk(
      ["delete", "tenants.apps.cozystack.io", "alpha", "-n", "tenant-root", "--timeout=60s"],
      {
        timeoutMs: 70_000,
      },
    );
    await waitFor("the tree gone", async () => {
      const ns = await hearth.kubectlOk(["get", "namespaces", "-o", "name"]);
      return ns.includes("tenant-alpha") ? undefined : ns;
    });
    await waitFor("the watches to see the alpha Tenant go", () =>
      seen.some((e) => e.kind === "Tenant" && e.name === "alpha" && e.type === "DELETED"),
    );
    stop.abort();
    await Promise.all(watches);
    const at = (kind: string, name: string, type: string, deleting?: boolean) => {
      const e = seen.find(
        (s) =>
          s.kind === kind &&
          s.name === name &&
          s.type === type &&
          (deleting === undefined || s.deleting === deleting),
      );
      assert.ok(e, `${type} ${kind} ${name} in ${JSON.stringify(seen)}`);
      return e.rv;
    };
    const betaNsGone = at("Namespace", "tenant-alpha-beta", "DELETED");
    const betaGone = at("Tenant", "beta", "DELETED");
    const alphaNsDeleting = at("Namespace", "tenant-alpha", "MODIFIED", true);
    const alphaGone = at("Tenant", "alpha", "DELETED");
    assert.ok(betaNsGone < betaGone, "the child's namespace goes before the child Tenant");
    assert.ok(
      betaGone < alphaNsDeleting,
      "the child Tenant is gone before the parent's namespace is deleted",
    );
    assert.ok(alphaNsDeleting < alphaGone, "the parent's namespace goes before the parent Tenant");
    for (const [kind, ns] of [
      ["secrets", "tenant-alpha"],
      ["rolebindings", "tenant-alpha"],
      ["secrets", "tenant-alpha-beta"],
      ["resourcequotas", "tenant-alpha"],
    ] as const) {
      const r = await hearth.kubectlOk(["get", kind, "-n", ns, "-o", "name"]);
      assert.equal(r.trim(), "", `${kind} left in ${ns}`);
    }
  });
});
