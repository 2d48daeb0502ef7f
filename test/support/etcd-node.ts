/**
 * The node of the etcd operator's envtest tests. No node agent runs there, so
 * this controller plays the kubelet for the operator's pods: it runs each
 * member pod's etcd for real — the pod's own command line, `$(POD_IP)` being
 * the address the member advertises (its Service's ClusterIP: with no service
 * proxy here, the member listens where the proxy would forward to), its
 * secret volumes written to files (again whenever a Secret changes, as the
 * agent does when the certificates annotation moves), its claim a directory
 * that outlives the pod — and reports the pod Running, with that IP, Ready
 * while etcd's `/health` says so (looked at again every second, as a
 * readiness probe would). A pod that is gone has its etcd stopped. `hold(pod)`
 * keeps a member's etcd stopped, as a dead machine would, until `release(pod)`.
 * `stop()` ends every etcd it started (by pid) and removes its directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Pod } from "../../src/api/index.js";
import type { Client } from "../../src/client/index.js";
import { DONE, type Manager, type Request, type Result } from "../../src/runtime/index.js";
import { getOrGone, POD, SECRET } from "./core-objects.js";
import { ETCD_BIN } from "./etcd-process.js";

/** The operator's pods (`app.kubernetes.io/managed-by=hearth-etcd-operator`). */
const OPERATOR_PODS = { labelSelector: "app.kubernetes.io/managed-by=hearth-etcd-operator" };
const METRICS_PORT = 2381;
const STOP_MS = 10_000;

interface Running {
  uid: string;
  pid: number;
  exited: Promise<void>;
  child: ChildProcess;
}

interface PodVolume {
  name: string;
  secret?: { secretName: string };
  persistentVolumeClaim?: { claimName: string };
}

interface PodContainer {
  command?: string[];
  args?: string[];
  volumeMounts?: { name: string; mountPath: string }[];
}

const alive = (r: Running | undefined) =>
  r !== undefined && r.child.exitCode === null && r.child.signalCode === null;

/** True when etcd at `address` answers `/health` (plain http on the metrics port) with health. */
function healthy(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(`http://${address}:${METRICS_PORT}/health`, { timeout: 1_000 });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve(res.statusCode === 200 && body.includes('"true"')));
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

/** The host of the member's `--advertise-client-urls`: its Service's ClusterIP. */
function advertised(args: string[]): string {
  const flag = args.find((a) => a.startsWith("--advertise-client-urls="));
  if (!flag) throw new Error("the pod's etcd advertises no client URL");
  return new URL(flag.slice("--advertise-client-urls=".length)).hostname;
}

export class EtcdTestNode {
  readonly root = mkdtempSync(join(tmpdir(), "hearth-etcd-node-"));
  private readonly procs = new Map<string, Running>();
  private readonly held = new Set<string>();

  /** A test process that ends without its `after` hooks (killed by a timeout) leaves no etcd behind. */
  private readonly onExit = () => {
    for (const r of this.procs.values()) if (alive(r)) process.kill(r.pid, "SIGKILL");
  };

  constructor(private readonly client: Client) {
    process.once("exit", this.onExit);
  }

  register(manager: Manager): void {
    manager
      .controller("etcd-test-node")
      .for(POD, { scope: OPERATOR_PODS })
      .workers(3)
      .complete(this);
  }

  /** The pids of the etcd processes running now. */
  pids(): number[] {
    return [...this.procs.values()].filter(alive).map((r) => r.pid);
  }

  /** Stops pod `name`'s etcd (SIGKILL, a dead machine) and keeps it stopped until `release`. */
  async hold(namespace: string, name: string): Promise<void> {
    const key = `${namespace}/${name}`;
    this.held.add(key);
    await this.halt(key, "SIGKILL");
  }

  release(namespace: string, name: string): void {
    this.held.delete(`${namespace}/${name}`);
  }

