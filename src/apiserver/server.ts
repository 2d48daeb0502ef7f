/**
 * The apiserver: HTTPS (or plain HTTP for tests and benchmarks) over a storage
 * Backend, bearer-token authentication, the resource registry with CRDs, and a
 * lifecycle bound to an AbortSignal — when it aborts, watches end, the listener
 * closes and `start` resolves.
 */

import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Backend } from "../storage/backend.js";
import { ValidatingAdmissionPolicyPlugin } from "./admission/policy/index.js";
import { AdmissionChain, type AdmissionPlugin } from "./admission/types.js";
import { ANONYMOUS_ADMIN, StaticTokenAuthenticator } from "./auth/static-tokens.js";
import { ALLOW_ALL, type Authenticator, type Authorizer, MASTERS_GROUP } from "./auth/types.js";
import { ensureSystemNamespaces } from "./bootstrap.js";
import { CrdRegistrar } from "./crd/crd-registrar.js";
import type { ServerContext } from "./handlers/context.js";
import { OpenApiDocuments } from "./openapi-documents.js";
import { builtinTypes } from "./resources/builtin.js";
import { ResourceRegistry } from "./resources/registry.js";
import { route } from "./router.js";
import { ObjectStore } from "./store/object-store.js";

export interface ApiServerOptions {
  backend: Backend;
  /** Omit for plain HTTP. */
  tls?: { certPem: string; keyPem: string };
  /** Shorthand for a StaticTokenAuthenticator: bearer token → user name, in system:masters. */
  tokens?: Map<string, string>;
  /** Who a request is; absent (and no tokens): everyone is an administrator (tests and benchmarks only). */
  authenticator?: Authenticator;
  /** What they may do; absent: everything. */
  authorizer?: Authorizer;
  /** Admission plugins, in order. */
  admission?: AdmissionPlugin[];
  host?: string;
  /** 0 picks a free port. */
  port: number;
  bookmarkIntervalMs?: number;
  log?: (msg: string, err?: unknown) => void;
}

export class ApiServer {
  readonly registry = new ResourceRegistry(builtinTypes());
  private server?: Server;
  private listening = false;

  constructor(private readonly opts: ApiServerOptions) {}

  get port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  /** Listens; resolves once serving, and stops everything when `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    const opts = this.opts;
    const registrar = new CrdRegistrar(opts.backend, this.registry, opts.log);
    await registrar.start(signal);
    const policies = new ValidatingAdmissionPolicyPlugin(opts.backend, this.registry);
    await policies.start(signal);
    const context: ServerContext = {
      backend: opts.backend,
      store: new ObjectStore(opts.backend),
      registry: this.registry,
      bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 60_000,
      signal,
      admission: new AdmissionChain([policies, ...(opts.admission ?? [])]),
      authorizer: opts.authorizer ?? ALLOW_ALL,
    };
    await ensureSystemNamespaces(context.store, this.registry);
    const deps = {
      server: context,
      openapi: new OpenApiDocuments(this.registry),
      authenticator: opts.authenticator ?? tokenAuthenticator(opts.tokens),
      ready: () => this.listening,
    };
    const handler = (req: IncomingMessage, res: import("node:http").ServerResponse) => {
      void route(deps, req, res);
    };
    const server = opts.tls
      ? createHttpsServer(
          { cert: opts.tls.certPem, key: opts.tls.keyPem, keepAliveTimeout: 60_000 },
          handler,
        )
      : createHttpServer({ keepAliveTimeout: 60_000 }, handler);
    server.headersTimeout = 60_000;
    server.requestTimeout = 0;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port, opts.host ?? "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.listening = true;
    signal.addEventListener(
      "abort",
      () => {
        this.listening = false;
        server.close();
        server.closeAllConnections();
        void registrar.drain();
      },
      { once: true },
    );
  }

  /** Resolves when the listener has closed (after the start signal aborted). */
  async closed(): Promise<void> {
    const server = this.server;
    if (!server?.listening) return;
    await new Promise<void>((resolve) => server.once("close", () => resolve()));
  }
}

function tokenAuthenticator(tokens: Map<string, string> | undefined): Authenticator {
  if (!tokens || tokens.size === 0) return ANONYMOUS_ADMIN;
  return new StaticTokenAuthenticator(
    new Map([...tokens].map(([t, name]) => [t, { username: name, groups: [MASTERS_GROUP] }])),
  );
}
