/**
 * The real kubectl against a real `hearth up`: discovery, apply of a CRD and its
 * objects, get in every output, watch, label, patch, server-side apply, explain,
 * delete with and without --wait, dry-run patch and delete, and a Conflict on a
 * stale update.
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, REPO_ROOT, startHearth, waitFor } from "../support/hearth-process.js";

const fixture = (name: string) => join(REPO_ROOT, "test/fixtures", name);

describe("kubectl against hearth up", () => {
  let h: Hearth;

  before(async () => {
    h = await startHearth();
    await h.kubectlOk(["apply", "-f", fixture("crontab-crd.yaml")]);
    await h.kubectlOk([
      "wait",
      "--for=condition=Established",
      "crd/crontabs.stable.example.com",
      "--timeout=20s",
    ]);
  });
  after(async () => {
    await h?.cleanup();
  });

  it("lists built-in and custom resources in api-resources", async () => {
    const out = await h.kubectlOk(["api-resources"]);
    for (const row of [
      /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m,
      /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m,
      /^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m,
      /^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/m,
    ]) {
      assert.match(out, row);
    }
  });

  it("creates with apply, then updates by re-apply", async () => {
    assert.match(
      await h.kubectlOk(["apply", "-f", fixture("crontab.yaml")]),
      /crontab.stable.example.com\/nightly created/,
    );
    const changed = (await import("node:fs"))
      .readFileSync(fixture("crontab.yaml"), "utf8")
      .replace("replicas: 1", "replicas: 3");
    assert.match(
      await h.kubectlOk(["apply", "-f", "-"], { input: changed }),
      /crontab.stable.example.com\/nightly configured/,
    );
    const obj = JSON.parse(await h.kubectlOk(["get", "crontab", "nightly", "-o", "json"]));
    assert.equal(obj.spec.replicas, 3);
    assert.equal(obj.metadata.generation, 2);
    assert.ok(obj.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]);
  });

  it("prints tables with printer columns, wide, all namespaces and labels", async () => {
    const table = await h.kubectlOk(["get", "crontabs"]);
    assert.match(table, /^NAME\s+SPEC\s+REPLICAS\s+AGE$/m);
    assert.match(table, /^nightly\s+0 3 \* \* \*\s+3\s+\d+s$/m);
    const wide = await h.kubectlOk(["get", "ct", "-o", "wide"]);
    assert.match(wide, /^NAME\s+SPEC\s+REPLICAS\s+IMAGE\s+AGE$/m);
    assert.match(wide, /backup:1/);
    const all = await h.kubectlOk(["get", "crontabs", "-A", "--show-labels"]);
    assert.match(all, /^NAMESPACE\s+NAME\s+SPEC\s+REPLICAS\s+AGE\s+LABELS$/m);
    assert.match(all, /^default\s+nightly\s+.*team=ops$/m);
    const yaml = await h.kubectlOk(["get", "crontab", "nightly", "-o", "yaml"]);
    assert.match(yaml, /^kind: CronTab$/m);
    assert.match(yaml, /^ {2}cronSpec: 0 3 \* \* \*$/m);
    const ns = await h.kubectlOk(["get", "namespaces"]);
    assert.match(ns, /^NAME\s+STATUS\s+AGE$/m);
    assert.match(ns, /^kube-system\s+Active\s+/m);
  });

  it("sees a change with get -w", async () => {
    const watcher = h.kubectlSpawn([
      "get",
      "crontab",
      "nightly",
      "-w",
      "-o",
      "custom-columns=NAME:.metadata.name,IMAGE:.spec.image",
      "--no-headers",
    ]);
    let out = "";
    watcher.stdout!.on("data", (d) => (out += d));
    try {
      await waitFor("initial watch row", () => out.includes("backup:1"));
      await h.kubectlOk([
        "patch",
        "crontab",
        "nightly",
        "--type=merge",
        "-p",
        '{"spec":{"image":"backup:2"}}',
      ]);
      await waitFor("watched change", () => out.includes("backup:2"));
    } finally {
      watcher.kill("SIGTERM");
      await once(watcher, "exit");
    }
  });

  it("labels and patches with merge and json patches", async () => {
    await h.kubectlOk(["label", "crontab", "nightly", "tier=gold"]);
    await h.kubectlOk([
      "patch",
      "crontab",
      "nightly",
      "--type=json",
      "-p",
      '[{"op":"replace","path":"/spec/cronSpec","value":"*/5 * * * *"}]',
    ]);
    const obj = JSON.parse(await h.kubectlOk(["get", "crontab", "nightly", "-o", "json"]));
    assert.equal(obj.metadata.labels.tier, "gold");
    assert.equal(obj.spec.cronSpec, "*/5 * * * *");
    const bad = await h.kubectl([
      "patch",
      "crontab",
      "nightly",
      "--type=json",
      "-p",
      '[{"op":"test","path":"/spec/image","value":"nope"}]',
    ]);
    assert.notEqual(bad.code, 0);
    const ns = await h.kubectlOk(["label", "namespace", "default", "env=dev"]);
    assert.match(ns, /namespace\/default labeled/);
  });

  it("applies server-side and reports conflicts with another manager", async () => {
    const manifest = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "1"\n`;
    assert.match(
      await h.kubectlOk(["apply", "--server-side", "-f", "-"], { input: manifest }),
      /configmap\/ssa serverside-applied/,
    );
    const cm = JSON.parse(
      await h.kubectlOk(["get", "cm", "ssa", "-o", "json", "--show-managed-fields"]),
    );
    assert.deepEqual(cm.data, { a: "1" });
    assert.equal(cm.metadata.managedFields[0].manager, "kubectl");
    assert.equal(cm.metadata.managedFields[0].operation, "Apply");
    const other = manifest.replace('a: "1"', 'a: "2"');
    const conflict = await h.kubectl(
      ["apply", "--server-side", "--field-manager=other", "-f", "-"],
      { input: other },
    );
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /conflict/i);
    await h.kubectlOk(
      ["apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "-"],
      { input: other },
    );
    assert.equal(JSON.parse(await h.kubectlOk(["get", "cm", "ssa", "-o", "json"])).data.a, "2");
  });

  it("explains built-in and custom kinds from OpenAPI", async () => {
    const cm = await h.kubectlOk(["explain", "configmaps.data"]);
    assert.match(cm, /KIND:\s+ConfigMap/);
    const ct = await h.kubectlOk(["explain", "crontabs.spec"]);
    assert.match(ct, /cronSpec\s+<string>/);
    assert.match(ct, /The cron schedule/);
  });

  it("rejects unknown fields under kubectl's strict validation", async () => {
    const bad = `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: typo\nspec:\n  cronSpek: "* * * * *"\n`;
    const r = await h.kubectl(["apply", "-f", "-"], { input: bad });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /unknown field "spec.cronSpek"/);
    const get = await h.kubectl(["get", "crontab", "typo"]);
    assert.notEqual(get.code, 0, "nothing was stored");
    assert.match(get.stderr, /\(NotFound\): crontabs\.stable\.example\.com "typo" not found/);
  });

  it("refuses a stale update with a Conflict", async () => {
    const current = JSON.parse(await h.kubectlOk(["get", "crontab", "nightly", "-o", "json"]));
    await h.kubectlOk(["annotate", "crontab", "nightly", "touched=yes"]);
    current.spec.image = "stale:1";
    const r = await h.kubectl(["replace", "-f", "-"], { input: JSON.stringify(current) });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /the object has been modified; please apply your changes to the latest version and try again/,
    );
  });

  it("deletes and patches with --dry-run=server without changing anything", async () => {
    await h.kubectlOk(["create", "configmap", "dry", "--from-literal=k=v"]);
    const before = JSON.parse(await h.kubectlOk(["get", "configmap", "dry", "-o", "json"]));
    const patched = JSON.parse(
      await h.kubectlOk([
        "patch",
        "configmap",
        "dry",
        "--type=merge",
        "-p",
        '{"data":{"k":"changed"}}',
        "--dry-run=server",
        "-o",
        "json",
      ]),
    );
    assert.deepEqual(patched.data, { k: "changed" });
    assert.equal(patched.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.match(
      await h.kubectlOk(["delete", "configmap", "dry", "--dry-run=server"]),
      /^configmap "dry" deleted \(server dry run\)$/m,
    );
    assert.deepEqual(
      JSON.parse(await h.kubectlOk(["get", "configmap", "dry", "-o", "json"])),
      before,
      "neither dry run changed the object",
    );
    await h.kubectlOk(["delete", "configmap", "dry"]);
  });

  it("deletes, with and without waiting", async () => {
    await h.kubectlOk(["create", "configmap", "gone", "--from-literal=k=v"]);
    assert.match(
      await h.kubectlOk(["delete", "configmap", "gone", "--wait=false"]),
      /configmap "gone" deleted/,
    );
    assert.match(
      await h.kubectlOk(["delete", "-f", fixture("crontab.yaml"), "--wait", "--timeout=20s"]),
      /crontab.stable.example.com "nightly" deleted/,
    );
    const r = await h.kubectl(["get", "crontab", "nightly"]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /crontabs.stable.example.com "nightly" not found/);
  });

  it("waits for finalizers on delete --wait until they are removed", async () => {
    await h.kubectlOk(["create", "configmap", "held"]);
    await h.kubectlOk([
      "patch",
      "configmap",
      "held",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":["example.com/hold"]}}',
    ]);
    const deleting = h.kubectlSpawn(["delete", "configmap", "held", "--timeout=30s"]);
    const exited = once(deleting, "exit");
    await waitFor(
      "deletionTimestamp set",
      async () =>
        JSON.parse(await h.kubectlOk(["get", "cm", "held", "-o", "json"])).metadata
          .deletionTimestamp,
    );
    assert.equal(deleting.exitCode, null, "kubectl delete must wait while a finalizer remains");
    await h.kubectlOk([
      "patch",
      "configmap",
      "held",
      "--type=json",
      "-p",
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
    const [code] = await exited;
    assert.equal(code, 0);
  });
});
