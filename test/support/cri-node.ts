/**
 * A container runtime for tests of the node agent on CRI: a local registry
 * on loopback with Hearth's images published from the set-up cache, and a
 * containerd of the test's own under DATA_DIR/containerd whose CNI network is
 * a bridge over `podCIDR` and which pulls docker.io names from that
 * registry. `stop()` removes every pod sandbox still there (their
 * containers and network namespaces) through CRI, ends containerd and the
 * registry, removes the bridge and the IPAM state, and undoes whatever is
 * still left of that containerd (shims, mounts under DATA_DIR). Skips (a reason) when not root or when the images or
 * tools are missing.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  DEFAULT_IMAGE_CACHE,
  findSpec,
  type Registry,
  startRegistry,
} from "../../src/images/index.js";
import {
  ContainerdSupervisor,
  CriClient,
  checkCanRun,
  containerdLayout,
} from "../../src/node/index.js";
import { removeLeftovers } from "./containerd-leftovers.js";

export const SANDBOX_IMAGE = "docker.io/library/pause:3.9";
export const TEST_IMAGES = ["busybox:1.35", "pause:3.9", "nginx:1.22"];

export interface CriNode {
  socket: string;
  registry: Registry;
  bridge: string;
  stop(): Promise<void>;
}

export function criSkipReason(): string | false {
  if (process.getuid?.() !== 0) return "needs root (containerd, CNI)";
  try {
    checkCanRun("containerd");
  } catch (e) {
    return (e as Error).message;
  }
  for (const ref of TEST_IMAGES) {
    const [name, tag] = ref.split(":");
    if (!existsSync(join(DEFAULT_IMAGE_CACHE, "builds", `${name}-${tag}.json`)))
      return `image ${ref} is not built (run ./hearth help as root)`;
  }
  if (!existsSync("/usr/lib/cni/bridge")) return "the CNI plugins are missing";
  return false;
}

function bridgeName(dataDir: string): string {
  return `hth${createHash("sha256").update(dataDir).digest("hex").slice(0, 8)}`;
}

export async function startCriNode(dataDir: string, podCIDR: string): Promise<CriNode> {
  const stopRegistry = new AbortController();
  const registry = await startRegistry({ dataDir, signal: stopRegistry.signal });
  for (const ref of TEST_IMAGES) await registry.publish(findSpec(ref)!);
  const layout = containerdLayout(dataDir);
  const bridge = bridgeName(dataDir);
  const ipam = join(dataDir, "cni", "ipam");
  mkdirSync(layout.cniConfDir, { recursive: true });
  writeFileSync(
    join(layout.cniConfDir, "10-hearth.conflist"),
    JSON.stringify({
      cniVersion: "0.4.0",
      name: "hearth",
      plugins: [
        {
          type: "bridge",
          bridge,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: { type: "host-local", ranges: [[{ subnet: podCIDR }]], dataDir: ipam },
        },
      ],
    }),
  );
  const hosts = join(layout.registryConfigDir, "docker.io");
  mkdirSync(hosts, { recursive: true });
  writeFileSync(
    join(hosts, "hosts.toml"),
    `server = "http://${registry.address}"\n\n[host."http://${registry.address}"]\n  capabilities = ["pull", "resolve"]\n`,
  );
  const stopContainerd = new AbortController();
  const supervisor = new ContainerdSupervisor({ dataDir, sandboxImage: SANDBOX_IMAGE });
  await supervisor.start(stopContainerd.signal);
  return {
    socket: supervisor.socket,
    registry,
    bridge,
    async stop() {
      await removeSandboxes(supervisor.socket);
      stopContainerd.abort();
      await supervisor.stopped();
      removeLeftovers(dataDir, [layout.config, layout.socket]);
      try {
        execFileSync("ip", ["link", "del", bridge], { stdio: "ignore" });
      } catch {
        // not there
      }
      rmSync(ipam, { recursive: true, force: true });
      stopRegistry.abort();
      await registry.stopped;
    },
  };
}

/** Stops and removes every sandbox (and so every container) the runtime has. */
export async function removeSandboxes(socket: string): Promise<void> {
  const cri = await CriClient.connect(socket);
  try {
    for (const sb of await cri.listPodSandbox({}, { timeoutMs: 10_000 })) {
      await cri.stopPodSandbox(sb.id, { timeoutMs: 30_000 });
      await cri.removePodSandbox(sb.id, { timeoutMs: 30_000 });
    }
  } finally {
    cri.close();
  }
}
