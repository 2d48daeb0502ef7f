/**
 * A second host for multi-node tests: `hearth node --runtime cri` run in a
 * network namespace of its own (under `nsenter --net=`, not `ip netns exec`:
 * the latter also remounts /sys for the namespace, which hides
 * /sys/fs/cgroup, and runc cannot create a container's cgroups without it).
 */
import { spawn } from "node:child_process";
import { NODE_FLAGS } from "../../src/main/node-flags.js";
import { HEARTH_MAIN, readyLine } from "./hearth-process.js";

export interface NamespacedNodeOptions {
  /** The network namespace's name (under /run/netns). */
  netns: string;
  kubeconfig: string;
  dataDir: string;
  podCidr: string;
  serviceCidr: string;
  nodeIp: string;
  nodeName: string;
}

/** Starts the node; `ready` resolves once it printed its ready line. */
export function startNamespacedNode(o: NamespacedNodeOptions) {
  const child = spawn(
    "nsenter",
    [
      `--net=/run/netns/${o.netns}`,
      process.execPath,
      ...NODE_FLAGS,
      HEARTH_MAIN,
      "node",
      "--runtime",
      "cri",
      "--kubeconfig",
      o.kubeconfig,
      "--data-dir",
      o.dataDir,
      "--pod-cidr",
      o.podCidr,
      "--service-cidr",
      o.serviceCidr,
      "--node-ip",
      o.nodeIp,
      "--node-name",
      o.nodeName,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr = (stderr + d).slice(-50_000);
  });
  const ready = readyLine(child, /hearth node is ready/, "hearth node", 180_000, () => stderr);
  return { child, ready, stderr: () => stderr };
}
