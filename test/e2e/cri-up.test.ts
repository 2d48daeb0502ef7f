/**
 * `hearth up --runtime cri` as a user runs it, on a temp data directory:
 * ready with its own containerd (under DIR/containerd) and the local registry
 * (DIR/registry) running, the pod network's conflist and the registry hosts
 * written, the Node's pod CIDR the one given; a sandbox run on its CRI socket
 * gets an address on the bridge. SIGTERM stops it cleanly and leaves no
 * containerd of that directory, no registry, no bridge, no mount. And with
 * `--containerd-socket`, Hearth uses that containerd, writes nothing into it
 * and leaves it running. (Pods themselves do not run on CRI yet: the agent
 * ignores `cri` until the lead's CRI pod runtime lands.)
 * Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { builtSpecs, findSpec, imageCache } from "../../src/images/index.js";
import {
  bridgeName,
  ContainerdSupervisor,
  CriClient,
  checkCanRun,
  containerdLayout,
  isRunning,
} from "../../src/node/index.js";
import { mountsUnder, processesNaming, removeLeftovers } from "../support/containerd-leftovers.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.232.0.0/24";
const call = { timeoutMs: 60_000 };

function skipReason(): string | false {
  try {
    checkCanRun("containerd");
  } catch (e) {
    return (e as Error).message;
  }
  const cache = imageCache();
  if (builtSpecs(cache, [findSpec("pause")!]).length === 0)
    return `pause is not built in ${cache.layout} (./hearth builds it as root)`;
  return false;
}

const bridgeExists = (name: string) =>
  execFileSync("ip", ["-o", "link", "show", "type", "bridge"], { encoding: "utf8" })
    .split("\n")
    .some((l) => l.split(": ")[1] === name);

describe("hearth up --runtime cri", { skip: skipReason() }, () => {
  test("runs containerd and the registry under DIR, and a clean stop leaves none of them", async () => {
    const tmp = mkdtempSync("/tmp/hearth-criup-");
    const dataDir = join(tmp, "data");
    const layout = containerdLayout(dataDir);
    const registryConfig = join(dataDir, "registry", "config.yml");
    const bridge = bridgeName(dataDir);
    let cleaned: string[] = [];
    let hearth: Hearth | undefined;
    let cri: CriClient | undefined;
    try {
      hearth = await startHearth({
        dataDir,
        extraArgs: ["--runtime", "cri", "--pod-cidr", POD_CIDR],
        timeoutMs: 180_000,
      });
      const [containerd] = processesNaming(layout.config);
      assert.ok(containerd && isRunning(containerd), "containerd of DIR runs");
      const [registryPid] = processesNaming(registryConfig);
      assert.ok(registryPid && isRunning(registryPid), "the registry of DIR runs");

      const conflist = JSON.parse(
        readFileSync(join(layout.cniConfDir, "10-hearth.conflist"), "utf8"),
      ) as { plugins: { bridge: string; ipam: { ranges: { subnet: string }[][] } }[] };
      assert.equal(conflist.plugins[0]!.bridge, bridge);
      assert.equal(conflist.plugins[0]!.ipam.ranges[0]![0]!.subnet, POD_CIDR);
      const hosts = readFileSync(join(layout.registryConfigDir, "docker.io", "hosts.toml"), "utf8");
      const mirror = /\[host\."http:\/\/(127\.0\.0\.1:\d+)"\]/.exec(hosts)?.[1];
      assert.ok(mirror, `docker.io has a mirror: ${hosts}`);
      assert.equal((await fetch(`http://${mirror}/v2/`)).status, 200, "the mirror answers");

      const node = JSON.parse(await hearth.kubectlOk(["get", "nodes", "-o", "json"])) as {
        items: { spec: { podCIDR?: string } }[];
      };
      assert.deepEqual(
        node.items.map((n) => n.spec.podCIDR),
        [POD_CIDR],
      );

      // A sandbox on Hearth's containerd: its pause image comes through the mirror, its address from the bridge.
      cri = await CriClient.connect(layout.socket);
      const id = await cri.runPodSandbox(
        { metadata: { name: "probe", uid: "uid-probe", namespace: "default" }, hostname: "probe" },
        call,
      );
      const ip = (await cri.podSandboxStatus(id, call)).status?.network?.ip ?? "";
      assert.match(ip, /^10\.232\.0\.\d+$/);
      assert.ok(bridgeExists(bridge), `${bridge} exists once a sandbox runs`);
      await cri.stopPodSandbox(id, call);
      await cri.removePodSandbox(id, call);
      cri.close();
      cri = undefined;

      assert.equal(await hearth.stop(), 0, "a clean stop");
      assert.equal(isRunning(containerd), false, "containerd stopped");
      assert.equal(isRunning(registryPid), false, "the registry stopped");
      assert.deepEqual(processesNaming(layout.config), []);
      assert.deepEqual(processesNaming(layout.socket), [], "no shim of it");
      assert.equal(bridgeExists(bridge), false, "no bridge");
      assert.equal(existsSync(layout.cniIpamDir), false, "no IPAM leases");
      assert.deepEqual(mountsUnder(tmp), []);
    } finally {
      cri?.close();
      await hearth?.cleanup();
      cleaned = removeLeftovers(tmp, [layout.config, layout.socket, registryConfig]);
      if (bridgeExists(bridge)) execFileSync("ip", ["link", "del", "dev", bridge]);
      rmSync(tmp, { recursive: true, force: true });
    }
    // After the finally, so a failure inside the test is the one reported.
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
  });

  test("after kill -9 the next start adopts containerd and replaces the orphaned registry", async () => {
    const tmp = mkdtempSync("/tmp/hearth-criup-");
    const dataDir = join(tmp, "data");
    const layout = containerdLayout(dataDir);
    const registryConfig = join(dataDir, "registry", "config.yml");
    const extraArgs = ["--runtime", "cri", "--pod-cidr", "10.234.0.0/24"];
    let cleaned: string[] = [];
    const started: Hearth[] = [];
    try {
      const first = await startHearth({ dataDir, extraArgs, timeoutMs: 180_000 });
      started.push(first);
      const [containerd] = processesNaming(layout.config);
      const [orphan] = processesNaming(registryConfig);
      assert.ok(containerd && orphan);
      await first.kill9();
      assert.ok(isRunning(containerd), "containerd outlives its Hearth's kill -9");
      assert.ok(isRunning(orphan), "so does the registry, a plain child");

      const second = await startHearth({ dataDir, extraArgs, timeoutMs: 180_000 });
      started.push(second);
      assert.deepEqual(
        processesNaming(layout.config),
        [containerd],
        "the same containerd, adopted",
      );
      const registries = processesNaming(registryConfig);
      assert.equal(registries.length, 1, `one registry on DIR: ${registries.join(", ")}`);
      assert.notEqual(registries[0], orphan);
      assert.equal(isRunning(orphan), false, "the orphaned registry is stopped");
      assert.equal(await second.stop(), 0);
      assert.deepEqual(processesNaming(layout.config), []);
      assert.deepEqual(processesNaming(registryConfig), []);
    } finally {
      for (const h of started) await h.cleanup();
      cleaned = removeLeftovers(tmp, [layout.config, layout.socket, registryConfig]);
      rmSync(tmp, { recursive: true, force: true });
    }
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
  });

  test("with --containerd-socket it uses that containerd, configures nothing, and leaves it running", async () => {
    const tmp = mkdtempSync("/tmp/hearth-criup-");
    const theirs = join(tmp, "theirs");
    const dataDir = join(tmp, "data");
    const stop = new AbortController();
    let cleaned: string[] = [];
    const sup = new ContainerdSupervisor({
      dataDir: theirs,
      sandboxImage: "registry.k8s.io/pause:3.9",
    });
    try {
      await sup.start(stop.signal);
      const hearth = await startHearth({
        dataDir,
        extraArgs: ["--containerd-socket", sup.socket],
        timeoutMs: 180_000,
      });
      try {
        assert.deepEqual(
          processesNaming(containerdLayout(dataDir).config),
          [],
          "no containerd of its own",
        );
        assert.equal(
          existsSync(join(dataDir, "containerd")),
          false,
          "no containerd config of its own",
        );
        assert.equal(existsSync(join(dataDir, "registry")), false, "no registry");
        assert.equal(await hearth.stop(), 0);
      } finally {
        await hearth.cleanup();
      }
      assert.ok(isRunning(sup.pid!), "the given containerd keeps running");
      const cri = await CriClient.connect(sup.socket);
      await waitFor("CRI on the given containerd", () => cri.version(call)).finally(() =>
        cri.close(),
      );
      stop.abort();
      await sup.stopped();
    } finally {
      stop.abort();
      const l = containerdLayout(theirs);
      cleaned = removeLeftovers(tmp, [l.config, l.socket]);
      rmSync(tmp, { recursive: true, force: true });
    }
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
  });
});
