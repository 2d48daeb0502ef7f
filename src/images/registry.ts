/**
 * The local image registry: `docker-registry serve DIR/registry/config.yml`
 * as a child of this process on a loopback address, its blobs under
 * DIR/registry/storage. `startRegistry` returns once `GET /v2/` answers
 * (within a deadline); if the child dies, it is started again after a
 * back-off (1 s doubling to 30 s); when the signal aborts it is stopped
 * (SIGTERM, then SIGKILL after 5 s) and `stopped` resolves. `publish` pushes a
 * cached image under `library/<name>:<tag>`, the path Docker Hub's names map
 * to when containerd uses this registry as a mirror of docker.io, or under
 * another path it is given.
 *
 * The registry is a plain child, so a `kill -9` of its Hearth leaves it
 * running; DIR/registry/registry.pid names it, and the next start on DIR
 * stops that one first (if it still runs this DIR's config) rather than
 * leave two registries on one storage.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { type ImageCache, imageCache } from "./cache.js";
import { publishArgv, repositoryOf } from "./commands.js";
import { run } from "./exec.js";
import { registryConfig } from "./registry-config.js";
import { type ImageSpec, layoutRef } from "./specs.js";

export interface RegistryOptions {
  /** The Hearth data directory; the registry lives in DIR/registry. */
  dataDir: string;
  signal: AbortSignal;
  host?: string;
  /** 0 or absent: a free port. */
  port?: number;
  readyTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface Registry {
  /** `127.0.0.1:PORT`, as image references name it. */
  address: string;
  /** The pid of the registry process running now. */
  pid(): number | undefined;
  /**
   * Pushes a built image from the cache under `repository` (default
   * `library/<name>:<tag>`; another path where a mirror of another registry is
   * asked for it, e.g. `pause:3.9` for registry.k8s.io); resolves with the
   * reference it is served under.
   */
  publish(spec: ImageSpec, cache?: ImageCache, repository?: string): Promise<string>;
  /** Resolves when the signal has aborted and the process has exited. */
  stopped: Promise<void>;
}

/** A port on `host` that nothing listens on (as the kernel hands one out). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      srv.close(() =>
        typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port")),
      );
    });
  });
}

/** True when `GET /v2/` answers 200. */
export function answers(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`http://${address}/v2/`, { timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

async function waitReady(address: string, child: () => ChildProcess | undefined, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await answers(address)) return;
    const c = child();
    if (c === undefined || c.exitCode !== null || c.signalCode !== null)
      throw new Error(`docker-registry exited before answering on ${address}`);
    if (Date.now() > deadline)
      throw new Error(`docker-registry did not answer GET /v2/ on ${address} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The pid of a registry a killed Hearth left serving `configFile`, if any. */
function leftover(pidFile: string, configFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return cmdline.includes(configFile) && state !== "Z" ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM, then SIGKILL after 5 s, of a registry this process did not start; resolves once it is gone. */
async function stopLeftover(pidFile: string, configFile: string, log: (l: string) => void) {
  const pid = leftover(pidFile, configFile);
  if (pid === undefined) return;
  log(`stopping docker-registry pid ${pid} left by a previous start on ${configFile}`);
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // gone meanwhile
    }
  };
  const killAt = Date.now() + 5000;
  signal("SIGTERM");
  while (leftover(pidFile, configFile) !== undefined) {
    if (Date.now() > killAt + 5000) throw new Error(`docker-registry pid ${pid} does not exit`);
    if (Date.now() > killAt) signal("SIGKILL");
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startRegistry(o: RegistryOptions): Promise<Registry> {
  const host = o.host ?? "127.0.0.1";
  const port = o.port || (await freePort(host));
  const address = `${host}:${port}`;
  const dir = join(o.dataDir, "registry");
  mkdirSync(join(dir, "storage"), { recursive: true });
  const configFile = join(dir, "config.yml");
  const pidFile = join(dir, "registry.pid");
  const log = o.log ?? (() => {});
  await stopLeftover(pidFile, configFile, log);
  writeFileSync(configFile, registryConfig({ storage: join(dir, "storage"), host, port }));
  let child: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  let backoff = 1000;
  /** Set once the registry is being stopped: an exit then is not restarted. */
  let stopping = false;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));

  const spawnOnce = () => {
    const c = spawn("docker-registry", ["serve", configFile], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let tail = "";
    c.stderr?.on("data", (d: Buffer) => (tail = (tail + d.toString()).slice(-2000)));
    c.on("error", (e) => log(`docker-registry: ${e.message}`));
    if (c.pid !== undefined) writeFileSync(pidFile, `${c.pid}\n`);
    c.on("exit", (code, sig) => {
      if (stopping) {
        rmSync(pidFile, { force: true });
        return resolveStopped();
      }
      log(`docker-registry exited (${code ?? sig}); restarting in ${backoff} ms: ${tail.trim()}`);
      timer = setTimeout(() => {
        timer = undefined;
        spawnOnce();
      }, backoff);
      backoff = Math.min(backoff * 2, 30_000);
    });
    c.once("spawn", () => {
      // A start that answers resets the back-off.
      void waitReady(address, () => child, 10_000).then(
        () => (backoff = 1000),
        () => {},
      );
    });
    child = c;
  };

  const stop = () => {
    stopping = true;
    if (timer) clearTimeout(timer);
    const c = child;
    if (c === undefined || c.exitCode !== null || c.signalCode !== null) {
      rmSync(pidFile, { force: true });
      return resolveStopped();
    }
    c.kill("SIGTERM");
    const kill = setTimeout(() => c.kill("SIGKILL"), 5000);
    c.once("exit", () => clearTimeout(kill));
  };
  if (o.signal.aborted) throw new Error("startRegistry: signal already aborted");
  o.signal.addEventListener("abort", stop, { once: true });
  spawnOnce();
  try {
    await waitReady(address, () => child, o.readyTimeoutMs ?? 10_000);
  } catch (e) {
    o.signal.removeEventListener("abort", stop);
    stop();
    await stopped;
    throw e;
  }

  return {
    address,
    pid: () => child?.pid,
    stopped,
    async publish(spec, cache = imageCache(), target = repositoryOf(spec)) {
      await run(publishArgv(cache.layout, layoutRef(spec), address, target), { signal: o.signal });
      return `${address}/${target}`;
    },
  };
}
