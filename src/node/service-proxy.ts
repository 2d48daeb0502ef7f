/**
 * The service proxy of a node, in the place of kube-proxy: for each Service with
 * a ClusterIP it listens on every TCP `clusterIP:port` (loopback addresses in
 * 127.0.0.0/8 need no setup on Linux) and forwards each connection to the next
 * ready endpoint, round-robin, from the Service's EndpointSlices (the slice port
 * named as the service port). A backend that refuses is skipped for the next; with
 * no backend the connection is reset, as kube-proxy's REJECT does. One reconciler
 * on a Manager (the node agent's, or one of its own), `for(Service)` and watching
 * the labelled slices through the shared cache, opens and closes each Service's
 * listeners as Services and slices change (a failed listen is retried by the
 * runtime); connections in flight keep their backend. Everything closes when the
 * Manager stops.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import type { KubeObject } from "../api/index.js";
import { type Client, errorText, ignoreNotFound } from "../client/index.js";
import {
  type Cache,
  type Manager,
  onStop,
  type Request,
  requestKey,
  runOnOwnManager,
  type TypedReconciler,
} from "../runtime/index.js";

const SERVICE_NAME_LABEL = "kubernetes.io/service-name";

export interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
}

export interface Service extends KubeObject {
  spec?: { clusterIP?: string; ports?: ServicePort[] };
}

interface EndpointSlice extends KubeObject {
  endpoints?: { addresses?: string[]; conditions?: { ready?: boolean | null } }[];
  ports?: { name?: string | null; port?: number | null; protocol?: string | null }[] | null;
}

export interface ServiceProxy {
  /** Resolves once the proxy has stopped (after the signal aborted). */
  done: Promise<void>;
  /** `ip:port` of every open listener. */
  addresses(): string[];
}

export interface ServiceProxyOptions {
  log?(msg: string, err?: unknown): void;
}

/** One `clusterIP:port` listener and its backends. */
class Listener {
  backends: string[] = [];
  private next = 0;
  private readonly sockets = new Set<Socket>();
  readonly server: Server;

  constructor(readonly address: string) {
    this.server = createServer({ allowHalfOpen: true }, (s) => this.accept(s));
  }

  listen(): Promise<void> {
    const [host, port] = splitAddress(this.address);
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen({ host, port, exclusive: true }, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
  }

  close(): void {
    this.server.close();
    for (const s of this.sockets) s.destroy();
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.once("close", () => this.sockets.delete(s));
  }

  private accept(client: Socket): void {
    this.track(client);
    client.on("error", () => client.destroy());
    this.forward(client, this.backends.length);
  }

  /** Connects to the next backend; on refusal tries the next, `tries` in all. */
  private forward(client: Socket, tries: number): void {
    if (tries <= 0 || this.backends.length === 0 || client.destroyed) {
      client.resetAndDestroy();
      return;
    }
    const backend = this.backends[this.next++ % this.backends.length]!;
    const [host, port] = splitAddress(backend);
    const upstream = tcpConnect({ host, port, allowHalfOpen: true });
    this.track(upstream);
    let connected = false;
    client.once("close", () => upstream.destroy());
    upstream.once("connect", () => {
      connected = true;
      client.pipe(upstream);
      upstream.pipe(client);
      upstream.once("close", () => client.destroy());
    });
    upstream.on("error", () => {
      upstream.destroy();
      if (!connected) this.forward(client, tries - 1);
    });
  }
}

function splitAddress(address: string): [string, number] {
  const i = address.lastIndexOf(":");
  return [address.slice(0, i), Number(address.slice(i + 1))];
}

const isIpv4 = (ip: string | undefined): ip is string => !!ip && /^\d{1,3}(\.\d{1,3}){3}$/.test(ip);

/** Ready endpoints (`ip:port`) of a service port, from the Service's slices. */
export function backendsFor(port: ServicePort, slices: EndpointSlice[]): string[] {
  const out = new Set<string>();
  for (const slice of slices) {
    const target = (slice.ports ?? []).find(
      (p) => (p.name ?? "") === (port.name ?? "") && (p.protocol ?? "TCP") === "TCP",
    );
    if (!target?.port) continue;
    for (const e of slice.endpoints ?? []) {
      if (e.conditions?.ready === false) continue;
      for (const a of e.addresses ?? []) out.add(`${a}:${target.port}`);
    }
  }
  return [...out].sort();
}

const SERVICE = { apiVersion: "v1", kind: "Service" };
const ENDPOINT_SLICE = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" };
/** Only slices that name their Service are of use; the server filters the rest. */
const SLICES = { scope: { labelSelector: SERVICE_NAME_LABEL } };

/** The Service a slice belongs to, by its label. */
function serviceOf(slice: KubeObject): Request[] {
  const name = slice.metadata.labels?.[SERVICE_NAME_LABEL];
  const namespace = slice.metadata.namespace;
  return name && namespace ? [{ namespace, name }] : [];
}

class ProxyReconciler implements TypedReconciler {
  /** Service key → its listeners by address. */
  readonly listeners = new Map<string, Map<string, Listener>>();
  private cache: Cache | undefined;
  /** Set when the Manager stops: a listener opened by a reconcile still in flight is closed at once. */
  private closed = false;

