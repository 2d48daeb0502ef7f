/**
 * `runPlatform`: a loop over the list of components — install their CRDs and
 * bootstrap objects, register the apps engine (on their app modules) and each
 * of their controllers on the platform's one Manager, start it, then apply
 * their seeds — until the signal aborts.
 */
import { type Client, isNotFound } from "../client/index.js";
import { type Cache, Manager } from "../runtime/index.js";
import { appModules, assemble } from "./assemble.js";
import { applySeeds, bootstrapPlatform } from "./bootstrap.js";
import type { Component } from "./component.js";
import { COMPONENTS } from "./components.js";
import type { ApplicationDefinition } from "./definitions.js";
import { AppsEngine } from "./engine/engine.js";

export interface PlatformOptions {
  /** The checked-in ApplicationDefinitions (`config/apps`). */
  definitions: ReadonlyMap<string, ApplicationDefinition>;
  /** The components to run (default `COMPONENTS`; tests add their own). */
  components?: readonly Component[];
  cluster?: Record<string, string>;
  log?(msg: string, err?: unknown): void;
  /** Told of progress worth an info line (the Manager's: a kind not served yet). */
  info?(msg: string): void;
  /** Called once every component's seeds (tenant-root's Tenant) exist. */
  onReady?(): void;
  /**
   * The running cache of another Manager in this process (`hearth up`: the core
   * controllers'), so that the process holds one WATCH per resource and selector.
   */
  sharedCache?: Cache;
}

/** App kinds are served only once their definition is reconciled: ask discovery again soon. */
const RESOLVE_RETRY_MS = 500;

/** Bootstraps the API, then runs the engine and the controllers until `signal` aborts. */
export async function runPlatform(
  client: Client,
  signal: AbortSignal,
  opts: PlatformOptions,
): Promise<void> {
  const platform = assemble(opts.components ?? COMPONENTS, opts.definitions);
  const log = opts.log ?? (() => {});
  await bootstrapPlatform(client, platform, signal);
  const manager = new Manager(client, {
    // An app kind not served yet (its definition is being reconciled) is retried, not news.
    log: (msg, err) => {
      if (!(msg.endsWith(" informer") && isNotFound(err))) log(msg, err);
    },
    resolveRetryMs: RESOLVE_RETRY_MS,
    ...(opts.info ? { info: opts.info } : {}),
    ...(opts.sharedCache ? { sharedCache: opts.sharedCache } : {}),
  });
  new AppsEngine(appModules(platform.components, platform.ctx), {
    ...(opts.cluster ? { cluster: opts.cluster } : {}),
    log,
  }).register(manager);
  for (const c of platform.components.flatMap((c) => c.controllers ?? []))
    c.register(manager, { log });
  const running = manager.start(signal);
  await applySeeds(client, platform, signal);
  opts.onReady?.();
  await running;
}
