/**
 * Hearth's own containerd: writes its configuration under the data
 * directory, starts `containerd --config DIR/containerd/config.toml` (or
 * adopts the one a previous Hearth left running on the same DIR), waits until
 * CRI `Version` answers, restarts it with back-off (1 s doubling to 30 s) if
 * it dies, and stops it when the signal aborts: SIGTERM, then SIGKILL after
 * a grace period. With `socket`, it starts nothing and only checks that the
 * containerd there answers.
 *
 * On `kill -9` of `hearth up`: containerd keeps running (it is detached, in
 * its own session, logging to a file, as the kubelet's containerd is
 * independent of the kubelet), and so do the containers, held by their
 * containerd-shim. The next `hearth up` on the same DIR adopts that
 * containerd through DIR/containerd/containerd.pid and finds the containers
 * through CRI. A clean stop (abort) stops containerd; containers still
 * running then keep running under their shims until a later containerd
 * removes them — stopping pods first is the node agent's job.
 *
 * Needs root (mounts, namespaces, cgroups); without it `start` fails with a
 * message saying so. Container images and the pod network are not its
 * business: the sandbox image named in the options must be in containerd's
 * `k8s.io` namespace or pullable through the registry hosts
 * (registry-hosts.ts), and the CNI conflist (cni.ts) is written before start.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { CriClient } from "../cri/index.js";
import { renderContainerdConfig } from "./config.js";
import {
  adoptDaemon,
  type DaemonProcess,
  signalDaemon,
  spawnDaemon,
  writePidFile,
} from "./daemon.js";
import { type ContainerdLayout, containerdLayout } from "./layout.js";

export interface ContainerdOptions {
  /** The Hearth data directory; containerd lives under DIR/containerd. */
  dataDir: string;
  /** Use the containerd already serving this socket; start none. */
  socket?: string;
  /** CRI's sandbox ("pause") image; present in `k8s.io` or pullable (CRI pulls it when absent). */
  sandboxImage: string;
  /** Default `containerd` (from PATH). */
  binary?: string;
  /** How long a (re)started containerd may take to answer CRI Version (default 30 s). */
  readyTimeoutMs?: number;
  /** SIGTERM → SIGKILL grace on stop (default 10 s). */
  stopGraceMs?: number;
  restartBackoff?: { baseMs: number; maxMs: number };
  log?(msg: string, err?: unknown): void;
}

