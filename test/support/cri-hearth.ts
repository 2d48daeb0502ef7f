/**
 * A `hearth up --runtime cri` on a temp data directory with the test's own
 * pod and service CIDRs, for e2e tests of containers as a user runs them:
 * `withCriHearth` runs the test's body on it and then, whatever the body did
 * (stopped it, failed half-way), removes what is left of it: the Hearth, its
 * containerd with shims, containers and mounts, its nftables table, its
 * bridge and the directory.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { bridgeName, containerdLayout, deleteTable, tableNameFor } from "../../src/node/index.js";
import { removeLeftovers } from "./containerd-leftovers.js";
import { type Hearth, startHearth } from "./hearth-process.js";

export const bridgeExists = (name: string) =>
  execFileSync("ip", ["-o", "link", "show"], { encoding: "utf8" }).includes(`: ${name}:`);

export interface CriHearthOptions {
  /** The temp directory's prefix under /tmp. */
  prefix: string;
  podCIDR: string;
  serviceCIDR: string;
  /** More `hearth up` flags. */
  extraArgs?: string[];
}

export async function withCriHearth(
  o: CriHearthOptions,
  body: (h: Hearth, dataDir: string) => Promise<void>,
): Promise<void> {
  const tmp = mkdtempSync(`/tmp/${o.prefix}`);
  const dataDir = join(tmp, "data");
  const layout = containerdLayout(dataDir);
  let hearth: Hearth | undefined;
  try {
    hearth = await startHearth({
      dataDir,
      extraArgs: [
        "--runtime",
        "cri",
        "--pod-cidr",
        o.podCIDR,
        "--service-cidr",
        o.serviceCIDR,
        ...(o.extraArgs ?? []),
      ],
      timeoutMs: 180_000,
    });
    await body(hearth, dataDir);
  } finally {
    await hearth?.cleanup();
    removeLeftovers(tmp, [layout.config, layout.socket, join(dataDir, "registry", "config.yml")]);
    // What a killed Hearth leaves: its table and its bridge.
    await deleteTable(tableNameFor(dataDir));
    if (bridgeExists(bridgeName(dataDir))) execFileSync("ip", ["link", "del", bridgeName(dataDir)]);
    rmSync(tmp, { recursive: true, force: true });
  }
}
