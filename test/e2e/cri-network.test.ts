/**
 * The pod network and the image mirror on a real containerd: the local
 * registry (docker-registry) serves pause and nginx from the image cache,
 * the registry hosts make it docker.io's and registry.k8s.io's mirror, and
 * the CNI conflist puts each sandbox on Hearth's bridge. `PullImage
 * ("nginx:1.22")` succeeds offline; two sandboxes, each in its own network
 * namespace, get different addresses in the pod CIDR, and stock nginx (bound
 * to 0.0.0.0:80) answers on each from the host; after Stop/RemovePodSandbox
 * and removePodNetwork no bridge, veth or network namespace is left.
 * Skips unless root with containerd and the built images (./hearth builds them).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  builtSpecs,
  findSpec,
  imageCache,
  type Registry,
  startRegistry,
} from "../../src/images/index.js";
import {
  bridgeName,
  ContainerdSupervisor,
  CriClient,
  checkCanRun,
  containerdLayout,
  mirrorPathOf,
  type PodSandboxConfig,
  removePodNetwork,
  SANDBOX_IMAGE,
  writePodNetwork,
  writeRegistryHosts,
} from "../../src/node/index.js";
import { removeLeftovers } from "../support/containerd-leftovers.js";
import { waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.231.0.0/24";
const NGINX = "nginx:1.22";
const specs = ["pause", "nginx"].map((n) => findSpec(n)!);
const call = { timeoutMs: 60_000 };

function skipReason(): string | false {
  try {
    checkCanRun("containerd");
  } catch (e) {
    return (e as Error).message;
  }
  const cache = imageCache();
  if (builtSpecs(cache, specs).length < specs.length)
    return `pause and nginx are not built in ${cache.layout} (./hearth builds them as root)`;
  return false;
}

/** Names of links that satisfy `ip link show` with these arguments. */
function links(...args: string[]): string[] {
  const out = execFileSync("ip", ["-o", "link", "show", ...args], { encoding: "utf8" });
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split(": ")[1]!.split("@")[0]!);
}

function sandboxConfig(name: string, logDirectory: string): PodSandboxConfig {
  // No namespaceOptions: network POD, the default — a namespace of its own, on the CNI bridge.
  return {
    metadata: { name, uid: `uid-${name}`, namespace: "default" },
    hostname: name,
    logDirectory,
  };
}

async function httpGet(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  return { status: res.status, body: await res.text() };
}

/** The network namespace path of a sandbox, from its verbose status. */
function netnsOf(info: Record<string, string>): string {
  const spec = JSON.parse(info.info ?? "{}") as {
    runtimeSpec?: { linux?: { namespaces?: { type: string; path?: string }[] } };
  };
  const ns = spec.runtimeSpec?.linux?.namespaces?.find((n) => n.type === "network")?.path;
  assert.ok(ns, "the sandbox names its network namespace");
  return ns;
}

