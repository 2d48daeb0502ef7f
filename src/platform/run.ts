/**
 * `runPlatform`: a loop over the list of components — install their CRDs and
 * bootstrap objects, run the apps engine on their app modules and each of
 * their controllers, then apply their seeds — until the signal aborts.
 */
import type { Client } from "../client/index.js";
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
  /** Called once every component's seeds (tenant-root's Tenant) exist. */
  onReady?(): void;
}

/** Bootstraps the API, then runs the engine and the controllers until `signal` aborts. */
export async function runPlatform(
  client: Client,
  signal: AbortSignal,
  opts: PlatformOptions,
): Promise<void> {
  const platform = assemble(opts.components ?? COMPONENTS, opts.definitions);
  const log = opts.log ?? (() => {});
  await bootstrapPlatform(client, platform, signal);
  const engine = new AppsEngine(client, appModules(platform.components, platform.ctx), {
    ...(opts.cluster ? { cluster: opts.cluster } : {}),
    log,
  });
  const controllers = platform.components.flatMap((c) => c.controllers ?? []);
  const running = Promise.all([
    engine.run(signal),
    ...controllers.map((c) => c.run(client, signal, { log })),
  ]);
  await applySeeds(client, platform, signal);
  opts.onReady?.();
  await running;
}
