/**
 * `hearth doctor` against a real `hearth up --no-node-agent` and the real
 * kubectl: a ConfigMap held by a finalizer no Hearth controller owns is named,
 * with its finalizer, the owner it lacks and the kubectl patch that frees it,
 * and doctor exits 1; `--namespace` explains the Terminating namespace that
 * holds it (its conditions and the object inside); once the finalizer is
 * removed with the command doctor gave, the namespace goes and doctor exits 0.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NODE_FLAGS } from "../../src/main/node-flags.js";
import type { DoctorReport } from "../../src/platform/index.js";
import {
  HEARTH_MAIN,
  type Hearth,
  type RunResult,
  run,
  startHearth,
  waitFor,
} from "../support/hearth-process.js";

const NS = "doctor-e2e";
const HELD = `apiVersion: v1
kind: ConfigMap
metadata:
  name: held
  namespace: ${NS}
  finalizers: ["example.com/hold"]
data: {k: v}
`;

describe("hearth doctor", () => {
  let h: Hearth;
  before(async () => {
    h = await startHearth({ extraArgs: ["--no-node-agent"] });
  });
  after(async () => {
    await h?.cleanup();
  });

  const doctor = (args: string[]): Promise<RunResult> =>
    run(
      process.execPath,
      [...NODE_FLAGS, HEARTH_MAIN, "doctor", "--kubeconfig", h.kubeconfig, ...args],
      {
        timeoutMs: 60_000,
      },
    );
  const doctorJson = async (args: string[]) => {
    const r = await doctor([...args, "-o", "json"]);
    assert.ok(r.code === 0 || r.code === 1, `doctor exited ${r.code}: ${r.stderr}`);
    return { code: r.code, report: JSON.parse(r.stdout) as DoctorReport };
  };

  it("exits 0 on a fresh cluster, and 2 when it cannot check or a flag is bad", async () => {
    const fresh = await doctor([]);
    assert.equal(fresh.code, 0, fresh.stdout + fresh.stderr);
    assert.match(fresh.stdout, /nothing stuck: no deletion has waited longer than 1m0s/);
    // An API that does not answer: the check could not run, which is not "nothing stuck".
    const closed = join(h.dataDir, "closed.kubeconfig");
    writeFileSync(closed, readFileSync(h.kubeconfig, "utf8").replace(`:${h.port}`, ":1"));
    const down = await doctor(["--kubeconfig", closed]);
    assert.equal(down.code, 2, down.stdout + down.stderr);
    assert.match(down.stderr, /^hearth doctor: cannot check the cluster: /);
    const bad = await doctor(["--threshold", "soon"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^hearth doctor: --threshold must be a duration such as 40s/);
  });

  it("names a held object, explains its namespace, and exits 0 once it is freed", async () => {
    await h.kubectlOk(["create", "namespace", NS]);
    await h.kubectlOk(["apply", "-f", "-"], { input: HELD });
    await h.kubectlOk(["delete", "configmap", "held", "-n", NS, "--wait=false"]);

    // Waits until the deletion is older than the threshold, instead of sleeping.
    const held = await waitFor("doctor to report the held ConfigMap", async () => {
      const { code, report } = await doctorJson(["--threshold", "1s"]);
      const f = report.stuck.find((s) => s.kind === "ConfigMap" && s.name === "held");
      return code === 1 && f;
    });
    assert.equal(held.namespace, NS);
    assert.deepEqual(
      held.holds.map((x) => [x.finalizer, x.controller]),
      [["example.com/hold", undefined]],
    );
    assert.match(held.nextStep, /^no Hearth controller owns example\.com\/hold: remove it by hand/);
    const text = await doctor(["--threshold", "1s"]);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /ConfigMap doctor-e2e\/held \(configmaps, v1\)/);
    assert.match(text.stdout, /held by +example\.com\/hold — no Hearth controller owns it/);

    await h.kubectlOk(["delete", "namespace", NS, "--wait=false"]);
    const ns = await waitFor("doctor to explain the namespace", async () => {
      const { code, report } = await doctorJson(["--namespace", NS, "--threshold", "1s"]);
      const r = report.namespace;
      const remaining = r?.conditions.find((c) => c.type === "NamespaceFinalizersRemaining");
      return code === 1 && r?.phase === "Terminating" && remaining && r;
    });
    assert.match(
      ns.conditions.find((c) => c.type === "NamespaceFinalizersRemaining")?.message ?? "",
      /example\.com\/hold in 1 resource instances/,
    );
    assert.deepEqual(
      ns.namespace?.holds.map((x) => [x.finalizer, x.field, x.controller]),
      [["kubernetes", "spec", "the namespace controller"]],
    );
    assert.match(
      ns.namespace?.nextStep ?? "",
      /^wait: the namespace controller deletes the 1 object still inside/,
    );
    assert.deepEqual(
      ns.objects.map((o) => `${o.kind}/${o.name} ${o.holds.map((x) => x.finalizer).join()}`),
      ["ConfigMap/held example.com/hold"],
    );
    const nsText = await doctor(["--namespace", NS, "--threshold", "1s"]);
    assert.equal(nsText.code, 1);
    assert.match(nsText.stdout, /^Namespace doctor-e2e is Terminating/);
    assert.match(
      nsText.stdout,
      /NamespaceContentRemaining=True SomeResourcesRemain: .*configmaps has 1 resource instances/,
    );

    // The command doctor printed frees it.
    const patch = /kubectl patch configmaps held -n doctor-e2e --type=json -p '(.*)'$/.exec(
      held.nextStep,
    );
    assert.ok(patch, held.nextStep);
    await h.kubectlOk(["patch", "configmaps", "held", "-n", NS, "--type=json", "-p", patch[1]!]);
    await waitFor(
      "doctor to exit 0",
      async () => (await doctor(["--threshold", "1s"])).code === 0,
      60_000,
    );
    const gone = await doctorJson(["--namespace", NS]);
    assert.equal(gone.code, 0);
    assert.equal(gone.report.namespace?.phase, "NotFound");
  });
});
