/**
 * Kamaji's own samples with the real kubectl against `hearth up
 * --no-node-agent`: the etcd DataStore (its endpoints pointed at a real etcd
 * with TLS, its Secrets created with `kubectl create secret`) becomes Ready
 * (`kubectl wait`), the other drivers' DataStores apply and say Hearth runs
 * etcd only, every TenantControlPlane sample applies unchanged (the one
 * Kamaji's own CRD refuses, with \`deployment\` and \`service\` misplaced, is
 * refused here too), `kubectl get tcp` prints Kamaji's columns, `kubectl scale`
 * works on the replicas, and deleting the DataStore waits for the control
 * planes that use it, naming them, then finishes once they are gone.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { type Hearth, REPO_ROOT, startHearth, waitFor } from "../support/hearth-process.js";

const SAMPLES = join(REPO_ROOT, "test/fixtures/kamaji");
const sample = (file: string) => join(SAMPLES, file);

describe("Kamaji's samples under kubectl (hearth up --no-node-agent)", () => {
  let h: Hearth;
  let etcd: EtcdProcess;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearth-kamaji-"));
    etcd = await startEtcd({ tls: true });
    h = await startHearth({ extraArgs: ["--no-node-agent"] });
  });
  after(async () => {
    await h?.cleanup();
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("makes the etcd sample DataStore Ready on a real etcd; the other drivers apply as UnsupportedDriver", async () => {
    const tls = etcd.tls!;
    const file = (name: string, pem: string) => {
      writeFileSync(join(dir, name), pem);
      return `--from-file=${name}=${join(dir, name)}`;
    };
    await h.kubectlOk(["create", "namespace", "kamaji-system"]);
    await h.kubectlOk([
      ...["create", "secret", "generic", "etcd-certs", "-n", "kamaji-system"],
      file("ca.crt", tls.caPem),
      file("ca.key", tls.caKeyPem),
    ]);
    await h.kubectlOk([
      ...["create", "secret", "generic", "root-client-certs", "-n", "kamaji-system"],
      file("tls.crt", tls.certPem),
      file("tls.key", tls.keyPem),
    ]);
    // Only the endpoints change: Kamaji's point at its in-cluster etcd.
    const manifest = readFileSync(sample("datastore_etcd.yaml"), "utf8").replace(
      /endpoints:\n(\s+- .*\n)+/,
      `endpoints:\n    - ${etcd.address}:2379\n`,
    );
    await h.kubectlOk(["apply", "-f", "-"], { input: manifest });
    await h.kubectlOk(["wait", "--for=condition=Ready", "datastore/etcd", "--timeout=60s"]);
    for (const f of readdirSync(SAMPLES).filter((n) => /^datastore_(?!etcd)/.test(n)))
      await h.kubectlOk(["apply", "-f", sample(f)]);
    const reason = await waitFor("mysql-bronze UnsupportedDriver", async () => {
      const r = await h.kubectl([
        ...["get", "datastore", "mysql-bronze"],
        "-o=jsonpath={.status.conditions[?(@.type=='Ready')].reason}",
      ]);
      return r.stdout === "UnsupportedDriver" ? r.stdout : undefined;
    });
    assert.equal(reason, "UnsupportedDriver");
  });

  it("applies every TenantControlPlane sample, refuses the one Kamaji's CRD refuses, prints Kamaji's columns, scales", async () => {
    await h.kubectlOk(["create", "namespace", "tenant-system"]);
    for (const f of readdirSync(SAMPLES).filter((n) => n.startsWith("tenantcontrolplane")))
      await h.kubectlOk(["apply", "-f", sample(f)]);
    const konn = await h.kubectl([
      "apply",
      "-f",
      sample("refused/tenantcontrolplane_konnectivity.yaml"),
    ]);
    assert.notEqual(konn.code, 0);
    assert.match(
      konn.stderr,
      /unknown field "spec\.deployment"|spec\.controlPlane: Required value/,
    );

    const table = await h.kubectlOk(["get", "tcp"]);
    const header = table.split("\n")[0]!.split(/\s{2,}/);
    assert.deepEqual(header, [
      "NAME",
      "VERSION",
      "INSTALLED VERSION",
      "STATUS",
      "CONTROL-PLANE ENDPOINT",
      "KUBECONFIG",
      "DATASTORE",
      "AGE",
    ]);
    assert.match(table, /additionalcontainers\s+v1\.26\.0/);
    // The dual-stack sample's stray \`spec:\` (null) inside spec is dropped, its lists kept.
    const cidrs = await h.kubectlOk([
      ...["get", "tcp", "k8s-133-dualstack"],
      "-o=jsonpath={.spec.networkProfile.serviceCidrs}",
    ]);
    assert.equal(cidrs, '["10.96.0.0/16","fd00::/120"]');
    await h.kubectlOk(["scale", "tcp", "additionalcontainers", "--replicas=3"]);
    const replicas = await h.kubectlOk([
      ...["get", "tcp", "additionalcontainers"],
      "-o=jsonpath={.spec.controlPlane.deployment.replicas}",
    ]);
    assert.equal(replicas, "3");
  });

  it("deletes the DataStore only once no control plane uses it, naming the users meanwhile", async () => {
    const users = ["default/additionalcontainers", "default/demo-tcp-1", "default/kine"];
    await waitFor("usedBy of etcd", async () => {
      const r = await h.kubectl(["get", "datastore", "etcd", "-o=jsonpath={.status.usedBy}"]);
      return r.stdout === JSON.stringify(users);
    });
    await h.kubectlOk(["delete", "datastore", "etcd", "--wait=false"]);
    const message = await waitFor("DeletionAllowed=False", async () => {
      const r = await h.kubectl([
        ...["get", "datastore", "etcd"],
        "-o=jsonpath={.status.conditions[?(@.type=='DeletionAllowed')].message}",
      ]);
      return r.stdout || undefined;
    });
    assert.equal(message, `waiting for 3 TenantControlPlanes to be deleted: ${users.join(", ")}`);
    await h.kubectlOk(["delete", "tcp", "--all", "-n", "default"]);
    await h.kubectlOk(["wait", "--for=delete", "datastore/etcd", "--timeout=30s"]);
  });
});
