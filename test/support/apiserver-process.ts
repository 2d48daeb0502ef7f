/**
 * `hearth apiserver` as a child process on a real etcd (TLS, client
 * certificates), with kubectl bound to the admin kubeconfig it writes
 * (`DIR/admin-<port>.kubeconfig`): for tests of several apiservers on one
 * etcd, and of what runs beside one (`hearth controllers`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import type { EtcdProcess } from "./etcd-process.js";
import { HEARTH_MAIN, type RunResult, run } from "./hearth-process.js";

export interface ApiserverProcess {
  url: string;
  /** The admin kubeconfig the apiserver wrote. */
  kubeconfig: string;
  process: ChildProcess;
  kubectl(args: string[], input?: string): Promise<RunResult>;
  kubectlOk(args: string[], input?: string): Promise<string>;
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once("exit", () => r()));

/** The flags that put an apiserver on `etcd` under `prefix`, as its root client. */
export function etcdFlags(etcd: EtcdProcess, prefix: string): string[] {
  const tls = etcd.tls!;
  return [
    `--etcd-servers=${etcd.endpoint}`,
    `--etcd-prefix=${prefix}`,
    `--etcd-cafile=${tls.caFile}`,
    `--etcd-certfile=${tls.certFile}`,
    `--etcd-keyfile=${tls.keyFile}`,
  ];
}

/** Starts `hearth apiserver` on `etcd` with the PKI in `dataDir`, waiting for its ready line. */
export async function startApiserver(
  etcd: EtcdProcess,
  dataDir: string,
  home: string,
  prefix = "/hearth",
): Promise<ApiserverProcess> {
  const child = spawn(
    process.execPath,
    [HEARTH_MAIN, "apiserver", "--data-dir", dataDir, "--port", "0", ...etcdFlags(etcd, prefix)],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => {
    err = (err + d).slice(-4000);
  });
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`apiserver not ready; stderr:\n${err}`)),
      60_000,
    );
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /ready: (https:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`apiserver exited ${code}; stderr:\n${err}`));
    });
  });
  const url = await ready.catch(async (e: unknown) => {
    // One that never came up is not left running.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited(child);
    throw e;
  });
  const port = new URL(url).port;
  const kubeconfig = join(dataDir, `admin-${port}.kubeconfig`);
  const env = { ...process.env, HOME: home, KUBECONFIG: kubeconfig };
  const kubectl = (args: string[], input?: string) =>
    run("kubectl", args, { env, ...(input !== undefined ? { input } : {}) });
  const kill9 = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited(child);
  };
  return {
    url,
    kubeconfig,
    process: child,
    kubectl,
    async kubectlOk(args, input) {
      const r = await kubectl(args, input);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(" ")} exited ${r.code}:\n${r.stderr}`);
      return r.stdout;
    },
    kill9,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => void kill9(), 10_000);
      await exited(child);
      clearTimeout(timer);
    },
  };
}
