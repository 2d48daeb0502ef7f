/**
 * A Tenant's teardown waves survive `kill -9`: a Tenant whose three waves
 * (`preDelete`: its applications; `children`; `namespaces`) are each held by a
 * finalizer the test owns is deleted; at each wave boundary, seen in
 * `status.teardown.wave`, `hearth up` is killed and restarted on the same data
 * directory. The teardown resumes at the same wave with the same `startedAt`
 * (its deadline is not reset), goes on once the test releases the wave, and
 * ends with nothing of the Tenant left.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type Hearth, kubectlJson, startHearth, waitFor } from "../support/hearth-process.js";

const HOLD = "test.hearth.io/hold";
const NS = "tenant-crash";

interface Teardown {
  wave: string;
  startedAt: string;
  waitingOn?: string;
}

/** Each wave, and the object whose finalizer holds it. */
const WAVES: { wave: string; held: [kind: string, name: string, namespace: string] }[] = [
  { wave: "preDelete", held: ["tenants.apps.cozystack.io", "inner", NS] },
  { wave: "children", held: ["secret", "cozystack-values", NS] },
  { wave: "namespaces", held: ["configmap", "pinned", NS] },
];

describe("Tenant teardown under kill -9 at each wave boundary", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-crash-teardown-"));
  let hearth: Hearth | undefined;

  after(async () => {
    await hearth?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    hearth = await startHearth({ dataDir, extraArgs: ["--no-node-agent"], timeoutMs: 60_000 });
    return hearth;
  };
  const teardownOf = async (h: Hearth): Promise<Teardown | undefined> => {
    const app = await kubectlJson(h, [
      "get",
      "tenants.apps.cozystack.io",
      "crash",
      "-n",
      "tenant-root",
    ]);
    return (app?.status as { teardown?: Teardown } | undefined)?.teardown;
  };
  const setFinalizers = (h: Hearth, [kind, name, ns]: [string, string, string], f: string[]) =>
    h.kubectlOk([
      "patch",
      kind,
      name,
      "-n",
      ns,
      "--type=merge",
      "-p",
      JSON.stringify({ metadata: { finalizers: f } }),
    ]);
  /** Drops the test's finalizer once it is the only one left (the engine's went with its teardown). */
  const release = async (h: Hearth, held: [string, string, string]) => {
    const [kind, name, ns] = held;
    await waitFor(
      `${kind} ${name} held by the test alone`,
      async () => {
        const obj = await kubectlJson(h, ["get", kind, name, "-n", ns]);
        return JSON.stringify(obj?.metadata.finalizers) === JSON.stringify([HOLD]);
      },
      60_000,
    );
    await setFinalizers(h, held, []);
  };
  const apply = (h: Hearth, obj: Record<string, unknown>) =>
    h.kubectlOk(["apply", "-f", "-"], { input: JSON.stringify(obj) });
  const tenant = (name: string, namespace: string) => ({
    apiVersion: "apps.cozystack.io/v1alpha1",
    kind: "Tenant",
    metadata: { name, namespace },
  });

  it("resumes each wave after a kill and leaves nothing behind", { timeout: 180_000 }, async () => {
    let h = await start();
    await apply(h, tenant("crash", "tenant-root"));
    await h.kubectlOk([
      "wait",
      "--for=condition=Ready",
      "tenants.apps.cozystack.io/crash",
      "-n",
      "tenant-root",
      "--timeout=60s",
    ]);
    await apply(h, tenant("inner", NS));
    await h.kubectlOk([
      "wait",
      "--for=condition=Ready",
      "tenants.apps.cozystack.io/inner",
      "-n",
      NS,
      "--timeout=60s",
    ]);
    await apply(h, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "pinned", namespace: NS },
    });
    // The engine's own finalizer on `inner` goes with its teardown; the test's holds it after.
    const innerFinalizers =
      (await kubectlJson(h, ["get", ...WAVES[0]!.held.slice(0, 2), "-n", NS]))?.metadata
        .finalizers ?? [];
    await setFinalizers(h, WAVES[0]!.held, [...innerFinalizers, HOLD]);
    for (const { held } of WAVES.slice(1)) await setFinalizers(h, held, [HOLD]);

    await h.kubectlOk([
      "delete",
      "tenants.apps.cozystack.io",
      "crash",
      "-n",
      "tenant-root",
      "--wait=false",
    ]);
    for (const [i, { wave, held }] of WAVES.entries()) {
      const seen = await waitFor(
        `wave ${wave} started`,
        async () => {
          const t = await teardownOf(h);
          return t?.wave === wave ? t : undefined;
        },
        60_000,
      );
      // The boundary: kill as soon as the wave is recorded, restart on the same data.
      await h.kill9();
      await h.cleanup();
      h = await start();
      const resumed = await waitFor(
        `wave ${wave} waiting again after the restart`,
        async () => {
          const t = await teardownOf(h);
          return t?.wave === wave && t.waitingOn ? t : undefined;
        },
        60_000,
      );
      assert.equal(resumed.startedAt, seen.startedAt, `wave ${wave} restarted its deadline`);
      for (const later of WAVES.slice(i + 1))
        assert.ok(
          await kubectlJson(h, ["get", ...later.held.slice(0, 2), "-n", later.held[2]]),
          `${later.held.join(" ")} went before wave ${later.wave}`,
        );
      await release(h, held);
    }

    await waitFor(
      "the Tenant gone",
      async () =>
        !(await kubectlJson(h, ["get", "tenants.apps.cozystack.io", "crash", "-n", "tenant-root"])),
      60_000,
    );
    await waitFor(
      "its namespace gone",
      async () => !(await kubectlJson(h, ["get", "namespace", NS])),
      60_000,
    );
    const tenants = await kubectlJson(h, ["get", "tenants.apps.cozystack.io", "-A"]);
    assert.deepEqual(
      (tenants?.items ?? []).map((t) => t.metadata.name),
      ["root"],
    );
    const namespaces = await kubectlJson(h, ["get", "namespaces"]);
    assert.deepEqual(
      (namespaces?.items ?? []).map((n) => n.metadata.name).filter((n) => n!.startsWith(NS)),
      [],
    );
  });
});
