/**
 * A typed client of the Container Runtime Interface (`runtime.v1`, the
 * RuntimeService and ImageService the kubelet speaks) over a runtime's unix
 * socket. Every call takes `{signal, timeoutMs}`; failures arrive as the typed
 * errors of cri-errors.ts (a missing container, sandbox or image is a
 * `NotFoundError`). The methods are the subset the node agent needs, named as
 * in the proto.
 */

import protobuf from "protobufjs";
import type {
  AuthConfig,
  Container,
  ContainerConfig,
  ContainerFilter,
  ContainerStats,
  ContainerStatsFilter,
  ContainerStatusResponse,
  ExecSyncResponse,
  Image,
  ImageSpec,
  PodSandbox,
  PodSandboxConfig,
  PodSandboxFilter,
  PodSandboxStatusResponse,
  VersionResponse,
} from "./cri-types.js";
import { type CallOptions, CriChannel } from "./grpc-channel.js";

/** A process of a container as containerd's Tasks service lists it. */
export interface ContainerProcess {
  pid: number;
  /** The exec that started it; absent for the container's init and its children. */
  execId?: string;
}

interface RawProcessInfo {
  pid: number;
  /** proto-loader keeps google.protobuf.Any's field names as they are in the proto. */
  info: { type_url: string; value: Buffer } | null;
}

/** The runc shim's `containerd.runc.v1.ProcessDetails`, the `info` of an exec's process. */
const PROCESS_DETAILS = new protobuf.Type("ProcessDetails").add(
  new protobuf.Field("execId", 1, "string"),
);

/** The kubelet's `--runtime-request-timeout` default. */
export const DEFAULT_CRI_TIMEOUT_MS = 120_000;

const sandbox = (id: string) => ({ resource: "podsandboxes", name: id });
const container = (id: string) => ({ resource: "containers", name: id });
const image = (ref: string) => ({ resource: "images", name: ref });

export class CriClient {
  private constructor(
    private readonly channel: CriChannel,
    /** The socket this client talks to. */
    readonly socket: string,
  ) {}

  /** Opens a client on `socket` (lazily: the first call connects). */
  static async connect(
    socket: string,
    opts: { defaultTimeoutMs?: number } = {},
  ): Promise<CriClient> {
    const channel = await CriChannel.open(socket, opts.defaultTimeoutMs ?? DEFAULT_CRI_TIMEOUT_MS);
    return new CriClient(channel, socket);
  }

  close(): void {
    this.channel.close();
  }

  version(opts: CallOptions): Promise<VersionResponse> {
    return this.channel.unary("runtime", "Version", { version: "v1" }, opts);
  }

  // --- pod sandboxes

  /** Creates and starts a sandbox; resolves to its id. */
  async runPodSandbox(
    config: PodSandboxConfig,
    opts: CallOptions & { runtimeHandler?: string },
  ): Promise<string> {
    const req = { config, runtimeHandler: opts.runtimeHandler ?? "" };
    const res = await this.channel.unary<{ podSandboxId: string }>(
      "runtime",
      "RunPodSandbox",
      req,
      opts,
    );
    return res.podSandboxId;
  }

  /** Stops every container of the sandbox and the sandbox; idempotent. */
  async stopPodSandbox(id: string, opts: CallOptions): Promise<void> {
    await this.channel.unary("runtime", "StopPodSandbox", { podSandboxId: id }, opts, sandbox(id));
  }

  /** Removes the sandbox and its containers; idempotent (a missing sandbox is no error). */
  async removePodSandbox(id: string, opts: CallOptions): Promise<void> {
    await this.channel.unary(
      "runtime",
      "RemovePodSandbox",
      { podSandboxId: id },
      opts,
      sandbox(id),
    );
  }

  podSandboxStatus(
    id: string,
    opts: CallOptions & { verbose?: boolean },
  ): Promise<PodSandboxStatusResponse> {
    const req = { podSandboxId: id, verbose: opts.verbose ?? false };
    return this.channel.unary("runtime", "PodSandboxStatus", req, opts, sandbox(id));
  }

  async listPodSandbox(filter: PodSandboxFilter, opts: CallOptions): Promise<PodSandbox[]> {
    const res = await this.channel.unary<{ items: PodSandbox[] }>(
      "runtime",
      "ListPodSandbox",
      { filter },
      opts,
    );
    return res.items;
  }

  // --- containers

  /** Creates a container in a sandbox (not started); resolves to its id. */
  async createContainer(
    podSandboxId: string,
    config: ContainerConfig,
    sandboxConfig: PodSandboxConfig,
    opts: CallOptions,
  ): Promise<string> {
    const req = { podSandboxId, config, sandboxConfig };
    const res = await this.channel.unary<{ containerId: string }>(
      "runtime",
      "CreateContainer",
      req,
      opts,
      sandbox(podSandboxId),
    );
    return res.containerId;
  }

  async startContainer(id: string, opts: CallOptions): Promise<void> {
    await this.channel.unary("runtime", "StartContainer", { containerId: id }, opts, container(id));
  }

  /** SIGTERM (or the image's STOPSIGNAL), SIGKILL after `graceSeconds`; idempotent. */
  async stopContainer(id: string, graceSeconds: number, opts: CallOptions): Promise<void> {
    const req = { containerId: id, timeout: graceSeconds };
    // The runtime waits up to the grace period: the call's deadline must outlast it.
    const timeoutMs = opts.timeoutMs ?? graceSeconds * 1000 + this.channel.defaultTimeoutMs;
    await this.channel.unary(
      "runtime",
      "StopContainer",
      req,
      { ...opts, timeoutMs },
      container(id),
    );
  }

