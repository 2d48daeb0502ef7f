/**
 * Volumes under the real `hearth up`: the `local-path` default class exists from
 * the start, a claim gets a directory under DIR/volumes, `--volume-pool-size`
 * bounds the pool, a kill -9 and restart keeps bound volumes and sweeps a
 * half-made one, and deleting the claim frees the directory and then the PV.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { claimYaml } from "../support/storage-env.js";

describe("volumes under hearth up", () => {
  let h: Hearth;
  let dataDir: string;
  const jsonpath = async (args: string[], path: string) => {
    const r = await h.kubectl(["get", ...args, "-o", `jsonpath=${path}`]);
    return r.code === 0 ? r.stdout : undefined;
  };
  const start = () => startHearth({ dataDir, extraArgs: ["--volume-pool-size", "2Gi"] });

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "hearth-volumes-"));
    h = await start();
  });
  after(async () => {
    await h?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("provisions into DIR/volumes from the default class, within the pool size", async () => {
    const classes = await waitFor("the default class", async () => {
      const out = await h.kubectlOk(["get", "storageclass"]);
      return out.includes("local-path") ? out : undefined;
    });
    assert.match(classes, /local-path \(default\)\s+hearth\.io\/local-path\s+Delete\s+Immediate/);
    await h.kubectlOk(["apply", "-f", "-"], { input: claimYaml("data", "1Gi") });
    await waitFor(
      "claim Bound",
      async () => (await jsonpath(["pvc", "data"], "{.status.phase}")) === "Bound",
      30_000,
    );
    const pvName = (await jsonpath(["pvc", "data"], "{.spec.volumeName}"))!;
    assert.equal(
      await jsonpath(["pv", pvName], "{.spec.hostPath.path}"),
      join(dataDir, "volumes", pvName),
    );
    assert.ok(existsSync(join(dataDir, "volumes", pvName)));

    await h.kubectlOk(["apply", "-f", "-"], { input: claimYaml("big", "5Gi") });
    const events = await waitFor("ProvisioningFailed", async () => {
      const out = await h.kubectlOk([
        "get",
        "events",
        "--field-selector",
        "involvedObject.name=big",
      ]);
      return out.includes("ProvisioningFailed") ? out : undefined;
    });
    assert.match(events, /not enough space in the volume pool \(requested 5Gi, free 1Gi\)/);
    await h.kubectlOk(["delete", "pvc", "big"]);
  });

  it("keeps bound volumes across kill -9 and sweeps a volume whose PV was never made", async () => {
    const pvName = (await jsonpath(["pvc", "data"], "{.spec.volumeName}"))!;
    await h.cleanup(); // SIGKILL; keeps DIR, removes kubectl's home
    // What a crash between the directory and the PV leaves behind.
    mkdirSync(join(dataDir, "volumes", "pvc-crashed"));
    writeFileSync(join(dataDir, "volumes", ".pvc-crashed.provisioning"), "");
    h = await start();
    const swept = (name: string) => !existsSync(join(dataDir, "volumes", name));
    await waitFor(
      "the half-made volume swept",
      () => swept("pvc-crashed") && swept(".pvc-crashed.provisioning"),
      30_000,
    );
    assert.equal(await jsonpath(["pvc", "data"], "{.status.phase}"), "Bound");
    assert.equal(await jsonpath(["pv", pvName], "{.status.phase}"), "Bound");
    assert.ok(existsSync(join(dataDir, "volumes", pvName)), "the bound volume's directory stays");
  });

  it("frees the directory and then the PV when the claim is deleted", async () => {
    const pvName = (await jsonpath(["pvc", "data"], "{.spec.volumeName}"))!;
    await h.kubectlOk(["delete", "pvc", "data"]);
    await waitFor(
      "the PV gone",
      async () => (await jsonpath(["pv", pvName], "{.metadata.name}")) === undefined,
      30_000,
    );
    assert.equal(existsSync(join(dataDir, "volumes", pvName)), false);
    assert.equal(await h.kubectlOk(["get", "pv", "-o", "name"]), "");
  });
});
