/**
 * Object lifecycle with the real kubectl against `hearth up`: namespace
 * termination with conditions that name what blocks it, ordered deletion (pods
 * first), cascading deletion (background, foreground, orphan), a Namespace owning
 * a Namespace, and a namespace deletion that survives a kill -9 of the server.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";

interface Obj {
  metadata: {
    name: string;
    uid: string;
    deletionTimestamp?: string;
    finalizers?: string[];
    ownerReferences?: { uid: string }[];
  };
  status?: { phase?: string; conditions?: { type: string; status: string; message: string }[] };
}

const cm = (name: string, ns: string, extra = "") =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n${extra}`;

describe("object lifecycle", () => {
  let h: Hearth;
  const get = async (args: string[]): Promise<Obj | undefined> => {
    const r = await h.kubectl(["get", ...args, "-o", "json"]);
    if (r.code !== 0) {
      if (/NotFound|not found/.test(r.stderr)) return undefined;
      throw new Error(r.stderr);
    }
    return JSON.parse(r.stdout) as Obj;
  };
  const gone = (args: string[], what: string) =>
    waitFor(what, async () => (await get(args)) === undefined, 30_000);
  const ownerRef = (o: Obj, kind: string, extra = "") =>
    `  ownerReferences:\n  - apiVersion: v1\n    kind: ${kind}\n    name: ${o.metadata.name}\n    uid: ${o.metadata.uid}\n${extra}`;

  before(async () => {
    h = await startHearth();
  });
  after(async () => {
    await h?.cleanup();
  });

  it("keeps a namespace Terminating while a finalizer holds its content, and names it", async () => {
    await h.kubectlOk(["create", "namespace", "held"]);
    await h.kubectlOk(["apply", "-f", "-"], {
      input: cm("blocker", "held", "  finalizers: [example.com/hold]\n"),
    });
    await h.kubectlOk(["delete", "namespace", "held", "--wait=false"]);
    const ns = await waitFor("conditions naming the finalizer", async () => {
      const o = await get(["namespace", "held"]);
      const c = o?.status?.conditions?.find((x) => x.type === "NamespaceFinalizersRemaining");
      return c?.status === "True" ? o : undefined;
    });
    assert.equal(ns.status?.phase, "Terminating");
    const conditions = Object.fromEntries((ns.status?.conditions ?? []).map((c) => [c.type, c]));
    assert.match(
      conditions.NamespaceFinalizersRemaining!.message,
      /example\.com\/hold in 1 resource instances/,
    );
    assert.match(
      conditions.NamespaceContentRemaining!.message,
      /configmaps has 1 resource instances/,
    );
    const refused = await h.kubectl(["create", "configmap", "late", "-n", "held"]);
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /unable to create new content in namespace held because it is being terminated/,
    );
    await h.kubectlOk([
      "patch",
      "configmap",
      "blocker",
      "-n",
      "held",
      "--type=json",
      "-p",
      '[{"op":"remove","path":"/metadata/finalizers"}]',
    ]);
    await gone(["namespace", "held"], "namespace held to go");
  });

  it("deletes pods first and touches nothing else while a pod remains", async () => {
    await h.kubectlOk(["create", "namespace", "ordered"]);
    await h.kubectlOk(["apply", "-f", "-"], {
      input: `apiVersion: v1\nkind: Pod\nmetadata:\n  name: worker\n  namespace: ordered\n  finalizers: [example.com/drain]\nspec:\n  terminationGracePeriodSeconds: 1\n  containers: [{name: c, image: busybox, command: [sleep, "3600"]}]\n`,
    });
    await h.kubectlOk(["apply", "-f", "-"], { input: cm("settings", "ordered") });
    await h.kubectlOk(["delete", "namespace", "ordered", "--wait=false"]);
    await waitFor(
      "pod marked for deletion",
      async () => (await get(["pod", "worker", "-n", "ordered"]))?.metadata.deletionTimestamp,
    );
    const ns = await waitFor("conditions naming the pod", async () => {
      const o = await get(["namespace", "ordered"]);
      return o?.status?.conditions?.some(
        (c) =>
          c.type === "NamespaceContentRemaining" && /pods has 1 resource instances/.test(c.message),
      )
        ? o
        : undefined;
    });
    assert.ok(ns);
    const settings = await get(["configmap", "settings", "-n", "ordered"]);
    assert.ok(settings, "the ConfigMap is untouched while a pod remains");
    assert.equal(settings.metadata.deletionTimestamp, undefined);
    await h.kubectlOk([
      "patch",
      "pod",
      "worker",
      "-n",
      "ordered",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":null}}',
    ]);
    await gone(["namespace", "ordered"], "namespace ordered to go");
  });

  it("cascades deletion in the background, in the foreground, and orphans on request", async () => {
    await h.kubectlOk(["create", "namespace", "cascade"]);
    const makeFamily = async (prefix: string, dependentExtra = "") => {
      await h.kubectlOk(["apply", "-f", "-"], { input: cm(`${prefix}-owner`, "cascade") });
      const owner = (await get(["configmap", `${prefix}-owner`, "-n", "cascade"]))!;
      await h.kubectlOk(["apply", "-f", "-"], {
        input: cm(
          `${prefix}-dep`,
          "cascade",
          `${ownerRef(owner, "ConfigMap", "    blockOwnerDeletion: true\n")}${dependentExtra}`,
        ),
      });
      return owner;
    };

    await makeFamily("bg");
    await h.kubectlOk(["delete", "configmap", "bg-owner", "-n", "cascade", "--cascade=background"]);
    await gone(["configmap", "bg-dep", "-n", "cascade"], "background dependent to go");

    await makeFamily("fg", "  finalizers: [example.com/slow]\n");
    await h.kubectlOk([
      "delete",
      "configmap",
      "fg-owner",
      "-n",
      "cascade",
      "--cascade=foreground",
      "--wait=false",
    ]);
    await waitFor(
      "dependent marked",
      async () => (await get(["configmap", "fg-dep", "-n", "cascade"]))?.metadata.deletionTimestamp,
    );
    const waitingOwner = await get(["configmap", "fg-owner", "-n", "cascade"]);
    assert.ok(
      waitingOwner?.metadata.finalizers?.includes("foregroundDeletion"),
      "the owner waits for its blocking dependent",
    );
    await h.kubectlOk([
      "patch",
      "configmap",
      "fg-dep",
      "-n",
      "cascade",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":null}}',
    ]);
    await gone(["configmap", "fg-owner", "-n", "cascade"], "foreground owner to go");

    const orphanOwner = await makeFamily("or");
    await h.kubectlOk(["delete", "configmap", "or-owner", "-n", "cascade", "--cascade=orphan"]);
    await gone(["configmap", "or-owner", "-n", "cascade"], "orphaning owner to go");
    const orphan = await get(["configmap", "or-dep", "-n", "cascade"]);
    assert.ok(orphan, "the orphan stays");
    assert.ok(
      !(orphan.metadata.ownerReferences ?? []).some((r) => r.uid === orphanOwner.metadata.uid),
      "its owner reference is stripped",
    );
  });

  it("deletes a namespace owned by a deleted namespace", async () => {
    await h.kubectlOk(["create", "namespace", "parent"]);
    const parent = (await get(["namespace", "parent"]))!;
    await h.kubectlOk(["apply", "-f", "-"], {
      input: `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: parent-child\n${ownerRef(parent, "Namespace")}`,
    });
    await h.kubectlOk(["apply", "-f", "-"], { input: cm("inside", "parent-child") });
    await h.kubectlOk(["delete", "namespace", "parent", "--wait=false"]);
    await gone(["namespace", "parent-child"], "child namespace to go");
    await gone(["namespace", "parent"], "parent namespace to go");
  });
});

describe("namespace deletion across a kill -9", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-crash-"));
  const started: Hearth[] = [];
  after(async () => {
    for (const h of started) await h.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("finishes the deletion after a restart and loses nothing else", async () => {
    let h = await startHearth({ dataDir });
    started.push(h);
    await h.kubectlOk(["create", "namespace", "doomed"]);
    await h.kubectlOk(["create", "namespace", "kept"]);
    for (let i = 0; i < 5; i++)
      await h.kubectlOk(["apply", "-f", "-"], {
        input: cm(`c${i}`, "doomed", i === 0 ? "  finalizers: [example.com/hold]\n" : ""),
      });
    await h.kubectlOk(["apply", "-f", "-"], { input: cm("survivor", "kept") });
    await h.kubectlOk(["delete", "namespace", "doomed", "--wait=false"]);
    await waitFor("deletion under way", async () => {
      const r = await h.kubectl(["get", "configmaps", "-n", "doomed", "-o", "name"]);
      return r.stdout.trim() === "configmap/c0";
    });
    await h.kill9();
    h = await startHearth({ dataDir });
    started.push(h);
    const ns = JSON.parse(await h.kubectlOk(["get", "namespace", "doomed", "-o", "json"])) as Obj;
    assert.equal(ns.status?.phase, "Terminating");
    await h.kubectlOk([
      "patch",
      "configmap",
      "c0",
      "-n",
      "doomed",
      "--type=merge",
      "-p",
      '{"metadata":{"finalizers":null}}',
    ]);
    await waitFor(
      "namespace doomed to go",
      async () => (await h.kubectl(["get", "namespace", "doomed"])).code !== 0,
      30_000,
    );
    assert.match(
      await h.kubectlOk(["get", "configmap", "survivor", "-n", "kept", "-o", "name"]),
      /configmap\/survivor/,
    );
    assert.match(await h.kubectlOk(["get", "namespaces", "-o", "name"]), /namespace\/kept/);
  });
});
