/**
 * A second host for multi-node tests: `hearth node --runtime cri` run in a
 * network namespace of its own (under `nsenter --net=`, not `ip netns exec`:
 * the latter also remounts /sys for the namespace, which hides
 * /sys/fs/cgroup, and runc cannot create a container's cgroups without it).
 */
import { execFileSync, spawn } from "node:child_process";
import { NODE_FLAGS } from "../../src/main/node-flags.js";
import { criSkipReason } from "./cri-node.js";
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

export const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8" });
export const ok = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Why a namespaced node cannot run here (no CRI, no nsenter), or false. */
export function namespacedNodeSkipReason(): string | false {
  const cri = criSkipReason();
  if (cri) return cri;
  if (!ok("nsenter", ["--version"])) return "nsenter (util-linux) is missing";
  return false;
}

export interface HostPair {
  netns: string;
  vethRoot: string;
  vethNs: string;
  rootIp: string;
  nsIp: string;
}

/** Makes the namespace and a veth pair on a /30: `rootIp` in the root namespace, `nsIp` in it. */
export function addHostPair(p: HostPair): void {
  sh("ip", ["netns", "add", p.netns]);
  sh("ip", ["link", "add", p.vethRoot, "type", "veth", "peer", "name", p.vethNs, "netns", p.netns]);
  sh("ip", ["addr", "add", `${p.rootIp}/30`, "dev", p.vethRoot]);
  sh("ip", ["link", "set", p.vethRoot, "up"]);
  sh("ip", ["-n", p.netns, "addr", "add", `${p.nsIp}/30`, "dev", p.vethNs]);
  sh("ip", ["-n", p.netns, "link", "set", p.vethNs, "up"]);
  sh("ip", ["-n", p.netns, "link", "set", "lo", "up"]);
}

/** Removes the veth (its routes go with it) and the namespace, whatever is left of them. */
export function removeHostPair(p: HostPair): void {
  if (ok("ip", ["link", "show", "dev", p.vethRoot])) sh("ip", ["link", "del", p.vethRoot]);
  if (ok("ip", ["netns", "pids", p.netns])) sh("ip", ["netns", "del", p.netns]);
}
