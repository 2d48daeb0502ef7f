/**
 * The apiserver: HTTPS (or plain HTTP for tests and benchmarks) over a storage
 * Backend, bearer-token authentication, the resource registry with CRDs, and a
 * lifecycle bound to an AbortSignal — when it aborts, watches end, the listener
 * closes and `start` resolves.
 */

import { setMaxListeners } from "node:events";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  ServerResponse,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import type { Backend } from "../storage/index.js";
import { LimitRanger } from "./admission/limit-ranger.js";
import { NamespaceLifecycle } from "./admission/namespace-lifecycle.js";
import { PodSecurity, type PodSecurityOptions } from "./admission/pod-security.js";
import { ValidatingAdmissionPolicyPlugin } from "./admission/policy/index.js";
import { ResourceQuotaAdmission } from "./admission/resource-quota.js";
import { StorageAdmission } from "./admission/storage-admission.js";
import { AdmissionChain, type AdmissionPlugin } from "./admission/types.js";
import { type AccessOptions, setUpAccess } from "./auth/setup.js";
import { ensureSystemNamespaces } from "./bootstrap.js";
import { crdResourceType } from "./crd/crd-kind.js";
import { CrdRegistrar } from "./crd/crd-registrar.js";
import type { ServerContext } from "./handlers/context.js";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "./http/timeout.js";
import { isUpgraded } from "./http/upgraded.js";
import { ResourceUsage } from "./metrics-api/index.js";
import type { NodeClientTls } from "./node-connection.js";
import { OpenApiDocuments } from "./openapi-documents.js";
import { RBAC_PREFIX } from "./rbac/policy-cache.js";
import {
  type CheckFailure,
  type HealthCheck,
  HealthChecks,
  type HealthEndpoints,
} from "./readiness.js";
import { addBuiltinChecks } from "./readiness-checks.js";
import { builtinTypes } from "./resources/builtin.js";
import { ResourceRegistry } from "./resources/registry.js";
import { type RouterDeps, route } from "./router.js";
import { type ServedKind, ServedKinds } from "./served-kinds.js";
import { syncedWrites } from "./store/cache-sync.js";
import { collectionPrefix } from "./store/keys.js";
import { ObjectStore } from "./store/object-store.js";

/**
 * Authentication and authorization (see AccessOptions): `tokens` maps bearer
 * tokens to system:masters users; `tokenUsers`, `clientCAs` and
 * `serviceAccountSigning` add other users; `rbac` turns on the RBAC authorizer.
 * With no credentials configured everyone is an administrator (tests and
 * benchmarks only); without `rbac` (or an `authorizer`) everything is allowed.
 */
export interface ApiServerOptions extends AccessOptions {
  backend: Backend;
  /** Omit for plain HTTP. */
  tls?: { certPem: string; keyPem: string };
  /** Admission plugins, in order. */
  admission?: AdmissionPlugin[];
  /** How the apiserver authenticates to node agents (logs, exec, port-forward). */
  nodeClient?: NodeClientTls;
  /**
   * Pod Security admission's exemptions and defaults (kube's
   * PodSecurityConfiguration); by default no one is exempt and unlabelled
   * namespaces are privileged.
   */
  podSecurity?: PodSecurityOptions;
  host?: string;
  /** 0 picks a free port. */
  port: number;
  bookmarkIntervalMs?: number;
  /** Where Services' ClusterIPs come from (default 10.96.0.0/16). */
  serviceCidr?: string;
  /** kube's `--request-timeout`: the longest a request that is not long-running may take (60 s). */
  requestTimeoutMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

/** An object by its resource path parts, for `objectCheck`. */
export interface ObjectRef {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name: string;
}

export class ApiServer {
  readonly registry: ResourceRegistry;
  private readonly openapi: OpenApiDocuments;
  private readonly health: HealthEndpoints = {
    healthz: new HealthChecks(),
    livez: new HealthChecks(),
    readyz: new HealthChecks(),
  };
  private readonly servedKinds: ServedKinds;
  /** Checks added before `start`, listed after the built-in ones as kube lists its post-start hooks. */
  private pendingReadyChecks: [string, HealthCheck][] | undefined = [];
  private server?: Server;
  private closedPromise?: Promise<void>;

  /** The kinds served without any CRD. */
  readonly builtinKinds: readonly ServedKind[];

  constructor(private readonly opts: ApiServerOptions) {
    this.registry = new ResourceRegistry(builtinTypes(opts.serviceCidr));
    this.builtinKinds = this.registry.all().map(({ group, version, kind, plural }) => ({
      group,
      version,
      kind,
      plural,
    }));
    this.openapi = new OpenApiDocuments(this.registry);
    this.servedKinds = new ServedKinds(this.registry, this.openapi);
  }

  /**
   * Adds a check that `/readyz` (and `whenReady`) requires, such as one for
   * the kinds or objects a platform on this server must have before clients
   * may rely on it.
   */
  addReadyCheck(name: string, check: HealthCheck): void {
    if (this.pendingReadyChecks) this.pendingReadyChecks.push([name, check]);
    else this.health.readyz.add(name, check);
  }

  /** The readiness checks failing now; empty once the server is ready. */
  readinessFailures(): Promise<CheckFailure[]> {
    return this.health.readyz.failures();
  }

