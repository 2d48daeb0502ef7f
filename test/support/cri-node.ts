/**
 * A container runtime for tests of the node agent on CRI, made as `hearth up
 * --runtime cri` makes it (src/cli/container-runtime.ts) but with only the
 * test images published: a local registry on loopback, and a containerd of
 * the test's own under DATA_DIR/containerd whose CNI network is Hearth's
 * bridge over `podCIDR` and which pulls docker.io names from that registry.
 * `stop()` removes every pod sandbox still there (their containers and
 * network namespaces) through CRI, ends containerd, undoes whatever is still
 * left of it (shims, container processes, mounts under DATA_DIR), removes the
 * bridge and the IPAM state, and stops the registry. `criSkipReason` says why
 * this cannot run here (not root, images or tools missing).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
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
  deleteTable,
  mirrorPathOf,
  removePodNetwork,
  SANDBOX_IMAGE,
  tableNameFor,
  writePodNetwork,
  writeRegistryHosts,
} from "../../src/node/index.js";
import { removeLeftovers } from "./containerd-leftovers.js";

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
  const cache = imageCache();
  for (const ref of TEST_IMAGES)
    if (builtSpecs(cache, [findSpec(ref)!]).length === 0)
      return `image ${ref} is not built in ${cache.layout} (run ./hearth help as root)`;
  if (!existsSync("/usr/lib/cni/bridge")) return "the CNI plugins are missing";
  return false;
}

export async function startCriNode(dataDir: string, podCIDR: string): Promise<CriNode> {
  const stopRegistry = new AbortController();
  const registry = await startRegistry({ dataDir, signal: stopRegistry.signal });
  for (const ref of TEST_IMAGES) await registry.publish(findSpec(ref)!);
  await registry.publish(findSpec("busybox:1.35")!, undefined, "library/busybox:latest");
  await registry.publish(findSpec("pause:3.9")!, undefined, mirrorPathOf(SANDBOX_IMAGE));
  const layout = containerdLayout(dataDir);
  writePodNetwork({ dataDir, podCIDR });
  writeRegistryHosts(layout.registryConfigDir, registry.address);
  const stopContainerd = new AbortController();
  const supervisor = new ContainerdSupervisor({ dataDir, sandboxImage: SANDBOX_IMAGE });
  await supervisor.start(stopContainerd.signal);
  return {
    socket: supervisor.socket,
    registry,
    bridge: bridgeName(dataDir),
    async stop() {
      await removeSandboxes(supervisor.socket);
      stopContainerd.abort();
      await supervisor.stopped();
      removeLeftovers(dataDir, [layout.config, layout.socket]);
      await removePodNetwork(dataDir);
      stopRegistry.abort();
      await registry.stopped;
    },
  };
}

/**
 * Undoes what a `hearth up --runtime cri` on `dataDir` leaves when it was
 * killed rather than stopped: its sandboxes (through CRI, while containerd
 * still answers), then containerd, its shims, containers, registry and mounts
 * (only processes naming this DIR's files), the pod network and the nftables
 * table. Nothing happens for a DIR without a containerd of its own.
 */
export async function removeContainerRuntime(dataDir: string): Promise<void> {
  const layout = containerdLayout(dataDir);
  if (!existsSync(layout.config)) return;
  await removeSandboxes(layout.socket).catch(() => {});
  removeLeftovers(dataDir, [layout.config, layout.socket, join(dataDir, "registry", "config.yml")]);
  await removePodNetwork(dataDir).catch(() => {});
  await deleteTable(tableNameFor(dataDir)).catch(() => {});
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