  async reconcile({ namespace = "", name }: Request): Promise<Result> {
    const key = `${namespace}/${name}`;
    const pod = await getOrGone<Pod>(this.client, { ...POD, namespace, name });
    if (!pod || pod.metadata.deletionTimestamp) {
      await this.halt(key);
      return DONE;
    }
    const container = pod.spec?.containers?.[0] as PodContainer | undefined;
    const args = container?.args ?? [];
    const address = advertised(args);
    const mounts = await this.volumes(pod, container);
    const running = this.procs.get(key);
    if (running && running.uid !== pod.metadata.uid) await this.halt(key); // a new pod of that name
    if (this.held.has(key)) await this.halt(key, "SIGKILL");
    else if (!alive(this.procs.get(key))) this.start(key, pod, container, address, mounts);
    const ready = alive(this.procs.get(key)) && (await healthy(address));
    await this.report(pod, address, ready);
    return { requeueAfter: ready ? 1_000 : 300 };
  }

  /** Each mount's host directory; secrets written (atomically), claims made once. */
  private async volumes(
    pod: Pod,
    container: PodContainer | undefined,
  ): Promise<Map<string, string>> {
    const ns = pod.metadata.namespace!;
    const mounts = new Map<string, string>();
    for (const v of (pod.spec?.volumes ?? []) as PodVolume[]) {
      const mount = container?.volumeMounts?.find((m) => m.name === v.name);
      if (!mount) continue;
      if (v.persistentVolumeClaim) {
        const dir = join(this.root, "claims", `${ns}_${v.persistentVolumeClaim.claimName}`);
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        mounts.set(mount.mountPath, dir);
      } else if (v.secret) {
        const dir = join(this.root, "pods", `${ns}_${pod.metadata.name}`, v.name);
        mkdirSync(dir, { recursive: true });
        const secret = await this.client.get<{ data?: Record<string, string> } & Pod>({
          ...SECRET,
          namespace: ns,
          name: v.secret.secretName,
        });
        for (const [file, b64] of Object.entries(secret.data ?? {})) {
          writeFileSync(join(dir, `.${file}`), Buffer.from(b64, "base64"), { mode: 0o600 });
          renameSync(join(dir, `.${file}`), join(dir, file));
        }
        mounts.set(mount.mountPath, dir);
      }
    }
    return mounts;
  }

  private start(
    key: string,
    pod: Pod,
    container: PodContainer | undefined,
    address: string,
    mounts: Map<string, string>,
  ): void {
    const paths = [...mounts].sort(([a], [b]) => b.length - a.length);
    const local = (arg: string) => {
      let out = arg.replaceAll("$(POD_IP)", address);
      for (const [mountPath, dir] of paths) out = out.replaceAll(mountPath, dir);
      return out;
    };
    const [cmd = ETCD_BIN, ...rest] = container?.command ?? [ETCD_BIN];
    const logs = join(this.root, "logs");
    mkdirSync(logs, { recursive: true });
    const log = openSync(join(logs, `${key.replace("/", "_")}.log`), "a");
    const child = spawn(cmd, [...rest, ...(container?.args ?? []).map(local)], {
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    if (child.pid === undefined) throw new Error(`cannot start etcd for pod ${key}`);
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.once("error", () => {});
    this.procs.set(key, { uid: pod.metadata.uid!, pid: child.pid, exited, child });
  }

  /** Ends pod `key`'s etcd, if it runs: `signal`, then SIGKILL after a while. */
  private async halt(key: string, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const r = this.procs.get(key);
    if (!r) return;
    this.procs.delete(key);
    if (!alive(r)) return;
    process.kill(r.pid, signal);
    const timer = setTimeout(() => {
      if (alive(r)) process.kill(r.pid, "SIGKILL");
    }, STOP_MS);
    await r.exited;
    clearTimeout(timer);
  }

  private async report(pod: Pod, address: string, ready: boolean): Promise<void> {
    const status = ready ? "True" : "False";
    const was = pod.status?.conditions?.find((c) => c.type === "Ready")?.status;
    if (pod.status?.phase === "Running" && pod.status.podIP === address && was === status) return;
    await this.client.patchStatus(
      { ...POD, namespace: pod.metadata.namespace!, name: pod.metadata.name! },
      {
        status: {
          phase: "Running",
          podIP: address,
          podIPs: [{ ip: address }],
          conditions: [{ type: "Ready", status }],
        },
      },
      { type: "merge" },
    );
  }

  /** Stops every etcd this node started and removes its directory. */
  async stop(): Promise<void> {
    await Promise.all([...this.procs.keys()].map((k) => this.halt(k)));
    process.removeListener("exit", this.onExit);
    rmSync(this.root, { recursive: true, force: true });
  }
}