  async removeContainer(id: string, opts: CallOptions): Promise<void> {
    await this.channel.unary(
      "runtime",
      "RemoveContainer",
      { containerId: id },
      opts,
      container(id),
    );
  }

  containerStatus(
    id: string,
    opts: CallOptions & { verbose?: boolean },
  ): Promise<ContainerStatusResponse> {
    const req = { containerId: id, verbose: opts.verbose ?? false };
    return this.channel.unary("runtime", "ContainerStatus", req, opts, container(id));
  }

  async listContainers(filter: ContainerFilter, opts: CallOptions): Promise<Container[]> {
    const res = await this.channel.unary<{ containers: Container[] }>(
      "runtime",
      "ListContainers",
      { filter },
      opts,
    );
    return res.containers;
  }

  /** Runs `cmd` in the container and waits for it, at most `timeoutSeconds` (0: no limit). */
  execSync(
    id: string,
    cmd: string[],
    timeoutSeconds: number,
    opts: CallOptions,
  ): Promise<ExecSyncResponse> {
    const req = { containerId: id, cmd, timeout: timeoutSeconds };
    const timeoutMs =
      opts.timeoutMs ??
      (timeoutSeconds > 0 ? timeoutSeconds * 1000 + 5_000 : this.channel.defaultTimeoutMs);
    return this.channel.unary("runtime", "ExecSync", req, { ...opts, timeoutMs }, container(id));
  }

  /** A URL on the runtime's streaming server where `cmd` runs in the container once connected. */
  async exec(
    id: string,
    req: { cmd: string[]; tty: boolean; stdin: boolean; stdout: boolean; stderr: boolean },
    opts: CallOptions,
  ): Promise<string> {
    const body = { containerId: id, ...req };
    const res = await this.channel.unary<{ url: string }>(
      "runtime",
      "Exec",
      body,
      opts,
      container(id),
    );
    return res.url;
  }

  /** A URL on the runtime's streaming server attached to the container's main process. */
  async attach(
    id: string,
    req: { tty: boolean; stdin: boolean; stdout: boolean; stderr: boolean },
    opts: CallOptions,
  ): Promise<string> {
    const body = { containerId: id, ...req };
    const res = await this.channel.unary<{ url: string }>(
      "runtime",
      "Attach",
      body,
      opts,
      container(id),
    );
    return res.url;
  }

  /** A URL on the runtime's streaming server forwarding to ports of the sandbox's network namespace. */
  async portForward(sandboxId: string, ports: number[], opts: CallOptions): Promise<string> {
    const body = { podSandboxId: sandboxId, port: ports };
    const res = await this.channel.unary<{ url: string }>(
      "runtime",
      "PortForward",
      body,
      opts,
      sandbox(sandboxId),
    );
    return res.url;
  }

  async containerStats(id: string, opts: CallOptions): Promise<ContainerStats> {
    const res = await this.channel.unary<{ stats: ContainerStats }>(
      "runtime",
      "ContainerStats",
      { containerId: id },
      opts,
      container(id),
    );
    return res.stats;
  }

  async listContainerStats(
    filter: ContainerStatsFilter,
    opts: CallOptions,
  ): Promise<ContainerStats[]> {
    const res = await this.channel.unary<{ stats: ContainerStats[] }>(
      "runtime",
      "ListContainerStats",
      { filter },
      opts,
    );
    return res.stats;
  }

  /**
   * Every live process of the container, from containerd's own Tasks service
   * (not CRI's): its host pid and, for one an exec started, the exec's id.
   * An exec's process keeps its pid (and so its id here) across an `execve`.
   */
  async listPids(id: string, opts: CallOptions): Promise<ContainerProcess[]> {
    const res = await this.channel.unary<{ processes: RawProcessInfo[] }>(
      "tasks",
      "ListPids",
      { containerId: id },
      opts,
      container(id),
    );
    return res.processes.map(({ pid, info }) => {
      const execId = info?.type_url.endsWith("ProcessDetails")
        ? (PROCESS_DETAILS.decode(info.value) as unknown as { execId: string }).execId
        : "";
      return execId ? { pid, execId } : { pid };
    });
  }

  // --- images

  /** Pulls an image; resolves to its reference (digest). */
  async pullImage(
    spec: ImageSpec,
    opts: CallOptions & { auth?: AuthConfig; sandboxConfig?: PodSandboxConfig },
  ): Promise<string> {
    const req = { image: spec, auth: opts.auth, sandboxConfig: opts.sandboxConfig };
    const res = await this.channel.unary<{ imageRef: string }>(
      "image",
      "PullImage",
      req,
      opts,
      image(spec.image),
    );
    return res.imageRef;
  }

  /** The image, or undefined when the runtime does not have it (CRI answers an empty status). */
  async imageStatus(spec: ImageSpec, opts: CallOptions): Promise<Image | undefined> {
    const res = await this.channel.unary<{ image: Image | null }>(
      "image",
      "ImageStatus",
      { image: spec, verbose: false },
      opts,
      image(spec.image),
    );
    return res.image ?? undefined;
  }

  async listImages(filter: { image?: ImageSpec }, opts: CallOptions): Promise<Image[]> {
    const res = await this.channel.unary<{ images: Image[] }>(
      "image",
      "ListImages",
      { filter },
      opts,
    );
    return res.images;
  }

  async removeImage(spec: ImageSpec, opts: CallOptions): Promise<void> {
    await this.channel.unary("image", "RemoveImage", { image: spec }, opts, image(spec.image));
  }
}
