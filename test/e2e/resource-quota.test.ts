/**
 * ResourceQuota and LimitRange with the real kubectl against a real `hearth up`
 * (no node agent: pods stay Pending, which quota counts all the same): the
 * quota controller fills in `status`, admission charges each pod and refuses
 * the one over the limit with kube's message, deleting a pod frees its share,
 * a LimitRange's defaults land in a new pod and its max refuses another, the
 * default roles see both kinds, and bad input is refused with the field named.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";

const QNS = "quota-e2e";
const LNS = "limits-e2e";

const namespace = (name: string) => `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
`;

const pod = (name: string, resources: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: app
    image: busybox
    command: ["sleep", "3600"]${resources}
`;

const cpuRequest = (cpu: string) => `
    resources:
      requests:
        cpu: ${cpu}`;

const QUOTA = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: q
spec:
  hard:
    pods: "2"
    requests.cpu: "1"
    count/configmaps: "3"
`;

const LIMITS = `apiVersion: v1
kind: LimitRange
metadata:
  name: container-limits
spec:
  limits:
  - type: Container
    default:
      cpu: 500m
      memory: 128Mi
    defaultRequest:
      cpu: 100m
    max:
      cpu: "1"
`;

interface Quota {
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

describe("ResourceQuota and LimitRange with kubectl and hearth up", () => {
  let h: Hearth;
  const apply = (ns: string, yaml: string) =>
    h.kubectl(["apply", "-n", ns, "-f", "-"], { input: yaml });
  const quota = async () =>
    JSON.parse(await h.kubectlOk(["get", "quota", "q", "-n", QNS, "-o", "json"])) as Quota;
  const used = async () => (await quota()).status?.used ?? {};

  before(async () => {
    h = await startHearth({ extraArgs: ["--no-node-agent"] });
    await h.kubectlOk(["apply", "-f", "-"], { input: `${namespace(QNS)}---\n${namespace(LNS)}` });
  });
  after(async () => {
    await h?.cleanup();
  });

  it("fills in a new quota's status and prints kube's columns", async () => {
    const kinds = await h.kubectlOk(["api-resources"]);
    assert.match(kinds, /^resourcequotas\s+quota\s+v1\s+true\s+ResourceQuota$/m);
    assert.match(kinds, /^limitranges\s+limits\s+v1\s+true\s+LimitRange$/m);
    const out = await apply(QNS, QUOTA);
    assert.equal(out.code, 0, out.stderr);
    const status = await waitFor("the quota's status", async () => {
      const s = (await quota()).status;
      return s?.used?.pods !== undefined ? s : undefined;
    });
    assert.deepEqual(status.hard, { pods: "2", "requests.cpu": "1", "count/configmaps": "3" });
    assert.deepEqual(status.used, { pods: "0", "requests.cpu": "0", "count/configmaps": "0" });
    const table = await h.kubectlOk(["get", "quota", "-n", QNS]);
    assert.match(table, /^NAME\s+AGE\s+REQUEST\s+LIMIT\s*$/m);
    assert.match(table, /^q\s+\S+\s+count\/configmaps: 0\/3, pods: 0\/2, requests\.cpu: 0\/1\s*$/m);
  });

  it("charges pods as they are admitted and refuses the one over the limit", async () => {
    for (const name of ["p1", "p2"]) {
      const r = await apply(QNS, pod(name, cpuRequest("250m")));
      assert.equal(r.code, 0, r.stderr);
    }
    // Admission charged both before they were stored: no waiting for the controller.
    assert.deepEqual(await used(), { pods: "2", "requests.cpu": "500m", "count/configmaps": "0" });
    const refused = await apply(QNS, pod("p3", cpuRequest("250m")));
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /Error from server \(Forbidden\): .*pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2/,
    );
    assert.match((await h.kubectl(["get", "pod", "p3", "-n", QNS])).stderr, /pods "p3" not found/);
  });

  it("frees a deleted pod's share, and then admits the next pod", async () => {
    await h.kubectlOk(["delete", "pod", "p1", "-n", QNS]);
    await waitFor("usage to drop", async () => (await used()).pods === "1");
    assert.equal((await used())["requests.cpu"], "250m");
    const bare = await apply(QNS, pod("bare", ""));
    assert.match(
      bare.stderr,
      /pods "bare" is forbidden: failed quota: q: must specify requests\.cpu for: app/,
    );
    const r = await apply(QNS, pod("p3", cpuRequest("500m")));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(await used(), { pods: "2", "requests.cpu": "750m", "count/configmaps": "0" });
  });

  it("counts any kind by count/<resource>", async () => {
    for (const name of ["c1", "c2", "c3"])
      await h.kubectlOk(["create", "configmap", name, "-n", QNS, "--from-literal=k=v"]);
    const r = await h.kubectl(["create", "configmap", "c4", "-n", QNS]);
    assert.match(
      r.stderr,
      /configmaps "c4" is forbidden: exceeded quota: q, requested: count\/configmaps=1, used: count\/configmaps=3, limited: count\/configmaps=3/,
    );
    await h.kubectlOk(["delete", "configmap", "c1", "-n", QNS]);
    await waitFor(
      "the configmap's count to drop",
      async () => (await used())["count/configmaps"] === "2",
    );
  });

  it("fills a new pod's resources from the LimitRange and refuses one over its max", async () => {
    const lr = await apply(LNS, LIMITS);
    assert.equal(lr.code, 0, lr.stderr);
    assert.match(
      await h.kubectlOk(["get", "limits", "-n", LNS]),
      /^NAME\s+CREATED AT\s*\ncontainer-limits\s+\d{4}-\d\d-\d\dT/m,
    );
    const r = await apply(LNS, pod("defaulted", ""));
    assert.equal(r.code, 0, r.stderr);
    const created = JSON.parse(
      await h.kubectlOk(["get", "pod", "defaulted", "-n", LNS, "-o", "json"]),
    );
    assert.deepEqual(created.spec.containers[0].resources, {
      limits: { cpu: "500m", memory: "128Mi" },
      requests: { cpu: "100m", memory: "128Mi" },
    });
    assert.equal(
      created.metadata.annotations["kubernetes.io/limit-ranger"],
      "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app",
    );
    assert.equal(created.status.qosClass, "Burstable");
    const big = await apply(LNS, pod("big", '\n    resources:\n      limits:\n        cpu: "2"'));
    assert.match(
      big.stderr,
      /pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2/,
    );
  });

  it("lets the view role read both kinds and keeps them out of admin's writes", async () => {
    const bindings = ["view", "admin"]
      .map(
        (role) => `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: ${role}-user
subjects:
- kind: User
  name: ${role}-user
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: ${role}
  apiGroup: rbac.authorization.k8s.io
`,
      )
      .join("---\n");
    assert.equal((await apply(QNS, bindings)).code, 0);
    const canI = async (user: string, verb: string, resource: string) =>
      (await h.kubectl(["auth", "can-i", verb, resource, "-n", QNS, "--as", user])).stdout.trim();
    assert.equal(await canI("view-user", "list", "resourcequotas"), "yes");
    assert.equal(await canI("view-user", "get", "limitranges"), "yes");
    assert.equal(await canI("admin-user", "create", "resourcequotas"), "no");
    assert.equal(await canI("admin-user", "delete", "limitranges"), "no");
  });

  it("refuses bad input with the field named", async () => {
    const badRange = await apply(
      LNS,
      LIMITS.replace("name: container-limits", "name: bad").replace('cpu: "1"', "cpu: lots"),
    );
    assert.match(
      badRange.stderr,
      /LimitRange "bad" is invalid: spec\.limits\[0\]\.max\[cpu\]: Invalid value: "lots": quantities must match the regular expression/,
    );
    const badQuota = await apply(
      QNS,
      QUOTA.replace("name: q", "name: bad").replace("pods:", "fish:"),
    );
    assert.match(
      badQuota.stderr,
      /ResourceQuota "bad" is invalid: [\s\S]*spec\.hard\[fish\]: Invalid value: "fish": must be a standard resource for quota/,
    );
    const names = await h.kubectlOk(["get", "quota,limits", "-A", "-o", "name"]);
    assert.doesNotMatch(names, /\/bad$/m);
  });
});
