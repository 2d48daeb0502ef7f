/**
 * The node agent (`hearth node`, and one inside `hearth up`): registers this
 * machine as a Node, heartbeats through its Lease, serves its node API to the
 * apiserver (container logs, resource usage, exec, attach and port-forward;
 * HTTPS on port 10250, or a free one if taken, when given `tls`), and
 * runs the pods bound to it as containers through CRI: one reconciler on the
 * node's own Manager, `for(Pod)` scoped by the field selector
 * `spec.nodeName=<name>` (the node's Service rules and pod routes share the
 * Manager). On start
 * it adopts what a previous agent left running (from the runtime); when its
 * signal aborts it stops the pods gracefully, or leaves them running with
 * `keepWorkloads` for the next agent to adopt.
 */
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import type { KubeObject, Node, Pod } from "../api/index.js";
import { type Client, EventRecorder, getOptional } from "../client/index.js";
import { delay, Manager, requestFromKey, untilAborted } from "../runtime/index.js";
import { CrashLoopBackoff } from "./backoff.js";
import { CriRuntime } from "./cri-runtime.js";
import { logLookup } from "./log-lookup.js";
import { LogServer } from "./log-server.js";
import { capacity } from "./node-object.js";
import { heartbeat, registerNode } from "./node-registration.js";
import { type AgentOptions, withDefaults } from "./options.js";
import { PodReconciler } from "./pod-reconciler.js";
import type { PodRuntime } from "./pod-runtime.js";
import { podsOf } from "./pod-scope.js";
import { PodDirs } from "./pod-state.js";
import { PodWorker } from "./pod-worker.js";
import { measuredPods, NodeStats, readNodeUsage } from "./stats/index.js";
import { streamLookup } from "./stream-lookup.js";
import { StreamServer } from "./streaming/index.js";
import type { ObjectKind, WorkerDeps } from "./worker-deps.js";

const API_VERSIONS: Record<ObjectKind, string> = {
  ConfigMap: "v1",
  Secret: "v1",
  PersistentVolumeClaim: "v1",
  PersistentVolume: "v1",
};

const POD = { apiVersion: "v1", kind: "Pod" };

export class NodeAgent {
  readonly workers = new Map<string, PodWorker>();
  /**
   * The node's own Manager (its identity, its client): the pod controller and
   * the agent's loops run on it; build the node's other controllers (the
   * Service rules, the pod routes) on it before `start`.
   */
  readonly manager: Manager;
  private done?: Promise<void>;
  /** The port of the log endpoint, once started. */
  port = 0;
  /** What runs the pods, once started. */
  runtime?: PodRuntime;

  constructor(
    private readonly client: Client,
    private readonly options: AgentOptions,
  ) {
    this.manager = new Manager(client, {
      log: options.log ?? (() => {}),
      ...(options.sharedCache ? { sharedCache: options.sharedCache } : {}),
    });
  }