  /** Builds the proxy's controller on `manager`: Services and their slices from its shared cache. */
  register(manager: Manager): void {
    this.cache = manager.cache;
    manager
      .controller("service-proxy")
      .for(SERVICE)
      .watches(ENDPOINT_SLICE, serviceOf, SLICES)
      .complete(this);
    manager.add(onStop(() => this.closeAll()));
  }

  async reconcile(req: Request) {
    const cache = this.cache;
    if (!cache) throw new Error("service proxy: reconcile before register");
    const key = requestKey(req);
    const svc = await ignoreNotFound(cache.get<Service>({ ...SERVICE, ...req }, { noCopy: true }));
    const ip = svc?.spec?.clusterIP;
    const want = new Map<string, ServicePort>();
    if (svc && isIpv4(ip))
      for (const p of svc.spec?.ports ?? [])
        if ((p.protocol ?? "TCP") === "TCP") want.set(`${ip}:${p.port}`, p);
    const mine = this.listeners.get(key) ?? new Map<string, Listener>();
    this.listeners.set(key, mine);
    for (const [address, l] of mine)
      if (!want.has(address)) {
        l.close();
        mine.delete(address);
      }
    const slices = (
      await cache.list<EndpointSlice>(ENDPOINT_SLICE, {
        ...SLICES,
        namespace: req.namespace ?? "",
        labelSelector: `${SERVICE_NAME_LABEL}=${req.name}`,
        noCopy: true,
      })
    ).items;
    const failures: string[] = [];
    for (const [address, port] of want) {
      let l = mine.get(address);
      if (!l) {
        l = new Listener(address);
        try {
          await l.listen();
        } catch (e) {
          failures.push(`${address}: ${errorText(e)}`);
          continue;
        }
        if (this.closed) {
          l.close();
          continue;
        }
        mine.set(address, l);
      }
      l.backends = backendsFor(port, slices);
    }
    if (mine.size === 0) this.listeners.delete(key);
    if (failures.length > 0)
      throw new Error(`service ${key}: cannot listen on ${failures.join("; ")}`);
  }

  addresses(): string[] {
    return [...this.listeners.values()].flatMap((m) => [...m.keys()]).sort();
  }

  closeAll(): void {
    this.closed = true;
    for (const mine of this.listeners.values()) for (const l of mine.values()) l.close();
    this.listeners.clear();
  }
}

/** Runs the proxy on `manager` (the node agent's); its listeners close when the Manager stops. */
export function registerServiceProxy(manager: Manager): Pick<ServiceProxy, "addresses"> {
  const reconciler = new ProxyReconciler();
  reconciler.register(manager);
  return { addresses: () => reconciler.addresses() };
}

/** Starts the proxy alone, on a Manager of its own; it runs until `signal` aborts. */
export function startServiceProxy(
  client: Client,
  signal: AbortSignal,
  opts: ServiceProxyOptions = {},
): ServiceProxy {
  const reconciler = new ProxyReconciler();
  const done = runOnOwnManager(client, signal, (m) => reconciler.register(m), { log: opts.log });
  return { done, addresses: () => reconciler.addresses() };
}
