/**
 * A bridge with network namespaces behind it, as a node's pod network stands
 * in for pods in the nftables tests: each host has a veth on the bridge, an
 * address on its /24 and a default route via the bridge address. Programs run
 * in a host (`node -e` scripts) are children of the test; `stop` kills them
 * by pid and deletes every link and namespace made, whatever failed.
 *
 * The bridge routes Service traffic: a pod's packet to a ClusterIP goes to its
 * gateway (the bridge address), is DNATed in prerouting and forwarded back out
 * of the bridge. Two per-bridge settings, gone with the bridge, make that work:
 * `forwarding` on the bridge, and `nf_call_iptables` so that the backend's
 * reply, bridged straight to the client, meets conntrack and is un-DNATed;
 * and `hairpin` on each bridge port, since br_netfilter bridges a packet DNATed
 * to an address behind the same bridge back out of the port it came in by.
 * No global sysctl is changed (`netnsSkipReason` says when br_netfilter is missing).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);
const ip = (...args: string[]) => run("ip", args);

/** Why these tests cannot run here (not root, a binary or br_netfilter missing), or false. */
export function netnsSkipReason(binaries: [string, string][] = []): string | false {
  if (process.getuid?.() !== 0) return "needs root (network namespaces, nftables)";
  const onPath = (bin: string) =>
    (process.env.PATH ?? "").split(":").some((dir) => existsSync(`${dir}/${bin}`));
  for (const [bin, pkg] of [["nft", "nftables"], ["ip", "iproute2"], ...binaries])
    if (!onPath(bin ?? "")) return `${bin} is not installed (Debian package ${pkg})`;
  if (!existsSync("/proc/sys/net/bridge"))
    return "br_netfilter is not loaded (modprobe br_netfilter)";
  return false;
}

/**
 * This process's third octet in the address ranges of a test file (each file
 * has /16s of its own): 20–219, so parallel runs of one file rarely meet.
 */
export const NET_INDEX = (process.pid % 200) + 20;

/** Kills `child` (by its pid) unless it has exited, and waits for its exit. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

export interface NetnsHost {
  name: string;
  ns: string;
  veth: string;
  ip: string;
}

/** Host `index` of a bridge net whose names start with `prefix` (and this process's pid). */
export function netnsHost(prefix: string, index: number, name: string, ip: string): NetnsHost {
  const pid = process.pid;
  return { name, ip, ns: `${prefix}${pid}${name}`, veth: `${prefix}${pid}v${index}`.slice(0, 15) };
}

export interface BridgeNet {
  bridge: string;
  /** The bridge's address: every host's default gateway. */
  gateway: string;
  /**
   * Runs `node -e script name ...args` in `host`; resolves once it wrote its
   * first line (its "ready"), rejects if it exits first.
   */
  spawnIn(host: NetnsHost, script: string, args?: string[]): Promise<ChildProcess>;
  /** Kills what `spawnIn` started, by pid, and deletes the links and namespaces. */
  stop(): Promise<void>;
}

/**
 * `net` is a /24 prefix (`a.b.c`) holding the hosts' addresses; the bridge gets
 * `.1`; names start with `prefix` and this process's pid (`netnsHost`), so
 * parallel test files never share one.
 */
export async function startBridgeNet(
  prefix: string,
  net: string,
  hosts: NetnsHost[],
): Promise<BridgeNet> {
  const bridge = `${prefix}br${process.pid}`.slice(0, 15);
  const gateway = `${net}.1`;
  const children: ChildProcess[] = [];
  const namespaces: string[] = [];
  const links: string[] = [];
  const stop = async () => {
    await Promise.all(children.map(killChild));
    for (const l of links) await ip("link", "del", l).catch(() => {});
    for (const ns of namespaces) await ip("netns", "del", ns).catch(() => {});
  };

  try {
    await ip("link", "add", bridge, "type", "bridge", "nf_call_iptables", "1");
    links.push(bridge);
    await ip("addr", "add", `${gateway}/24`, "dev", bridge);
    await ip("link", "set", bridge, "up");
    writeFileSync(`/proc/sys/net/ipv4/conf/${bridge}/forwarding`, "1");
    for (const host of hosts) {
      await ip("netns", "add", host.ns);
      namespaces.push(host.ns);
      await ip("link", "add", host.veth, "type", "veth", "peer", "name", "eth0", "netns", host.ns);
      links.push(host.veth);
      await ip("link", "set", host.veth, "master", bridge, "up");
      // A DNAT back to the sender's own port is bridged back out of it (br_netfilter's
      // "bridged DNAT"): the port must allow that, as the CNI bridge's hairpinMode does.
      await ip("link", "set", host.veth, "type", "bridge_slave", "hairpin", "on");
      await ip("-n", host.ns, "addr", "add", `${host.ip}/24`, "dev", "eth0");
      await ip("-n", host.ns, "link", "set", "eth0", "up");
      await ip("-n", host.ns, "link", "set", "lo", "up");
      await ip("-n", host.ns, "route", "add", "default", "via", gateway);
    }
  } catch (e) {
    await stop();
    throw e;
  }

  const spawnIn = async (host: NetnsHost, script: string, args: string[] = []) => {
    const child = spawn(
      "ip",
      ["netns", "exec", host.ns, "node", "-e", script, host.name, ...args],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once("data", () => resolve());
      child.once("exit", (code) => reject(new Error(`${host.name} exited with ${code}`)));
    });
    return child;
  };

  return { bridge, gateway, spawnIn, stop };
}