describe("the pod network and the image mirror on containerd", { skip: skipReason() }, () => {
  test("pulls offline, gives each sandbox its own address, serves nginx, and leaves nothing", async () => {
    const tmp = mkdtempSync("/tmp/hearth-crinet-");
    const dataDir = join(tmp, "data");
    const layout = containerdLayout(dataDir);
    const bridge = bridgeName(dataDir);
    const registryStop = new AbortController();
    const containerdStop = new AbortController();
    let cri: CriClient | undefined;
    let registry: Registry | undefined;
    let cleaned: string[] = [];
    try {
      registry = await startRegistry({ dataDir, signal: registryStop.signal });
      const cache = imageCache();
      for (const spec of specs) await registry.publish(spec, cache);
      await registry.publish(specs[0]!, cache, mirrorPathOf(SANDBOX_IMAGE));
      writePodNetwork({ dataDir, podCIDR: POD_CIDR });
      writeRegistryHosts(layout.registryConfigDir, registry.address);
      const sup = new ContainerdSupervisor({ dataDir, sandboxImage: SANDBOX_IMAGE });
      await sup.start(containerdStop.signal);
      cri = await CriClient.connect(sup.socket);

      // docker.io is unreachable here: the pull can only come from the mirror.
      const started = Date.now();
      const ref = await cri.pullImage({ image: NGINX }, call);
      assert.match(ref, /^sha256:/);
      const pullMs = Date.now() - started;
      assert.ok(await cri.imageStatus({ image: `docker.io/library/${NGINX}` }, call));

      const logs = join(tmp, "logs");
      const pods: { id: string; ip: string; netns: string }[] = [];
      for (const name of ["web-a", "web-b"]) {
        const dir = join(logs, name);
        mkdirSync(dir, { recursive: true });
        const config = sandboxConfig(name, dir);
        const id = await cri.runPodSandbox(config, call);
        const status = await cri.podSandboxStatus(id, { ...call, verbose: true });
        const ip = status.status?.network?.ip ?? "";
        assert.match(ip, /^10\.231\.0\.\d+$/, `${name} has an address in ${POD_CIDR}`);
        assert.notEqual(ip, "10.231.0.1", "the first address is the bridge's");
        const container = await cri.createContainer(
          id,
          { metadata: { name: "nginx" }, image: { image: NGINX }, logPath: "nginx.log" },
          config,
          call,
        );
        await cri.startContainer(container, call);
        // containerd runs CNI's loopback plugin itself: lo is up (IFF_UP) in the pod's namespace.
        const lo = await cri.execSync(container, ["cat", "/sys/class/net/lo/flags"], 10, call);
        assert.equal(Number(lo.stdout.toString().trim()) & 1, 1, `lo is up in ${name}`);
        pods.push({ id, ip, netns: netnsOf(status.info) });
      }
      assert.notEqual(pods[0]!.ip, pods[1]!.ip, "two sandboxes, two addresses");
      assert.notEqual(pods[0]!.netns, pods[1]!.netns);
      for (const p of pods) {
        assert.ok(p.netns.startsWith(`${layout.state}/`), `${p.netns} is under containerd's state`);
        const res = await waitFor(`nginx on ${p.ip}:80`, () => httpGet(`http://${p.ip}/`));
        assert.equal(res.status, 200);
        assert.match(res.body, /Welcome to nginx/);
      }
      // The bridge holds the gateway address; each sandbox's veth is on it.
      const addr = execFileSync("ip", ["-o", "-4", "addr", "show", "dev", bridge], {
        encoding: "utf8",
      });
      assert.match(addr, /inet 10\.231\.0\.1\/24/);
      const veths = links("master", bridge);
      assert.equal(veths.length, 2, `two veths on ${bridge}: ${veths.join(", ")}`);

      for (const p of pods) {
        await cri.stopPodSandbox(p.id, call);
        await cri.removePodSandbox(p.id, call);
      }
      assert.deepEqual(await cri.listPodSandbox({}, call), []);
      cri.close();
      cri = undefined;
      containerdStop.abort();
      await sup.stopped();
      await removePodNetwork(dataDir);

      assert.deepEqual(
        links("type", "bridge").filter((l) => l === bridge),
        [],
        "no bridge",
      );
      const allLinks = links();
      assert.deepEqual(
        veths.filter((v) => allLinks.includes(v)),
        [],
        "no veth of the sandboxes",
      );
      for (const p of pods) assert.equal(existsSync(p.netns), false, `${p.netns} is gone`);
      const netnsDir = join(layout.state, "io.containerd.grpc.v1.cri", "netns");
      assert.deepEqual(existsSync(netnsDir) ? readdirSync(netnsDir) : [], []);
      const hostNetns = existsSync("/run/netns") ? readdirSync("/run/netns") : [];
      for (const p of pods)
        assert.ok(!hostNetns.some((n) => p.netns.endsWith(`/${n}`)), "nothing in /run/netns");
      assert.equal(existsSync(layout.cniIpamDir), false, "no IPAM leases");
      console.log(`# nginx:1.22 pulled from the mirror in ${pullMs} ms; netns ${pods[0]!.netns}`);
    } finally {
      cri?.close();
      containerdStop.abort();
      registryStop.abort();
      await registry?.stopped;
      cleaned = removeLeftovers(tmp, [layout.config, layout.socket]);
      await removePodNetwork(dataDir).catch(() => {});
      rmSync(tmp, { recursive: true, force: true });
    }
    // After the finally, so a failure inside the test is the one reported.
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
  });
});
