/**
 * An in-process apiserver with the storage controllers running against it on a
 * temporary `volumes` directory, plus the real kubectl (over plain HTTP) and a
 * client. `stop()` ends the controllers, the server, and removes every directory.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, type HttpClient, kubeconfigYaml } from "../../src/client/index.js";
import { runStorageControllers, type VolumePool } from "../../src/controllers/index.js";
import { reconcileTotal } from "../../src/runtime/index.js";
import { type RunResult, run } from "./hearth-process.js";
import { type InProcessServer, startInProcess } from "./in-process.js";

export interface StorageEnv {
  server: InProcessServer;
  client: HttpClient;
  volumesDir: string;
  kubectl(args: string[], input?: string): Promise<RunResult>;
  kubectlOk(args: string[], input?: string): Promise<string>;
  /** The object, or undefined once it is gone. */
  get<T extends KubeObject>(kind: string, name: string, namespace?: string): Promise<T | undefined>;
  stop(): Promise<void>;
}

export async function startStorageEnv(
  opts: { poolBytes?: bigint; pool?: (dir: string) => VolumePool; withControllers?: boolean } = {},
): Promise<StorageEnv> {
  const root = mkdtempSync(join(tmpdir(), "hearth-storage-"));
  const volumesDir = join(root, "volumes");
  const home = join(root, "home");
  let server: InProcessServer;
  try {
    server = await startInProcess();
  } catch (e) {
    rmSync(root, { recursive: true, force: true });
    throw e;
  }
  const client = createHttpClient({ server: server.url, userAgent: "storage-e2e" });
  const kubeconfig = join(root, "kubeconfig");
  writeFileSync(kubeconfig, kubeconfigYaml({ server: server.url }));
  const env = { ...process.env, HOME: home, KUBECONFIG: kubeconfig };
  const controllers = new AbortController();
  const controllerClient = createHttpClient({
    server: server.url,
    userAgent: "storage-controllers",
  });
  const running =
    opts.withControllers === false
      ? Promise.resolve()
      : runStorageControllers(controllerClient, controllers.signal, {
          volumesDir,
          poolBytes: opts.poolBytes ?? 100n * 1024n ** 3n,
          resyncMs: 2000,
          ...(opts.pool ? { pool: opts.pool(volumesDir) } : {}),
        });
  const kubectl = (args: string[], input?: string) =>
    run("kubectl", ["--kubeconfig", kubeconfig, ...args], { env, input: input ?? "" });
  return {
    server,
    client,
    volumesDir,
    kubectl,
    async kubectlOk(args, input) {
      const r = await kubectl(args, input);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(" ")} exited ${r.code}:\n${r.stderr}`);
      return r.stdout;
    },
    async get<T extends KubeObject>(kind: string, name: string, namespace?: string) {
      const apiVersion = kind === "StorageClass" ? "storage.k8s.io/v1" : "v1";
      return client.get<T>({ apiVersion, kind, name, namespace }).catch((e: { code?: number }) => {
        if (e.code === 404) return undefined;
        throw e;
      });
    },
    async stop() {
      controllers.abort();
      await running;
      controllerClient.close();
      client.close();
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** How many times the named controller has reconciled so far in this process. */
export async function reconcileCount(controller: string): Promise<number> {
  const metric = await reconcileTotal.get();
  return metric.values
    .filter((v) => v.labels.controller === controller)
    .reduce((sum, v) => sum + v.value, 0);
}

export const claimYaml = (
  name: string,
  size: string,
  extra: { namespace?: string; storageClassName?: string; accessModes?: string[] } = {},
) =>
  [
    "apiVersion: v1",
    "kind: PersistentVolumeClaim",
    "metadata:",
    `  name: ${name}`,
    `  namespace: ${extra.namespace ?? "default"}`,
    "spec:",
    `  accessModes: [${(extra.accessModes ?? ["ReadWriteOnce"]).join(", ")}]`,
    "  resources:",
    "    requests:",
    `      storage: ${size}`,
    ...(extra.storageClassName !== undefined
      ? [`  storageClassName: ${JSON.stringify(extra.storageClassName)}`]
      : []),
    "",
  ].join("\n");
