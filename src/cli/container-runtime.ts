/**
 * The container runtime of `hearth up` and `hearth node`: pods are always
 * containers through CRI (`--runtime cri` is accepted and changes nothing;
 * `--runtime host` is refused: host processes are gone).
 *
 * - With `--containerd-socket PATH`: the agent uses that containerd's CRI
 *   socket. Hearth starts nothing and writes no CNI or registry hosts
 *   configuration: that containerd brings its own (see USAGE in hearth.ts).
 * - Without it (root only): the local image registry under DIR/registry with
 *   every image the cache holds published, the pod network's CNI conflist and
 *   the registry hosts under DIR/containerd (with those of
 *   `--insecure-registry HOST[,HOST…]`), then a ContainerdSupervisor under
 *   DIR; the agent gets `cri: { socket }`.
 *
 * Stop order, once the agent has stopped (and removed its sandboxes):
 * containerd, then the pod network (only when no sandbox is ready: a bridge
 * deleted under a kept pod would cut it off), then the registry (the last
 * thing a pull could need).
 */

import { DEFAULT_SERVICE_CIDR } from "../apiserver/index.js";
import {
  builtSpecs,
  findSpec,
  IMAGE_SPECS,
  type ImageCache,
  imageCache,
  type Registry,
  startRegistry,
} from "../images/index.js";
import {
  ContainerdSupervisor,
  type CriAgentOptions,
  CriClient,
  checkCanRun,
  checkPodCidrFree,
  DEFAULT_CRI_POD_CIDR,
  ensurePodBridge,
  type InsecureRegistry,
  mirrorPathOf,
  parseInsecureRegistry,
  parsePodCidr,
  removePodNetwork,
  SANDBOX_IMAGE,
  writePodNetwork,
  writeRegistryHosts,
} from "../node/index.js";
import type { ParsedArgs } from "./args.js";

export interface RuntimeChoice {
  podCIDR: string;
  serviceCIDR: string;
  socket?: string;
  /** Registries its own containerd pulls from without TLS verification. */
  insecureRegistries?: InsecureRegistry[];
}

/**
 * What `--runtime host` gets: the host-process runtime is gone, and what to
 * do instead.
 */
export const HOST_RUNTIME_GONE =
  "--runtime host is gone: pods run only as containers through CRI. Run as root (Hearth starts a containerd of its own), or give --containerd-socket PATH of a running containerd, or run the API without pods with --no-node-agent";

/** The runtime flags, checked. */
export function runtimeChoice(args: ParsedArgs): RuntimeChoice {
  const socket = args.flags.get("containerd-socket");
  const kind = args.flags.get("runtime") ?? "cri";
  if (kind === "host") throw new Error(HOST_RUNTIME_GONE);
  if (kind !== "cri") throw new Error(`--runtime must be cri, got ${JSON.stringify(kind)}`);
  const insecure = args.flags.get("insecure-registry");
  if (insecure !== undefined && socket)
    throw new Error(
      "--insecure-registry configures the containerd Hearth runs itself; with --containerd-socket, configure that containerd's registry hosts",
    );
  const podCIDR = parsePodCidr(args.flags.get("pod-cidr") ?? DEFAULT_CRI_POD_CIDR).subnet;
  const serviceCIDR = args.flags.get("service-cidr") ?? DEFAULT_SERVICE_CIDR;
  const insecureRegistries = insecure?.split(",").map(parseInsecureRegistry);
  return {
    podCIDR,
    serviceCIDR,
    ...(socket ? { socket } : {}),
    ...(insecureRegistries ? { insecureRegistries } : {}),
  };
}

/** Throws the clear refusal (root, the containerd binary) before anything starts. */
export function checkRuntimeCanStart(choice: RuntimeChoice): void {
  if (choice.socket === undefined) checkCanRun("containerd");
}

/** A started runtime: what the agent is given, and the stop that follows the agent's. */
export interface ContainerRuntime {
  cri?: CriAgentOptions;
  /** Stops what this started, in order; call once the agent has stopped. */
  stop(): Promise<void>;
}

/**
 * Publishes every image the cache holds under `library/<name>:<tag>` and
 * `library/<name>:latest`, and pause also where containerd asks the mirror for
 * SANDBOX_IMAGE. A cache without pause is refused: no sandbox could start.
 */
export async function publishCachedImages(registry: Registry, cache: ImageCache): Promise<void> {
  const specs = builtSpecs(cache, IMAGE_SPECS);
  const pause = findSpec("pause")!;
  if (!specs.includes(pause))
    throw new Error(
      `no pause image in ${cache.layout}: build Hearth's images first (hearth images build, as root; ./hearth does it)`,
    );
  for (const spec of specs) await registry.publish(spec, cache);
  // `image: busybox` means busybox:latest: the one version of each that Hearth builds.
  const latest = new Map(specs.map((spec) => [spec.name, spec]));
  for (const spec of latest.values())
    await registry.publish(spec, cache, `library/${spec.name}:latest`);
  await registry.publish(pause, cache, mirrorPathOf(SANDBOX_IMAGE));
}

export async function startContainerRuntime(
  choice: RuntimeChoice,
  dataDir: string,
  log: (msg: string, err?: unknown) => void,
): Promise<ContainerRuntime> {
  if (choice.socket !== undefined) {
    const sup = new ContainerdSupervisor({
      dataDir,
      socket: choice.socket,
      sandboxImage: SANDBOX_IMAGE,
    });
    await sup.start(new AbortController().signal);
    return { cri: { socket: choice.socket }, stop: async () => {} };
  }
  checkRuntimeCanStart(choice);
  const registryStop = new AbortController();
  const containerdStop = new AbortController();
  let registry: Registry | undefined;
  let sup: ContainerdSupervisor | undefined;
  let up = false;
  const stop = async () => {
    if (sup) {
      const left = up
        ? await readySandboxes(sup.socket).catch((e: unknown) => {
            log("cannot list pod sandboxes; keeping the pod network", e);
            return -1;
          })
        : -1;
      containerdStop.abort();
      await sup.stopped();
      if (left === 0) await removePodNetwork(dataDir).catch((e: unknown) => log("pod network", e));
      else if (left > 0)
        log(`${left} pod sandbox(es) still running: keeping the pod network of ${dataDir}`);
    }
    registryStop.abort();
    await registry?.stopped;
  };
  try {
    await checkPodCidrFree({ dataDir, podCIDR: choice.podCIDR });
    registry = await startRegistry({ dataDir, signal: registryStop.signal, log });
    await publishCachedImages(registry, imageCache());
    sup = new ContainerdSupervisor({ dataDir, sandboxImage: SANDBOX_IMAGE, log });
    writePodNetwork({ dataDir, podCIDR: choice.podCIDR });
    // The bridge before any sandbox: cluster DNS listens on its gateway address.
    await ensurePodBridge({ dataDir, podCIDR: choice.podCIDR });
    writeRegistryHosts(
      sup.layout.registryConfigDir,
      registry.address,
      choice.insecureRegistries ?? [],
    );
    await sup.start(containerdStop.signal);
    up = true;
  } catch (e) {
    await stop();
    throw e;
  }
  return { cri: { socket: sup.socket }, stop };
}

/** Sandboxes whose network is still set up (a stopped one has had its CNI DEL). */
async function readySandboxes(socket: string): Promise<number> {
  const cri = await CriClient.connect(socket);
  try {
    const filter = { state: { state: "SANDBOX_READY" as const } };
    return (await cri.listPodSandbox(filter, { timeoutMs: 10_000 })).length;
  } finally {
    cri.close();
  }
}
