/**
 * Crash safety of the tenant tree: `kill -9` of `hearth up` at 20 points spread
 * over a tree's creation and deletion (10 rounds, each killed once while
 * creating and once while deleting), restart on the same data directory, and
 * the tree ends exactly as requested: built with every part, or gone with
 * nothing left over.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { type Hearth, kubectlJson, startHearth, waitFor } from "../support/hearth-process.js";

const ROUNDS = 10;
const TENANTS = [
  { name: "alpha", namespace: "tenant-root", owns: "tenant-alpha" },
  { name: "beta", namespace: "tenant-alpha", owns: "tenant-alpha-beta" },
  { name: "gamma", namespace: "tenant-alpha-beta", owns: "tenant-alpha-beta-gamma" },
];

function manifest(t: { name: string; namespace: string }): string {
  return JSON.stringify({
    apiVersion: "apps.cozystack.io/v1alpha1",
    kind: "Tenant",
    metadata: { name: t.name, namespace: t.namespace },
    spec: { resourceQuotas: { pods: "10" } },
  });
}

/** Kill points spread over [0, span) ms, the same in every run. */
function killAt(round: number, span: number): number {
  return Math.round(((round * 7 + 3) % ROUNDS) * (span / ROUNDS));
}

describe("tenant tree under kill -9", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-crash-tenants-"));
  let hearth: Hearth | undefined;

  after(async () => {
    await hearth?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    hearth = await startHearth({ dataDir, extraArgs: ["--no-node-agent"], timeoutMs: 60_000 });
    return hearth;
  };

  /**
   * Applies the tree top-down, each Tenant once its parent's namespace exists
   * (retried until then, for a minute at most), until `signal` aborts.
   */
  const applyTree = async (h: Hearth, signal: AbortSignal) => {
    for (const t of TENANTS) {
      const deadline = Date.now() + 60_000;
      while (!signal.aborted) {
        const r = await h.kubectl(["apply", "-f", "-"], { input: manifest(t) });
        if (r.code === 0) break;
        if (Date.now() > deadline) throw new Error(`Tenant ${t.name} not applied: ${r.stderr}`);
        await sleep(100);
      }
    }
  };

  const treeBuilt = async (h: Hearth) => {
    for (const t of TENANTS) {
      const app = await kubectlJson(h, [
        "get",
        "tenants.apps.cozystack.io",
        t.name,
        "-n",
        t.namespace,
      ]);
      const ready = (
        app?.status as { conditions?: { type: string; status: string }[] } | undefined
      )?.conditions?.find((c) => c.type === "Ready");
      if (ready?.status !== "True") return false;
      const ns = await kubectlJson(h, ["get", "namespace", t.owns]);
      if (ns?.metadata.labels?.[`tenant.cozystack.io/${t.owns}`] !== "") return false;
      const bindings = await kubectlJson(h, ["get", "rolebindings", "-n", t.owns]);
      if (bindings?.items?.length !== 4) return false;
      for (const [kind, name] of [
        ["secret", "cozystack-values"],
        ["resourcequota", "tenant-quota"],
        ["limitrange", "tenant-limits"],
      ] as const)
        if (!(await kubectlJson(h, ["get", kind, name, "-n", t.owns]))) return false;
    }
    return true;
  };

  const treeGone = async (h: Hearth) => {
    const ns = await kubectlJson(h, ["get", "namespaces"]);
    const names = (ns?.items ?? []).map((n) => n.metadata.name!);
    if (names.some((n) => n.startsWith("tenant-alpha"))) return false;
    const tenants = await kubectlJson(h, ["get", "tenants.apps.cozystack.io", "-A"]);
    return (tenants?.items ?? []).map((t) => t.metadata.name).join(",") === "root";
  };

  /** What is left of the tree: each Tenant and namespace with its finalizers and teardown. */
  const leftOfTree = async (h: Hearth) => {
    const left: string[] = [];
    for (const args of [
      ["get", "tenants.apps.cozystack.io", "-A"],
      ["get", "namespaces"],
    ]) {
      for (const o of (await kubectlJson(h, args))?.items ?? []) {
        const { name, namespace, deletionTimestamp, finalizers } = o.metadata;
        if (name === "root" || (!name?.startsWith("tenant-alpha") && args[1] === "namespaces"))
          continue;
        const status = o.status as { teardown?: unknown; phase?: string } | undefined;
        left.push(
          JSON.stringify({
            kind: o.kind,
            namespace,
            name,
            deletionTimestamp,
            finalizers,
            teardown: status?.teardown,
            phase: status?.phase,
            spec: args[1] === "namespaces" ? o.spec : undefined,
          }),
        );
      }
    }
    return left.join("; ") || "nothing";
  };

  it(`ends every tree as requested after ${ROUNDS * 2} kills`, { timeout: 900_000 }, async () => {
    let h = await start();
    for (let round = 0; round < ROUNDS; round++) {
      // Creation, killed part way.
      const stopApplying = new AbortController();
      const applying = applyTree(h, stopApplying.signal);
      await Promise.race([sleep(killAt(round, 2_000)), applying]);
      await h.kill9();
      await h.cleanup();
      stopApplying.abort();
      await applying;
      h = await start();
      await applyTree(h, new AbortController().signal);
      await waitFor(`round ${round}: the tree built after the kill`, () => treeBuilt(h), 60_000);

      // Deletion, killed part way.
      await h.kubectlOk([
        "delete",
        "tenants.apps.cozystack.io",
        "alpha",
        "-n",
        "tenant-root",
        "--wait=false",
      ]);
      await sleep(killAt(round, 3_000));
      await h.kill9();
      await h.cleanup();
      h = await start();
      try {
        await waitFor(`round ${round}: the tree gone after the kill`, () => treeGone(h), 60_000);
      } catch (e) {
        throw new Error(`${(e as Error).message}; left: ${await leftOfTree(h)}`, { cause: e });
      }
    }
    // Nothing of the tree is left anywhere, and the root is as it was.
    const rootSecrets = await kubectlJson(h, ["get", "secrets", "-n", "tenant-root"]);
    assert.deepEqual(
      (rootSecrets?.items ?? []).map((s) => s.metadata.name),
      ["cozystack-values"],
    );
    const root = await kubectlJson(h, [
      "get",
      "tenants.apps.cozystack.io",
      "root",
      "-n",
      "tenant-root",
    ]);
    assert.ok(root, "the root Tenant exists");
    const stalled = (
      root?.status as { conditions?: { type: string }[] } | undefined
    )?.conditions?.find((c) => c.type === "Stalled");
    assert.equal(stalled, undefined);
  });
});