  /** Resolves once every readiness check passes (as `/readyz` would answer). */
  async whenReady(signal: AbortSignal, pollMs = 50): Promise<void> {
    while ((await this.readinessFailures()).length > 0) {
      if (signal.aborted) throw new Error("stopped before the server was ready");
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** A check that every kind of `kinds` is in discovery, `/openapi/v3` and `/openapi/v2`. */
  servedKindsCheck(kinds: () => readonly ServedKind[]): HealthCheck {
    return () => this.servedKinds.missing(kinds());
  }

  /** A check that an object exists, read from storage as a GET would. */
  objectCheck(ref: ObjectRef): HealthCheck {
    const store = new ObjectStore(this.opts.backend);
    return async () => {
      const type = this.registry.lookup(ref.group, ref.version, ref.plural);
      const what = `${ref.plural} ${ref.namespace ? `${ref.namespace}/` : ""}${ref.name}`;
      if (!type) return `${what}: ${ref.plural} is not served yet`;
      const found = await store.tryGet(type, ref.namespace, ref.name);
      return found ? undefined : `${what} does not exist yet`;
    };
  }

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  /** Listens; resolves once serving, and stops everything when `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    const opts = this.opts;
    const registrar = new CrdRegistrar(opts.backend, this.registry, opts.log);
    await registrar.start(signal);
    const access = setUpAccess(opts, opts.backend, opts.log);
    const namespaces = new NamespaceLifecycle(opts.backend, opts.log);
    const policies = new ValidatingAdmissionPolicyPlugin(
      opts.backend,
      this.registry,
      opts.log,
      namespaces,
    );
    const podSecurity = new PodSecurity(namespaces, opts.backend, opts.podSecurity);
    const storage = new StorageAdmission(opts.backend, opts.log);
    const limits = new LimitRanger(opts.backend, opts.log);
    const quotas = new ResourceQuotaAdmission(opts.backend, this.registry, opts.log);
    await Promise.all([
      policies.start(signal),
      namespaces.start(signal),
      storage.start(signal),
      limits.start(signal),
      quotas.start(signal),
    ]);
    // Requests write through this: a write the caches follow returns once they have it.
    const backend = syncedWrites(opts.backend, [
      { prefix: collectionPrefix(crdResourceType), progress: registrar.progress },
      { prefix: RBAC_PREFIX, progress: access.policy.progress },
      ...policies.cache.followed(),
      namespaces.followed(),
      storage.followed(),
      limits.followed(),
      quotas.followed(),
    ]);
    const context: ServerContext = {
      backend,
      store: new ObjectStore(backend),
      registry: this.registry,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
      signal,
      admission: new AdmissionChain([
        ...access.admission,
        storage,
        limits,
        podSecurity,
        policies,
        ...(opts.admission ?? []),
        // Last: it charges quota usage, so nothing after it may refuse the request.
        quotas,
      ]),
      namespaces,
      authorizer: access.authorizer,
      ...(opts.nodeClient ? { nodeClient: opts.nodeClient } : {}),
      ...(access.serviceAccountTokens ? { serviceAccountTokens: access.serviceAccountTokens } : {}),
      resourceUsage: new ResourceUsage(signal, {
        ...(opts.log ? { log: opts.log } : {}),
        ...(opts.nodeClient ? { tls: opts.nodeClient } : {}),
      }),
    };
    await ensureSystemNamespaces(context.store, this.registry);
    await access.start(signal, context.store, this.registry);
    addBuiltinChecks(this.health, opts.backend, signal);
    for (const [name, check] of this.pendingReadyChecks ?? []) this.health.readyz.add(name, check);
    this.pendingReadyChecks = undefined;
    const deps: RouterDeps = {
      server: context,
      openapi: this.openapi,
      authenticator: access.authenticator,
      health: this.health,
      requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    };
    const handler = (req: IncomingMessage, res: import("node:http").ServerResponse) => {
      void route(deps, req, res);
    };
    const server = opts.tls
      ? createHttpsServer(
          {
            cert: opts.tls.certPem,
            key: opts.tls.keyPem,
            keepAliveTimeout: 60_000,
            // Ask for a client certificate without requiring one; the authenticator verifies it.
            ...(opts.clientCAs?.length
              ? { requestCert: true, rejectUnauthorized: false, ca: opts.clientCAs }
              : {}),
          },
          handler,
        )
      : createHttpServer({ keepAliveTimeout: 60_000 }, handler);
    // exec, attach and port-forward arrive as upgrades (WebSocket, SPDY): the
    // router answers them as any request, on a response bound to the socket.
    server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
      if (head.length > 0) socket.unshift(head);
      socket.on("error", () => socket.destroy());
      const res = new ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket);
      res.on("finish", () => {
        if (!isUpgraded(req)) socket.end();
      });
      void route(deps, req, res);
    });
    server.headersTimeout = 60_000;
    // Node must not cut a request: the router's deadline bounds short ones, and
    // watches and log streams run for as long as their own options say.
    server.requestTimeout = 0;
    server.timeout = 0;
    this.server = server;
    this.closedPromise = new Promise<void>((resolve) => server.once("close", () => resolve()));
    // Every watch listens on the server's signal.
    setMaxListeners(0, signal);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port, opts.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    signal.addEventListener(
      "abort",
      () => {
        server.close();
        server.closeAllConnections();
        void registrar.drain();
      },
      { once: true },
    );
  }

  /** Resolves when the listener has closed (after the start signal aborted). */
  async closed(): Promise<void> {
    await this.closedPromise;
  }
}
