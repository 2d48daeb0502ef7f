/**
 * The controller test tier: a Hearth apiserver in this process on the memory
 * backend, over plain HTTP on loopback, with a client and a Manager on it.
 * Build controllers on `env.manager`, then `startManager()`; `stop()` stops the
 * Manager, closes the client, the server and the backend. The backend counts
 * the watches the server holds open on it, per storage prefix, so a test can
 * see how many WATCH requests reach the apiserver.
 */
import { setMaxListeners } from "node:events";
import { ApiServer } from "../../src/apiserver/index.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { Manager, type ManagerOptions } from "../../src/runtime/index.js";
import { MemoryBackend, type WatchOptions } from "../../src/storage/index.js";

export class CountingBackend extends MemoryBackend {
  readonly #open = new Map<string, number>();

  /** Watches open now on exactly `prefix` (e.g. `/registry/core/pods/`). */
  openWatches(prefix: string): number {
    return this.#open.get(prefix) ?? 0;
  }

  override async watch(prefix: string, options: WatchOptions, signal: AbortSignal): Promise<void> {
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      this.#open.set(prefix, (this.#open.get(prefix) ?? 1) - 1);
    };
    this.#open.set(prefix, (this.#open.get(prefix) ?? 0) + 1);
    signal.addEventListener("abort", close, { once: true });
    try {
      await super.watch(
        prefix,
        {
          ...options,
          onError: (e) => {
            close();
            options.onError?.(e);
          },
        },
        signal,
      );
    } catch (e) {
      close();
      throw e;
    }
  }
}

export interface Env {
  url: string;
  backend: CountingBackend;
  client: HttpClient;
  manager: Manager;
  /** Starts the Manager; its promise is `managerDone`. */
  startManager(): void;
  /** Resolves (or rejects) when the Manager has stopped. */
  managerDone: Promise<void> | undefined;
  /** Stops the Manager and waits until everything it ran has ended. */
  stopManager(): Promise<void>;
  stop(): Promise<void>;
}

const STOP_TIMEOUT_MS = 10_000;

/** True when `p` settles within `ms`. */
async function bounded(ms: number, p: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface EnvOptions {
  manager?: ManagerOptions;
  /** Where the server's Services get ClusterIPs (default 10.96.0.0/16). */
  serviceCidr?: string;
}

export async function startEnv(opts: EnvOptions = {}): Promise<Env> {
  const backend = new CountingBackend();
  const server = new ApiServer({
    backend,
    tokens: new Map(),
    port: 0,
    ...(opts.serviceCidr ? { serviceCidr: opts.serviceCidr } : {}),
  });
  const serving = new AbortController();
  // Every watch the server holds listens on this signal.
  setMaxListeners(0, serving.signal);
  try {
    await server.start(serving.signal);
  } catch (e) {
    serving.abort();
    await backend.close();
    throw e;
  }
  const url = `http://127.0.0.1:${server.port}`;
  const client = createHttpClient({ server: url, userAgent: "envtest" });
  const running = new AbortController();
  const env: Env = {
    url,
    backend,
    client,
    manager: new Manager(client, opts.manager),
    managerDone: undefined,
    startManager() {
      env.managerDone = env.manager.start(running.signal);
      // A rejection is the test's to see through managerDone; do not crash the runner meanwhile.
      env.managerDone.catch(() => {});
    },
    async stopManager() {
      running.abort();
      await env.managerDone;
    },
    async stop() {
      // A Manager that does not stop fails the test, but never keeps the server up.
      const stopped = await bounded(
        STOP_TIMEOUT_MS,
        env.stopManager().catch(() => true),
      );
      client.close();
      serving.abort();
      await server.closed();
      await backend.close();
      if (!stopped) throw new Error(`the Manager did not stop within ${STOP_TIMEOUT_MS} ms`);
    },
  };
  return env;
}