  /** Registers the node and starts every loop; resolves once the node is registered. */
  async start(signal: AbortSignal): Promise<void> {
    const o = withDefaults(this.options);
    setMaxListeners(0, signal);
    const dirs = new PodDirs(o.dataDir);
    if (!o.cri)
      throw new Error(
        "the node agent needs a container runtime: give it the CRI socket of a containerd (cri.socket)",
      );
    const runtime = await CriRuntime.connect({
      socket: o.cri.socket,
      dirs,
      hostIP: o.nodeIP,
      pullBackoff: o.crashBackoff,
      ...(o.dns ? { dns: o.dns } : {}),
      log: o.log,
    });
    this.runtime = runtime;
    let runtimeVersion: string;
    try {
      runtimeVersion = await runtime.check();
    } catch (e) {
      runtime.close();
      throw e;
    }
    const cap = capacity();
    const events = new EventRecorder(this.client, {
      component: "kubelet",
      host: o.nodeName,
      onError: (e) => o.log("event not recorded", e),
    });
    const mine = podsOf(o.nodeName);
    const pods = this.manager.cache.informer(POD, mine.scope).informer;
    const controller = this.manager
      .controller("node-agent")
      .for(POD, mine)
      .workers(4)
      .complete({ reconcile: (req) => reconciler.reconcile(req) });
    const enqueue = (key: string) => controller.loop.enqueue(requestFromKey(key));
    const deps: WorkerDeps = {
      dirs,
      runtime,
      backoff: new CrashLoopBackoff(o.crashBackoff),
      hostIP: o.nodeIP,
      ...(o.dns ? { clusterDomain: o.dns.clusterDomain } : {}),
      node: { cpu: cap.cpu!, memory: cap.memory! },
      read: (kind, name, namespace) => this.read(kind, name, namespace),
      services: async (namespace) =>
        (await this.client.list({ apiVersion: "v1", kind: "Service" }, { namespace })).items,
      event: (pod, type, reason, message) => events.event(pod, type, reason, message),
      enqueue,
    };
    for (const state of await runtime.recover()) {
      const worker = new PodWorker(deps, state);
      this.workers.set(state.uid, worker);
    }
    await runtime.refresh();
    for (const w of this.workers.values()) w.poll();
    const reconciler = new PodReconciler({
      client: this.client,
      nodeName: o.nodeName,
      cached: (key) => pods.get(key) as Pod | undefined,
      workers: this.workers,
      worker: deps,
    });

    const loops = new AbortController();
    const token = randomBytes(32).toString("hex");
    const stats = new NodeStats(
      o.nodeName,
      async () => {
        const states = [...this.workers.values()].map((w) => w.state);
        const usage = await runtime.stats(states);
        return { node: readNodeUsage(), pods: measuredPods(states, usage) };
      },
      o.log,
    );
    const streams = new StreamServer(streamLookup(this.workers), runtime.cri, loops.signal, (id) =>
      runtime.cri.listPids(id, { timeoutMs: 10_000 }),
    );
    const logs = new LogServer(logLookup(this.workers, dirs), token, {
      stats,
      streams,
      ...(o.tls ? { tls: o.tls } : {}),
    });
    let node: Node;
    const facts = {
      name: o.nodeName,
      podCIDR: o.podCIDR,
      port: 0,
      token: o.tls ? "" : token,
      apiCA: o.tls?.servingCAPem ?? "",
      internalIP: o.nodeIP,
      runtimeVersion,
    };
    try {
      // Before the Manager: the Node names the log port. It closes when the Manager's signal aborts.
      this.port = facts.port = await listenNodeApi(logs, loops.signal, this.options.port, o.nodeIP);
      node = await registerNode(this.client, facts);
    } catch (e) {
      loops.abort();
      runtime.close();
      throw e;
    }
    const m = this.manager;
    m.add({
      start: (s) =>
        heartbeat(this.client, facts, node, { ...o.heartbeat, onError: o.log, clock: m.clock }, s),
    });
    m.add({ start: (s) => this.pollLoop(o.pollMs, enqueue, s) });
    m.add({
      start: async (s) => {
        // Pods on disk whose objects are gone get reconciled too: stopped and removed.
        if (await pods.waitForSync(s)) for (const w of this.workers.values()) enqueue(w.key);
      },
    });
    const running = m.start(loops.signal);
    this.done = (async () => {
      await untilAborted(signal);
      // Nothing may start or restart a container while the pods are being stopped.
      loops.abort();
      await running.catch((e) => o.log("node agent: the Manager stopped with an error", e));
      if (!o.keepWorkloads) await this.stopAll(o.log);
      for (const w of this.workers.values()) w.close();
      runtime.close();
    })();
  }

  /** Resolves once every loop has stopped (and the pods, unless kept). */
  async stopped(): Promise<void> {
    await this.done;
  }

  private async read(
    kind: ObjectKind,
    name: string,
    namespace: string | undefined,
  ): Promise<KubeObject | undefined> {
    return getOptional(this.client, { apiVersion: API_VERSIONS[kind], kind, name, namespace });
  }

  /** Notices the exits of every run. */
  private async pollLoop(
    ms: number,
    enqueue: (key: string) => void,
    signal: AbortSignal,
  ): Promise<void> {
    while (!signal.aborted) {
      await this.runtime?.refresh().catch(() => {});
      for (const w of this.workers.values()) if (w.poll()) enqueue(w.key);
      await delay(ms, signal);
    }
  }

  /**
   * Stops every pod's runs gracefully (each with its grace period), then has
   * the runtime free what it holds for them (sandboxes and their network).
   * Gives up, saying so, if some process outlives SIGKILL by 10 s
   * (one stuck in the kernel): shutdown must finish.
   */
  private async stopAll(log: (msg: string, err?: unknown) => void): Promise<void> {
    const idle = new AbortController();
    const graces = [...this.workers.values()].map((w) => w.state.terminationGracePeriodSeconds);
    const giveUp = Date.now() + (Math.max(0, ...graces) + 10) * 1000;
    for (;;) {
      await this.runtime?.refresh().catch((e) => log("cannot list the runtime's containers", e));
      const left = [...this.workers.values()].filter(
        (w) =>
          !w.terminate(w.state.terminationGracePeriodSeconds, "Stopping container (node shutdown)"),
      );
      if (left.length === 0) {
        for (const w of this.workers.values())
          await this.runtime?.release(w.state).catch((e) => log(`cannot release pod ${w.key}`, e));
        return;
      }
      if (Date.now() > giveUp) {
        log(
          `pods still running after SIGKILL, left as they are: ${left.map((w) => w.key).join(", ")}`,
        );
        return;
      }
      await delay(100, idle.signal);
    }
  }
}

/** kubelet's port, unless the agent was given one, or it is taken (then any free port: the Node names it). */
const KUBELET_PORT = 10250;

async function listenNodeApi(
  server: LogServer,
  signal: AbortSignal,
  port: number | undefined,
  host: string,
): Promise<number> {
  if (port !== undefined) return server.start(signal, port, host);
  try {
    return await server.start(signal, KUBELET_PORT, host);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    return server.start(signal, 0, host);
  }
}
