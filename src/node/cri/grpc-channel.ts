/**
 * The gRPC side of the CRI client: loads @grpc/grpc-js, @grpc/proto-loader
 * and the vendored protos on first use (so a `hearth up` that never talks to
 * a container runtime does not pay for them), opens the services on one unix
 * socket — CRI's two and containerd's own Tasks, which shares the socket —
 * and runs one unary call with a deadline and an AbortSignal. The protos are
 * read from the source tree (`src/node/cri/`), which is always beside
 * `dist/`; the build copies no assets.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type * as GrpcJs from "@grpc/grpc-js";
import { type CriSubject, criError, type GrpcFailure } from "./cri-errors.js";

/** This file compiles to dist/src/node/cri/; the repository root is four levels up. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const CRI_PROTO = resolve(REPO_ROOT, "src/node/cri/api.proto");
const TASKS_PROTO = resolve(REPO_ROOT, "src/node/cri/containerd-tasks.proto");
/** containerd's namespace of CRI's containers, named on every call to its own services. */
const CONTAINERD_NAMESPACE = "k8s.io";

type Callback = (err: GrpcFailure | null, res: unknown) => void;
type UnaryMethod = (
  req: unknown,
  meta: GrpcJs.Metadata,
  opts: GrpcJs.CallOptions,
  cb: Callback,
) => GrpcJs.ClientUnaryCall;
type ServiceClient = GrpcJs.Client & Record<string, UnaryMethod>;
type ServiceCtor = new (
  address: string,
  creds: GrpcJs.ChannelCredentials,
  options?: GrpcJs.ChannelOptions,
) => ServiceClient;

interface Loaded {
  grpc: typeof GrpcJs;
  RuntimeService: ServiceCtor;
  ImageService: ServiceCtor;
  Tasks: ServiceCtor;
}

let loading: Promise<Loaded> | undefined;

function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [grpc, loader] = await Promise.all([
      import("@grpc/grpc-js"),
      import("@grpc/proto-loader"),
    ]);
    const definition = await loader.load([CRI_PROTO, TASKS_PROTO], {
      keepCase: false,
      enums: String,
      longs: Number,
      defaults: true,
      arrays: true,
      objects: true,
      oneofs: true,
    });
    const pkg = grpc.loadPackageDefinition(definition) as unknown as {
      runtime: { v1: { RuntimeService: ServiceCtor; ImageService: ServiceCtor } };
      containerd: { services: { tasks: { v1: { Tasks: ServiceCtor } } } };
    };
    return { grpc, ...pkg.runtime.v1, Tasks: pkg.containerd.services.tasks.v1.Tasks };
  })();
  return loading;
}

export interface CallOptions {
  /** Aborting cancels the call; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The call's deadline, ms from now (default: the channel's, 2 minutes as the kubelet's). */
  timeoutMs?: number;
}

/** CRI's services, and containerd's own Tasks (which a runtime other than containerd lacks). */
export type Service = "runtime" | "image" | "tasks";

/** One connection to a CRI runtime's socket: the services share one HTTP/2 channel. */
export class CriChannel {
  private constructor(
    private readonly grpc: typeof GrpcJs,
    private readonly services: Record<Service, ServiceClient>,
    readonly defaultTimeoutMs: number,
  ) {}

  static async open(socket: string, defaultTimeoutMs: number): Promise<CriChannel> {
    const { grpc, RuntimeService, ImageService, Tasks } = await load();
    const address = `unix://${resolve(socket)}`;
    const creds = grpc.credentials.createInsecure();
    const runtime = new RuntimeService(address, creds, {
      "grpc.max_receive_message_length": 16 * 1024 * 1024,
    });
    const shared = { channelOverride: runtime.getChannel() };
    const image = new ImageService(address, creds, shared);
    const tasks = new Tasks(address, creds, shared);
    return new CriChannel(grpc, { runtime, image, tasks }, defaultTimeoutMs);
  }

  unary<Res>(
    service: Service,
    method: string,
    request: object,
    opts: CallOptions,
    subject?: CriSubject,
  ): Promise<Res> {
    const timeoutMs = opts.timeoutMs ?? this.defaultTimeoutMs;
    const { signal } = opts;
    const client = this.services[service];
    const fn = client[method[0]!.toLowerCase() + method.slice(1)];
    if (typeof fn !== "function")
      return Promise.reject(new Error(`CRI ${service} service has no method ${method}`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const meta = new this.grpc.Metadata();
    if (service === "tasks") meta.set("containerd-namespace", CONTAINERD_NAMESPACE);
    return new Promise<Res>((resolvePromise, reject) => {
      const onAbort = () => call.cancel();
      const call = fn.call(
        client,
        request,
        meta,
        { deadline: Date.now() + timeoutMs },
        (err, res) => {
          signal?.removeEventListener("abort", onAbort);
          if (err) reject(criError(method, err, subject, { signal, timeoutMs }));
          else resolvePromise(res as Res);
        },
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  close(): void {
    // The other clients ride on the runtime client's channel; closing that one closes all.
    this.services.runtime.close();
  }
}
