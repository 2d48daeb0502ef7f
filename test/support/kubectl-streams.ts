/**
 * kubectl's streaming commands driven as a user drives them, for the exec and
 * port-forward e2e tests: with extra environment (its WebSocket clients off),
 * through a PTY (util-linux `script`), and `port-forward` in the background;
 * and a WebSocket session on the apiserver as client-go programs open one.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { WebSocket } from "ws";
import { loadKubeconfig } from "../../src/client/index.js";
import { type Hearth, waitFor } from "./hearth-process.js";

/** kubectl with extra environment (to turn its WebSocket clients off), its exit code and output. */
export function kubectlEnv(
  h: Hearth,
  env: Record<string, string>,
  args: string[],
  input?: string,
): { code: number; out: string } {
  try {
    const out = execFileSync("kubectl", ["--kubeconfig", h.kubeconfig, ...args], {
      encoding: "utf8",
      env: { ...process.env, ...env },
      timeout: 60_000,
      stdio: ["pipe", "pipe", "pipe"],
      ...(input !== undefined ? { input } : {}),
    });
    return { code: 0, out };
  } catch (e) {
    const x = e as { status?: number; stdout?: string; stderr?: string };
    return { code: x.status ?? -1, out: `${x.stdout ?? ""}${x.stderr ?? ""}` };
  }
}

/** A shell session of kubectl through a PTY (util-linux `script`), answering busybox's cursor queries. */
export function ptySession(h: Hearth, command: string) {
  const session = spawn(
    "script",
    ["-q", "-c", `kubectl --kubeconfig ${h.kubeconfig} ${command}`, "/dev/null"],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  const s = { session, screen: "" };
  session.stdout.on("data", (d: Buffer) => {
    const text = d.toString();
    s.screen += text;
    // busybox ash asks where the cursor is (ESC[6n) at each prompt: answer as a terminal does.
    const asks = text.split("\u001b[6n").length - 1;
    for (let i = 0; i < asks; i++) session.stdin.write("\u001b[1;1R");
  });
  return s;
}

/** Starts `kubectl port-forward` and resolves once it listens. */
export async function portForward(
  h: Hearth,
  args: string[],
): Promise<ChildProcess & { output(): string }> {
  // -v=4: client-go logs a fall back from WebSocket to SPDY at that level.
  const child = spawn("kubectl", ["--kubeconfig", h.kubeconfig, "-v=4", "port-forward", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await waitFor(
    `port-forward ${args.join(" ")}: ${out}`,
    () => out.includes("Forwarding from"),
    30_000,
  );
  return Object.assign(child, { output: () => out });
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * A WebSocket `v5.channel.k8s.io` session on the apiserver at `path`, as a
 * client-go program opens one, with the credentials of the Hearth's admin
 * kubeconfig (or `as` a user, impersonated): resolves with what came on
 * stdout and the Status on the error channel, or with the HTTP status the
 * upgrade was refused with.
 */
export async function apiWebSocket(
  h: Hearth,
  path: string,
  as?: { user: string; groups: string[] },
): Promise<{ refused?: number; stdout: string; status?: { status?: string } }> {
  const config = await loadKubeconfig(h.kubeconfig);
  const url = `${config.server.replace(/^http/, "ws")}${path}`;
  const headers: Record<string, string | string[]> = {};
  if (as) {
    headers["Impersonate-User"] = as.user;
    headers["Impersonate-Group"] = as.groups;
  }
  const ws = new WebSocket(url, ["v5.channel.k8s.io"], {
    ...(config.caPem ? { ca: config.caPem } : {}),
    ...(config.certPem ? { cert: config.certPem, key: config.keyPem } : {}),
    ...(config.token
      ? { headers: { ...headers, Authorization: `Bearer ${config.token}` } }
      : { headers }),
    handshakeTimeout: 30_000,
  });
  let stdout = "";
  let status: { status?: string } | undefined;
  return new Promise((resolve, reject) => {
    ws.on("unexpected-response", (_req, res) => {
      res.resume();
      resolve({ refused: res.statusCode ?? 0, stdout });
    });
    ws.on("message", (m: Buffer) => {
      if (m[0] === 1) stdout += m.subarray(1).toString("utf8");
      if (m[0] === 3) status = JSON.parse(m.subarray(1).toString("utf8")) as { status?: string };
    });
    ws.on("close", () => resolve(status ? { stdout, status } : { stdout }));
    ws.on("error", reject);
  });
}
