/**
 * Authentication and RBAC with the real kubectl against `hearth up`: a user from
 * `--token-auth-file` is refused in kube's words, then allowed through a
 * RoleBinding of an aggregated ClusterRole; impersonation from the admin; a
 * client-certificate user signed by the data directory's CA; a ServiceAccount
 * token from TokenRequest that dies with its ServiceAccount.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { issueLeaf } from "../../src/pki/index.js";
import { type Hearth, type RunResult, startHearth, waitFor } from "../support/hearth-process.js";

const BOB_TOKEN = "bob-0123456789abcdef";

describe("authentication and RBAC against hearth up", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-rbac-"));
  let h: Hearth;

  /** kubectl with another user's credentials in the admin kubeconfig's cluster. */
  const kubectlAs = (credentials: string[], args: string[]): Promise<RunResult> =>
    h.kubectl([...credentials, ...args]);
  const bob = (...args: string[]) => kubectlAs(["--token", BOB_TOKEN], args);

  before(async () => {
    const tokenFile = join(dir, "tokens.csv");
    writeFileSync(tokenFile, `${BOB_TOKEN},bob,bob-uid,"dev,qa"\n`);
    h = await startHearth({ extraArgs: ["--token-auth-file", tokenFile] });
  });
  after(async () => {
    await h?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("knows the admin and the token-file user", async () => {
    assert.match(
      await h.kubectlOk(["auth", "whoami"]),
      /Username\s+admin\n\s*Groups\s+\[system:masters system:authenticated\]/,
    );
    const r = await bob("auth", "whoami");
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Username\s+bob\nUID\s+bob-uid\nGroups\s+\[dev qa system:authenticated\]/,
    );
    const stranger = await kubectlAs(["--token", "not-a-token"], ["get", "configmaps"]);
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /You must be logged in to the server/);
  });

  it("refuses bob get, list and watch of configmaps in kube's words", async () => {
    const list = await bob("get", "configmaps", "-n", "default");
    assert.notEqual(list.code, 0);
    assert.match(
      list.stderr,
      /Error from server \(Forbidden\): configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"/,
    );
    const get = await bob("get", "configmap", "app", "-n", "default");
    assert.match(
      get.stderr,
      /configmaps "app" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "default"/,
    );
    const watch = await bob("get", "--raw", "/api/v1/namespaces/default/configmaps?watch=true");
    assert.match(
      watch.stderr,
      /configmaps is forbidden: User "bob" cannot watch resource "configmaps" in API group "" in the namespace "default"/,
    );
    const canI = await bob("auth", "can-i", "list", "configmaps", "-n", "default");
    assert.equal(canI.stdout.trim(), "no");
  });

  it("aggregates ClusterRoles into ClusterRoles, chained view → edit → admin", async () => {
    await h.kubectlOk(["apply", "-f", "-"], {
      input: `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: widget-viewer
  labels:
    rbac.authorization.k8s.io/aggregate-to-view: "true"
rules:
- apiGroups: ["example.com"]
  resources: ["widgets"]
  verbs: ["get", "list", "watch"]
`,
    });
    for (const role of ["view", "edit", "admin"]) {
      await waitFor(`${role} to aggregate widgets`, async () =>
        (
          await h.kubectlOk(["get", "clusterrole", role, "-o", "jsonpath={.rules[*].resources}"])
        ).includes("widgets"),
      );
    }
  });

  it("allows bob through a RoleBinding of an aggregated ClusterRole", async () => {
    await h.kubectlOk(["apply", "-f", "-"], {
      input: `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: team-reader
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      hearth.test/aggregate-to-team-reader: "true"
rules: []
`,
    });
    await h.kubectlOk([
      "create",
      "clusterrole",
      "cm-reader",
      "--verb=get,list,watch",
      "--resource=configmaps",
    ]);
    await h.kubectlOk([
      "label",
      "clusterrole",
      "cm-reader",
      "hearth.test/aggregate-to-team-reader=true",
    ]);
    await h.kubectlOk([
      "create",
      "rolebinding",
      "bob-team-reader",
      "--clusterrole=team-reader",
      "--user=bob",
      "-n",
      "default",
    ]);
    await h.kubectlOk(["create", "configmap", "app", "--from-literal=a=1", "-n", "default"]);

    await waitFor(
      "bob may list configmaps",
      async () =>
        (await bob("auth", "can-i", "list", "configmaps", "-n", "default")).stdout.trim() === "yes",
    );
    assert.equal(
      (await bob("auth", "can-i", "delete", "configmaps", "-n", "default")).stdout.trim(),
      "no",
    );
    assert.equal(
      (await bob("auth", "can-i", "list", "configmaps", "-n", "kube-system")).stdout.trim(),
      "no",
    );
    const listed = await bob("get", "configmaps", "-n", "default", "-o", "name");
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /configmap\/app/);
    const del = await bob("delete", "configmap", "app", "-n", "default");
    assert.match(
      del.stderr,
      /configmaps "app" is forbidden: User "bob" cannot delete resource "configmaps"/,
    );

    const rules = await bob("auth", "can-i", "--list", "-n", "default");
    assert.match(rules.stdout, /^configmaps\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    assert.match(rules.stdout, /selfsubjectaccessreviews\.authorization\.k8s\.io/);
  });

  it("lets a Role's resourceNames allow a list or watch that selects that one name", async () => {
    await h.kubectlOk(["create", "namespace", "named"]);
    for (const cm of ["app", "other"])
      await h.kubectlOk(["create", "configmap", cm, "--from-literal=a=1", "-n", "named"]);
    await h.kubectlOk([
      "create",
      "role",
      "one-configmap",
      "--verb=get,list,watch",
      "--resource=configmaps",
      "--resource-name=app",
      "-n",
      "named",
    ]);
    await h.kubectlOk([
      "create",
      "rolebinding",
      "bob-one-configmap",
      "--role=one-configmap",
      "--user=bob",
      "-n",
      "named",
    ]);
    await waitFor(
      "bob may get configmap app",
      async () => (await bob("get", "configmap", "app", "-n", "named")).code === 0,
    );
    // The selector names the object, so RBAC sees the name (kube's RequestInfoFactory).
    const selected = await bob(
      "get",
      "configmaps",
      "-n",
      "named",
      "--field-selector",
      "metadata.name=app",
      "-o",
      "name",
    );
    assert.equal(selected.code, 0, selected.stderr);
    assert.equal(selected.stdout.trim(), "configmap/app");
    const watched = await bob(
      "get",
      "--raw",
      "/api/v1/namespaces/named/configmaps?watch=1&fieldSelector=metadata.name%3Dapp&timeoutSeconds=1",
    );
    assert.equal(watched.code, 0, watched.stderr);
    const events = watched.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    assert.deepEqual(
      events.map((e) => [e.type, e.object.metadata.name]),
      [["ADDED", "app"]],
    );
    // Another name, or no name at all, is still refused, in kube's words.
    const other = await bob(
      "get",
      "configmaps",
      "-n",
      "named",
      "--field-selector",
      "metadata.name=other",
    );
    assert.match(
      other.stderr,
      /configmaps "other" is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "named"/,
    );
    const all = await bob("get", "configmaps", "-n", "named");
    assert.match(
      all.stderr,
      /configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "named"/,
    );
  });

  it("lets a namespace admin grant only what they hold", async () => {
    await h.kubectlOk(["create", "namespace", "tenant"]);
    await h.kubectlOk([
      "create",
      "rolebinding",
      "bob-admin",
      "--clusterrole=admin",
      "--user=bob",
      "-n",
      "tenant",
    ]);
    const granted = await bob(
      "create",
      "rolebinding",
      "dave-view",
      "--clusterrole=view",
      "--user=dave",
      "-n",
      "tenant",
    );
    assert.equal(granted.code, 0, granted.stderr);
    const escalated = await bob(
      "create",
      "rolebinding",
      "bob-root",
      "--clusterrole=cluster-admin",
      "--user=bob",
      "-n",
      "tenant",
    );
    assert.notEqual(escalated.code, 0);
    assert.match(
      escalated.stderr,
      /rolebindings.rbac.authorization.k8s.io "bob-root" is forbidden: user "bob" \(groups=\["dev" "qa" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}/,
    );
  });

  it("lets the admin ask as bob, and refuses bob impersonating anyone", async () => {
    assert.equal(
      (
        await h.kubectl(["--as=bob", "auth", "can-i", "list", "configmaps", "-n", "default"])
      ).stdout.trim(),
      "yes",
    );
    assert.equal(
      (
        await h.kubectl(["--as=bob", "auth", "can-i", "create", "configmaps", "-n", "default"])
      ).stdout.trim(),
      "no",
    );
    assert.match(
      await h.kubectlOk(["--as=bob", "--as-group=g1", "auth", "whoami"]),
      /Username\s+bob\nGroups\s+\[g1 system:authenticated\]/,
    );
    const r = await bob("--as=admin", "get", "configmaps");
    assert.match(
      r.stderr,
      /users "admin" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope/,
    );
  });

  it("recognises a client certificate signed by the cluster CA", async () => {
    const ca = {
      certPem: readFileSync(join(h.dataDir, "pki/ca.crt"), "utf8"),
      keyPem: readFileSync(join(h.dataDir, "pki/ca.key"), "utf8"),
    };
    const leaf = await issueLeaf(ca, {
      commonName: "carol",
      organization: ["tenant-admins"],
      usage: ["client"],
    });
    writeFileSync(join(dir, "carol.crt"), leaf.certPem);
    writeFileSync(join(dir, "carol.key"), leaf.keyPem);
    const kubeconfig = join(dir, "carol.kubeconfig");
    const config = JSON.parse(
      await h.kubectlOk(["config", "view", "--raw", "--minify", "-o", "json"]),
    );
    const cluster = config.clusters[0].cluster;
    writeFileSync(join(dir, "ca.crt"), ca.certPem);
    const k = (...args: string[]) => h.kubectlOk(["config", "--kubeconfig", kubeconfig, ...args]);
    await k(
      "set-cluster",
      "hearth",
      `--server=${cluster.server}`,
      `--certificate-authority=${join(dir, "ca.crt")}`,
      "--embed-certs",
    );
    await k(
      "set-credentials",
      "carol",
      `--client-certificate=${join(dir, "carol.crt")}`,
      `--client-key=${join(dir, "carol.key")}`,
      "--embed-certs",
    );
    await k("set-context", "carol", "--cluster=hearth", "--user=carol");
    await k("use-context", "carol");
    assert.match(readFileSync(kubeconfig, "utf8"), /client-certificate-data/);

    const whoami = await h.kubectl(["--kubeconfig", kubeconfig, "auth", "whoami"]);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.match(
      whoami.stdout,
      /Username\s+carol\nGroups\s+\[tenant-admins system:authenticated\]/,
    );
    const denied = await h.kubectl(["--kubeconfig", kubeconfig, "get", "namespaces"]);
    assert.match(
      denied.stderr,
      /namespaces is forbidden: User "carol" cannot list resource "namespaces" in API group "" at the cluster scope/,
    );
    await h.kubectlOk([
      "create",
      "clusterrolebinding",
      "tenant-admins-view",
      "--clusterrole=view",
      "--group=tenant-admins",
    ]);
    assert.match(
      await h.kubectlOk(["--kubeconfig", kubeconfig, "get", "namespaces", "-o", "name"]),
      /namespace\/default/,
    );
  });

  it("authenticates ServiceAccount tokens from TokenRequest until the ServiceAccount is deleted", async () => {
    await h.kubectlOk(["create", "serviceaccount", "robot", "-n", "default"]);
    const token = (
      await h.kubectlOk(["create", "token", "robot", "-n", "default", "--duration=20m"])
    ).trim();
    const robot = (...args: string[]) => kubectlAs(["--token", token], args);
    const me = await robot("auth", "whoami");
    assert.equal(me.code, 0, me.stderr);
    assert.match(me.stdout, /Username\s+system:serviceaccount:default:robot/);
    assert.match(
      me.stdout,
      /Groups\s+\[system:serviceaccounts system:serviceaccounts:default system:authenticated\]/,
    );
    await h.kubectlOk([
      "create",
      "rolebinding",
      "robot-view",
      "--clusterrole=view",
      "--serviceaccount=default:robot",
      "-n",
      "default",
    ]);
    await waitFor(
      "robot may list configmaps",
      async () => (await robot("auth", "can-i", "list", "configmaps")).stdout.trim() === "yes",
    );

    await h.kubectlOk(["delete", "serviceaccount", "robot", "-n", "default"]);
    const after = await robot("get", "configmaps");
    assert.notEqual(after.code, 0);
    assert.match(after.stderr, /Unauthorized|You must be logged in to the server/);
  });
});