export class ContainerdSupervisor {
  readonly layout: ContainerdLayout;
  /** The CRI socket: the given one, or this DIR's. */
  readonly socket: string;
  private daemon: DaemonProcess | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ContainerdOptions) {
    this.layout = containerdLayout(opts.dataDir);
    this.socket = opts.socket ?? this.layout.socket;
  }

  /** The pid of the containerd this supervisor runs (undefined with `socket`). */
  get pid(): number | undefined {
    return this.daemon?.pid;
  }

  /**
   * Resolves once containerd answers CRI; keeps it running until `signal`
   * aborts. `stopped()` resolves when it has been stopped after that.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.opts.socket !== undefined) {
      await this.waitReady(undefined, signal).catch((e: unknown) => {
        throw new Error(
          `no containerd answers CRI on ${this.opts.socket}: ${(e as Error).message}`,
          { cause: e },
        );
      });
      return;
    }
    checkCanRun(this.opts.binary ?? "containerd");
    this.prepare();
    await this.bringUp(signal);
    this.running = this.superviseUntil(signal);
  }

  /** Resolves when the supervised containerd has been stopped (at once with `socket`). */
  stopped(): Promise<void> {
    return this.running;
  }

  private prepare(): void {
    const l = this.layout;
    for (const d of [l.dir, l.root, l.state, l.cniConfDir, l.registryConfigDir, l.opt])
      mkdirSync(d, { recursive: true });
    mkdirSync(dirname(l.socket), { recursive: true, mode: 0o700 });
    writeFileSync(l.config, renderContainerdConfig(l, { sandboxImage: this.opts.sandboxImage }));
  }

  /** Adopt or spawn, then wait for CRI; a containerd that never answers is killed. */
  private async bringUp(signal: AbortSignal): Promise<void> {
    const l = this.layout;
    const adopted = adoptDaemon(l.pidFile, l.config);
    const daemon = adopted ?? spawnDaemon(this.opts.binary ?? "containerd", l.config, l.log);
    if (!adopted) writePidFile(l.pidFile, daemon);
    this.log(`${adopted ? "adopted" : "started"} containerd pid ${daemon.pid} on ${l.socket}`);
    this.daemon = daemon;
    try {
      await this.waitReady(daemon, signal);
    } catch (e) {
      await this.stop(daemon);
      throw e;
    }
  }

  private async superviseUntil(signal: AbortSignal): Promise<void> {
    const backoff = this.opts.restartBackoff ?? { baseMs: 1000, maxMs: 30_000 };
    let delayMs = backoff.baseMs;
    const aborted = new Promise<void>((r) => signal.addEventListener("abort", () => r()));
    while (!signal.aborted) {
      const daemon = this.daemon;
      const upSince = Date.now();
      if (daemon) await Promise.race([daemon.exited, aborted]);
      if (signal.aborted) break;
      this.log(`containerd pid ${daemon?.pid} exited; restarting in ${delayMs} ms`);
      this.daemon = undefined;
      if (Date.now() - upSince > 2 * backoff.maxMs) delayMs = backoff.baseMs;
      await delay(delayMs, undefined, { signal }).catch(() => {});
      delayMs = Math.min(delayMs * 2, backoff.maxMs);
      if (signal.aborted) break;
      await this.bringUp(signal).catch((e: unknown) => this.log("containerd restart failed", e));
    }
    if (this.daemon) await this.stop(this.daemon);
    this.daemon = undefined;
    rmSync(this.layout.pidFile, { force: true });
  }

  private async stop(daemon: DaemonProcess): Promise<void> {
    if (!signalDaemon(daemon, "SIGTERM")) return;
    const graceOver = new AbortController();
    const grace = delay(this.opts.stopGraceMs ?? 10_000, undefined, { signal: graceOver.signal });
    await Promise.race([daemon.exited, grace.catch(() => {})]);
    graceOver.abort(); // no timer outlives the stop
    if (signalDaemon(daemon, "SIGKILL")) await daemon.exited;
  }

  /** Polls CRI Version until it answers, the process dies, or the deadline passes. */
  private async waitReady(daemon: DaemonProcess | undefined, signal: AbortSignal): Promise<void> {
    const timeoutMs = this.opts.readyTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    let dead = false;
    void daemon?.exited.then(() => (dead = true));
    const cri = await CriClient.connect(this.socket);
    try {
      let last: unknown;
      while (Date.now() < deadline) {
        if (dead) throw new Error(`containerd exited during start; see ${this.layout.log}`);
        try {
          await cri.version({ signal, timeoutMs: Math.min(2000, deadline - Date.now()) });
          return;
        } catch (e) {
          if (signal.aborted) throw e;
          last = e;
        }
        await delay(100, undefined, { signal });
      }
      throw new Error(`containerd did not answer CRI Version within ${timeoutMs} ms`, {
        cause: last,
      });
    } finally {
      cri.close();
    }
  }

  private log(msg: string, err?: unknown): void {
    this.opts.log?.(msg, err);
  }
}

/** The clear refusal of a Hearth that cannot run containerd. */
export function checkCanRun(binary: string): void {
  if (process.getuid?.() !== 0)
    throw new Error(
      "running containers needs root: containerd creates mounts, namespaces and cgroups. " +
        "Run hearth as root, point it at a containerd already serving CRI with --containerd-socket PATH, " +
        "or run `hearth up --no-node-agent` (the API without pods)",
    );
  const probe = spawnSync(binary, ["--version"], { stdio: "ignore" });
  if (probe.error || probe.status !== 0)
    throw new Error(
      `cannot run ${binary}: ${probe.error?.message ?? `exit ${probe.status}`}; ` +
        "install the Debian package containerd (./hearth installs it when run as root)",
    );
}
