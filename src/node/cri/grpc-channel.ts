/**
 * The gRPC side of the CRI client: loads @grpc/grpc-js, @grpc/proto-loader
 * and the vendored api.proto on first use (so a `hearth up` that never talks
 * to a container runtime does not pay for them), opens the two services on
 * one unix socket, and runs one unary call with a deadline and an
 * AbortSignal. The proto is read from the source tree (`src/node/cri/`),
 * which is always beside `dist/`; the build copies no assets.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type * as GrpcJs from "@grpc/grpc-js";
import { type CriSubject, criError, type GrpcFailure } from "./cri-errors.js";

/** This file compiles to dist/src/node/cri/; the repository root is four levels up. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const CRI_PROTO = resolve(REPO_ROOT, "src/node/cri/api.proto");

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
}

let loading: Promise<Loaded> | undefined;

function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [grpc, loader] = await Promise.all([
      import("@grpc/grpc-js"),
      import("@grpc/proto-loader"),
    ]);
    const definition = await loader.load(CRI_PROTO, {
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
    };
    return { grpc, ...pkg.runtime.v1 };
  })();
  return loading;
}

export interface CallOptions {
  /** Aborting cancels the call; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The call's deadline, ms from now (default: the channel's, 2 minutes as the kubelet's). */
  timeoutMs?: number;
}

export type Service = "runtime" | "image";

/** One connection to a CRI runtime's socket: both services share one HTTP/2 channel. */
export class CriChannel {
  private constructor(
    private readonly grpc: typeof GrpcJs,
    private readonly services: Record<Service, ServiceClient>,
    readonly defaultTimeoutMs: number,
  ) {}

  static async open(socket: string, defaultTimeoutMs: number): Promise<CriChannel> {
    const { grpc, RuntimeService, ImageService } = await load();
    const address = `unix://${resolve(socket)}`;
    const creds = grpc.credentials.createInsecure();
    const runtime = new RuntimeService(address, creds, {
      "grpc.max_receive_message_length": 16 * 1024 * 1024,
    });
    const image = new ImageService(address, creds, { channelOverride: runtime.getChannel() });
    return new CriChannel(grpc, { runtime, image }, defaultTimeoutMs);
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
    return new Promise<Res>((resolvePromise, reject) => {
      const onAbort = () => call.cancel();
      const call = fn.call(
        client,
        request,
        new this.grpc.Metadata(),
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
    // The image client rides on the runtime client's channel; closing that one closes both.
    this.services.runtime.close();
  }
}
