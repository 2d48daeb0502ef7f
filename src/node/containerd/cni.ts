/**
 * The pod network of a Hearth's containerd: one CNI conflist, written into
 * DIR/containerd/cni/net.d before containerd starts, that its CRI plugin runs
 * for every sandbox with its own network namespace.
 *
 * - `bridge` on a Linux bridge named per Hearth (`hth` + 8 hex of
 *   sha256(DIR), 11 characters; IFNAMSIZ allows 15), so two Hearths on one
 *   machine never share one. `isGateway`: the bridge holds the first address
 *   of the pod CIDR, the pods' default route and the address pods reach the
 *   node on. `hairpinMode`: a pod may reach itself through a Service address.
 * - `ipMasq: false`: nothing is ever masqueraded off the machine. A pod's
 *   packet to an address off the machine leaves (if at all) with its pod
 *   address, which nothing outside routes back.
 * - `host-local` IPAM over the node's pod CIDR, its leases under
 *   DIR/containerd/cni/ipam (not the host-wide /var/lib/cni).
 * - No `portmap`: it works here (iptables-nft), but writes `CNI-HOSTPORT-*`
 *   chains into the host's shared iptables `nat` table, with a MASQUERADE
 *   rule, that no DEL removes and every Hearth on the machine would share.
 *   hostPort is a DNAT in Hearth's own nftables table (nft/host-ports.ts).
 *
 * containerd 1.6 adds the `loopback` plugin itself (from bin_dir), so `lo` is
 * up in every sandbox without a second conflist. The bridge plugin turns on
 * net.ipv4.ip_forward when it makes a gateway (a host-wide sysctl it never
 * turns off); see docs/networking.md.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { intToIpv4, ipv4ToInt, netsOverlap, parseIpv4Net } from "../ipv4.js";
import { type ContainerdLayout, containerdLayout } from "./layout.js";

/** The pod CIDR when none is given: private, not loopback. */
export const DEFAULT_CRI_POD_CIDR = "10.88.0.0/24";

/** The version Debian 12's containernetworking-plugins 1.1.1 speak (`CNI_COMMAND=VERSION`). */
export const CNI_VERSION = "1.0.0";

export const CNI_CONFLIST_NAME = "10-hearth.conflist";

export interface PodCidr {
  /** Normalised `a.b.c.d/n` (host bits cleared). */
  subnet: string;
  /** The first address: the bridge's, the pods' gateway. */
  gateway: string;
  prefix: number;
}

/** Parses an IPv4 pod CIDR with room for a gateway and at least two pods. */
export function parsePodCidr(cidr: string): PodCidr {
  const [addr, bits, extra] = cidr.split("/");
  const base = addr === undefined ? undefined : ipv4ToInt(addr);
  const prefix = bits !== undefined && /^\d{1,2}$/.test(bits) ? Number(bits) : Number.NaN;
  if (base === undefined || extra !== undefined || !(prefix >= 8 && prefix <= 29))
    throw new Error(
      `pod CIDR ${JSON.stringify(cidr)} is not an IPv4 network from /8 to /29 (e.g. ${DEFAULT_CRI_POD_CIDR})`,
    );
  const network = (base & ~((1 << (32 - prefix)) - 1)) >>> 0;
  if (network >>> 24 === 127)
    throw new Error(
      `pod CIDR ${cidr} is loopback; pods on a bridge need e.g. ${DEFAULT_CRI_POD_CIDR}`,
    );
  return { subnet: `${intToIpv4(network)}/${prefix}`, gateway: intToIpv4(network + 1), prefix };
}

/** The bridge of DIR's pod network: `hth` + 8 hex of sha256 of the absolute DIR. */
export function bridgeName(dataDir: string): string {
  return `hth${createHash("sha256").update(resolve(dataDir)).digest("hex").slice(0, 8)}`;
}

export interface PodNetworkOptions {
  dataDir: string;
  podCIDR: string;
}

/** The conflist as an object (JSON has no comments: this file's header is its documentation). */
export function podNetworkConfig(o: PodNetworkOptions, layout = containerdLayout(o.dataDir)) {
  const cidr = parsePodCidr(o.podCIDR);
  const bridge = bridgeName(o.dataDir);
  return {
    cniVersion: CNI_VERSION,
    name: `hearth-${bridge.slice(3)}`,
    plugins: [
      {
        type: "bridge",
        bridge,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: "host-local",
          ranges: [[{ subnet: cidr.subnet, gateway: cidr.gateway }]],
          routes: [{ dst: "0.0.0.0/0", gw: cidr.gateway }],
          dataDir: layout.cniIpamDir,
        },
      },
    ],
  };
}

