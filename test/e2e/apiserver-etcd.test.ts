/**
 * Several `hearth apiserver` processes on one real etcd (TLS, client
 * certificates) serve one API, driven by the real kubectl: a write through one
 * shows in a watch on the other, a CRD applied through one is served by the
 * other, a stale update after the other's write is a 409, a namespace made
 * through one takes content through the other at once and refuses it once
 * deleted, creates racing through both cannot overrun a quota, and a `kill -9` of
 * one during a burst of creates loses no acknowledged create. Then `hearth up
 * --etcd-servers` runs the whole platform on etcd.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient } from "../../src/client/index.js";
import {
  type ApiserverProcess,
  etcdFlags,
  exited,
  startApiserver,
} from "../support/apiserver-process.js";
import { type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { run, startHearth, waitFor } from "../support/hearth-process.js";

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: integer}}}
`;

describe("two hearth apiservers on one etcd", () => {
  let etcd: EtcdProcess;
  let dataDir: string;
  let home: string;
  let a: ApiserverProcess;
  let b: ApiserverProcess;

  before(async () => {
    etcd = await startEtcd({ tls: true });
    dataDir = mkdtempSync(join(tmpdir(), "hearth-apiservers-"));
    home = mkdtempSync(join(tmpdir(), "hearth-kubectl-home-"));
    // The first creates DIR/pki; the second shares it, so both accept the same users.
    a = await startApiserver(etcd, dataDir, home);
    b = await startApiserver(etcd, dataDir, home);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await etcd?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("shows a write through one in a watch on the other", async () => {
    const watch = spawn("kubectl", ["get", "configmaps", "-n", "default", "-w", "-o", "name"], {
      env: {
        ...process.env,
        HOME: home,
        KUBECONFIG: join(dataDir, `admin-${new URL(b.url).port}.kubeconfig`),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let seen = "";
    watch.stdout!.on("data", (d) => (seen += d));
    try {
      // The watch is established once it has listed (kube-root-ca is absent here: no controllers).
      await a.kubectlOk(["create", "configmap", "before-watch", "-n", "default"]);
      await waitFor("the watch's initial list", () => seen.includes("configmap/before-watch"));
      await a.kubectlOk([
        "create",
        "configmap",
        "through-a",
        "-n",
        "default",
        "--from-literal=k=v",
      ]);
      await waitFor("the event on b", () => seen.includes("configmap/through-a"));
    } finally {
      watch.kill("SIGKILL");
      await exited(watch);
    }
  });

  it("serves on one a CRD applied through the other", async () => {
    await a.kubectlOk(["apply", "-f", "-"], CRD);
    // The writer serves it as soon as the create returned (it waits for its own watch).
    await a.kubectlOk(["get", "widgets", "-A"]);
    await waitFor(
      "widgets served by b",
      async () => (await b.kubectl(["get", "widgets", "-A"])).code === 0,
    );
    await b.kubectlOk(
      ["apply", "-f", "-"],
      "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1, namespace: default}\nspec: {size: 3}\n",
    );
    const size = await a.kubectlOk([
      "get",
      "widget",
      "w1",
      "-n",
      "default",
      "-o",
      "jsonpath={.spec.size}",
    ]);
    assert.equal(size, "3");
    // A field outside the schema is refused by both, as kubectl validates server-side.
    const bad = await a.kubectl(
      ["apply", "-f", "-"],
      "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2, namespace: default}\nspec: {size: big}\n",
    );
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.size/);
  });

  it("refuses a stale update on one after a write on the other with 409", async () => {
    await a.kubectlOk(["create", "configmap", "contended", "-n", "default", "--from-literal=v=1"]);
    const stale = await a.kubectlOk([
      "get",
      "configmap",
      "contended",
      "-n",
      "default",
      "-o",
      "json",
    ]);
    await b.kubectlOk(["label", "configmap", "contended", "-n", "default", "winner=b"]);
    const obj = JSON.parse(stale) as KubeObject & { data: Record<string, string> };
    obj.data.v = "2";
    const r = await a.kubectl(["replace", "-f", "-"], JSON.stringify(obj));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Conflict|the object has been modified/);
    const now = await b.kubectlOk(["get", "configmap", "contended", "-n", "default", "-o", "json"]);
    const current = JSON.parse(now) as KubeObject & { data: Record<string, string> };
    assert.equal(current.data.v, "1");
    assert.equal(current.metadata.labels?.winner, "b");
  });

  const client = (url: string) =>
    createHttpClient({
      server: url,
      caPem: readFileSync(join(dataDir, "pki", "ca.crt"), "utf8"),
      token: readFileSync(join(dataDir, "pki", "admin.token"), "utf8").trim(),
    });

  it("gives Services created at once through both distinct ClusterIPs", async () => {
    const clients = [client(a.url), client(b.url)];
    try {
      const created = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          clients[i % 2]!.create({
            apiVersion: "v1",
            kind: "Service",
            metadata: { name: `svc-${i}`, namespace: "default" },
            spec: { ports: [{ port: 80 }] },
          }),
        ),
      );
      const ips = created.map((svc: KubeObject) => (svc.spec as { clusterIP: string }).clusterIP);
      assert.equal(new Set(ips).size, 16, `duplicate ClusterIPs: ${ips.join(" ")}`);
    } finally {
      for (const c of clients) c.close();
    }
  });

  it("takes content in a namespace created through the other at once, and refuses it once deleted", async () => {
    await a.kubectlOk(["create", "namespace", "shared"]);
    // b's namespace cache may not have it yet: b reads storage rather than refuse.
    await b.kubectlOk(["create", "configmap", "first", "-n", "shared"]);
    // No namespace controller runs here, so the namespace stays Terminating.
    await a.kubectlOk(["delete", "namespace", "shared", "--wait=false"]);
    const terminating =
      /unable to create new content in namespace shared because it is being terminated/;
    const onA = await a.kubectl(["create", "configmap", "late", "-n", "shared"]);
    assert.notEqual(onA.code, 0);
    assert.match(onA.stderr, terminating);
    await waitFor("b to refuse content in the Terminating namespace", async () => {
      const r = await b.kubectl(["create", "configmap", "late", "-n", "shared"]);
      return r.code !== 0 && terminating.test(r.stderr);
    });
  });

  it("lets creates racing through both take a quota's last units only once", async () => {
    const [ca, cb] = [client(a.url), client(b.url)];
    const configMap = (name: string) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: "quota-shared" },
    });
    try {
      await a.kubectlOk(["create", "namespace", "quota-shared"]);
      await a.kubectlOk(
        ["apply", "-f", "-"],
        "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: quota-shared}\nspec: {hard: {configmaps: '3'}}\n",
      );
      // No quota controller runs here: measure the (empty) namespace by hand.
      await a.kubectlOk([
        "patch",
        "resourcequota",
        "q",
        "-n",
        "quota-shared",
        "--subresource=status",
        "--type=merge",
        "-p",
        '{"status":{"hard":{"configmaps":"3"},"used":{"configmaps":"0"}}}',
      ]);
      // Until b's quota cache has that status, b refuses ("status unknown") or does not charge.
      await waitFor("b to check against the measured quota", async () => {
        try {
          await cb.create(configMap("probe"), { dryRun: true });
          return true;
        } catch {
          return false;
        }
      });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) => [ca, cb][i % 2]!.create(configMap(`cm-${i}`))),
      );
      const refused = results.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : []));
      assert.equal(results.length - refused.length, 3, refused.join("\n"));
      for (const why of refused) assert.match(why, /exceeded quota: q/);
      const quota = JSON.parse(
        await b.kubectlOk(["get", "resourcequota", "q", "-n", "quota-shared", "-o", "json"]),
      ) as KubeObject & { status: { used: Record<string, string> } };
      assert.equal(quota.status.used.configmaps, "3");
    } finally {
      ca.close();
      cb.close();
    }
  });

  it("keeps every acknowledged create when one is killed -9 during a burst", async () => {
    const victim = client(a.url);
    const acknowledged: string[] = [];
    let failed = 0;
    const worker = async (w: number) => {
      for (let i = 0; failed === 0; i++) {
        const name = `burst-${w}-${i}`;
        try {
          await victim.create({
            apiVersion: "v1",
            kind: "ConfigMap",
            metadata: { name, namespace: "default" },
            data: { i: String(i) },
          });
          acknowledged.push(name);
        } catch {
          failed++;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    await waitFor("creates under way", () => acknowledged.length >= 40);
    await a.kill9();
    await Promise.all(workers);
    victim.close();
    const survivor = client(b.url);
    try {
      const list = await survivor.list(
        { apiVersion: "v1", kind: "ConfigMap" },
        { namespace: "default" },
      );
      const stored = new Set(list.items.map((cm) => cm.metadata.name));
      const lost = acknowledged.filter((n) => !stored.has(n));
      assert.ok(acknowledged.length >= 40);
      assert.deepEqual(lost, []);
    } finally {
      survivor.close();
    }
  });
});

describe("hearth up on etcd", () => {
  let etcd: EtcdProcess;

  before(async () => {
    etcd = await startEtcd({ tls: true });
  });
  after(async () => {
    await etcd?.stop();
  });

  it("runs the platform and serves kubectl, also through a second apiserver", async () => {
    const hearth = await startHearth({
      extraArgs: ["--no-node-agent", ...etcdFlags(etcd, "/up")],
      timeoutMs: 90_000,
    });
    try {
      await hearth.kubectlOk(["create", "namespace", "on-etcd"]);
      await hearth.kubectlOk([
        "create",
        "configmap",
        "c",
        "-n",
        "on-etcd",
        "--from-literal=k=round-trip",
      ]);
      const value = await hearth.kubectlOk([
        "get",
        "configmap",
        "c",
        "-n",
        "on-etcd",
        "-o",
        "jsonpath={.data.k}",
      ]);
      assert.equal(value, "round-trip");
      // The objects are in etcd under the prefix, as etcdctl shows.
      const keys = await run("etcdctl", [
        ...etcd.etcdctlArgs(),
        "get",
        "--prefix",
        "--keys-only",
        "/up/registry/core/configmaps/on-etcd/",
      ]);
      assert.equal(keys.code, 0, keys.stderr);
      assert.match(keys.stdout, /\/up\/registry\/core\/configmaps\/on-etcd\/c/);

      // A second, bare apiserver on the same etcd serves the same API, the
      // platform's kinds and admission checks included; the first one's
      // apps engine reconciles what is created through it.
      const home = mkdtempSync(join(tmpdir(), "hearth-kubectl-home-"));
      const b = await startApiserver(etcd, hearth.dataDir, home, "/up");
      try {
        const tenant = (name: string) =>
          `{"apiVersion":"apps.cozystack.io/v1alpha1","kind":"Tenant","metadata":{"name":"${name}","namespace":"tenant-root"},"spec":{}}`;
        const bad = await b.kubectl(["create", "-f", "-"], tenant("bad-name"));
        assert.notEqual(bad.code, 0);
        assert.match(bad.stderr, /metadata\.name.*lowercase letters and digits/);
        await b.kubectlOk(["create", "-f", "-"], tenant("viab"));
        await b.kubectlOk([
          "wait",
          "--for=condition=Ready",
          "tenants/viab",
          "-n",
          "tenant-root",
          "--timeout=60s",
        ]);
        assert.equal(
          await hearth.kubectlOk(["get", "namespace", "tenant-viab", "-o", "name"]),
          "namespace/tenant-viab\n",
        );
      } finally {
        await b.stop();
        rmSync(home, { recursive: true, force: true });
      }
    } finally {
      await hearth.cleanup();
    }
  });
});