/**
 * Writes DIR's conflist (removing any other file in its conf dir); returns its
 * path. The directory itself stays and the file is replaced by a rename: a
 * containerd adopted after a `kill -9` watches that directory, and one removed
 * under it loses its CNI configuration ("cni plugin not initialized") until it
 * restarts.
 */
export function writePodNetwork(o: PodNetworkOptions): string {
  const layout: ContainerdLayout = containerdLayout(o.dataDir);
  const config = podNetworkConfig(o, layout);
  mkdirSync(layout.cniConfDir, { recursive: true });
  for (const name of readdirSync(layout.cniConfDir))
    if (name !== CNI_CONFLIST_NAME)
      rmSync(join(layout.cniConfDir, name), { recursive: true, force: true });
  const file = join(layout.cniConfDir, CNI_CONFLIST_NAME);
  const text = `${JSON.stringify(config, null, 2)}\n`;
  // Unchanged (the usual restart): not touched at all.
  if (existsSync(file) && readFileSync(file, "utf8") === text) return file;
  const tmp = join(layout.dir, `.${CNI_CONFLIST_NAME}.tmp`);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
  return file;
}

const execFileAsync = promisify(execFile);

/**
 * The lines of `ip -o -4 route show` (the main table) whose destination
 * overlaps `cidr` on a device other than `bridge`: another Hearth's bridge,
 * or a network of the machine, that the pod network's route would fight.
 */
export function conflictingRoutes(routes: string, cidr: PodCidr, bridge: string): string[] {
  const pod = parseIpv4Net(cidr.subnet)!;
  return routes
    .split("\n")
    .map((l) => l.trim())
    .filter((line) => {
      const words = line.split(/\s+/);
      const dst = words.find((w) => /^\d+\.\d+\.\d+\.\d+(\/\d+)?$/.test(w));
      if (!dst || words[0] === "default") return false;
      const dev = words[words.indexOf("dev") + 1];
      if (words.includes("dev") && dev === bridge) return false;
      const net = parseIpv4Net(dst);
      return net !== undefined && netsOverlap(net, pod);
    });
}

/** Refuses a pod CIDR that a route of the machine already covers on another device. */
export async function checkPodCidrFree(o: PodNetworkOptions): Promise<void> {
  const { stdout } = await execFileAsync("ip", ["-o", "-4", "route", "show"]);
  const clash = conflictingRoutes(stdout, parsePodCidr(o.podCIDR), bridgeName(o.dataDir));
  if (clash.length > 0)
    throw new Error(
      `pod CIDR ${o.podCIDR} overlaps a route of this machine (${clash.join("; ")}): ` +
        "another Hearth's bridge or a network of the host; give this Hearth another --pod-cidr",
    );
}

/**
 * Makes DIR's bridge with the gateway address, up, before any sandbox: the
 * cluster DNS server binds that address at start (the CNI bridge plugin
 * would make the bridge only with the first sandbox; it takes one that
 * exists with the same address as its own). Idempotent.
 */
export async function ensurePodBridge(o: PodNetworkOptions): Promise<void> {
  const cidr = parsePodCidr(o.podCIDR);
  const bridge = bridgeName(o.dataDir);
  try {
    if (!(await linkExists(bridge)))
      await execFileAsync("ip", ["link", "add", "name", bridge, "type", "bridge"]);
    await execFileAsync("ip", ["addr", "replace", `${cidr.gateway}/${cidr.prefix}`, "dev", bridge]);
    await execFileAsync("ip", ["link", "set", "dev", bridge, "up"]);
  } catch (e) {
    throw new Error(`cannot set up the pod bridge ${bridge}: ${(e as Error).message}`, {
      cause: e,
    });
  }
}

/** True when a link of that name exists (`ip link show`). */
export async function linkExists(name: string): Promise<boolean> {
  try {
    await execFileAsync("ip", ["link", "show", "dev", name]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Deletes DIR's bridge and its IPAM leases. Call it on a clean stop once
 * every sandbox is gone (each sandbox's veth goes with its namespace);
 * deleting the bridge under a running pod would cut it off. Idempotent.
 */
export async function removePodNetwork(dataDir: string): Promise<void> {
  const bridge = bridgeName(dataDir);
  if (await linkExists(bridge))
    await execFileAsync("ip", ["link", "del", "dev", bridge]).catch(async (e: unknown) => {
      if (await linkExists(bridge))
        throw new Error(`cannot delete the pod bridge ${bridge}: ${(e as Error).message}`, {
          cause: e,
        });
    });
  rmSync(containerdLayout(dataDir).cniIpamDir, { recursive: true, force: true });
}
