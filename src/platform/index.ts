/**
 * The platform: the apps engine with every app module Hearth has, the
 * checked-in ApplicationDefinitions, bootstrap of a fresh API (definitions,
 * roles, guardrails, tenant-root) and the admission checks on apps.
 */
import { join } from "node:path";
import type { Client } from "../client/index.js";
import { etcdModule } from "./apps/etcd/index.js";
import { tenantModule } from "./apps/tenant/index.js";
import { bootstrapPlatform, ensureRootTenant } from "./bootstrap.js";
import type { ApplicationDefinition } from "./definitions.js";
import { AppsEngine } from "./engine/engine.js";
import type { AppModule } from "./engine/module.js";
import { runEtcdOperator } from "./operators/etcd/index.js";

export { AppAdmission, type AppAdmissionRequest } from "./admission.js";
export {
  compileDefragRule,
  DEFAULT_DEFRAG_RULE,
  defragment,
  ETCD_DEFAULT_QUOTA_BYTES,
  type EtcdTls,
} from "./apps/etcd/index.js";
export { ROOT_NAMESPACE } from "./apps/tenant/naming.js";
export { kindsServedAtStart, type ServedKindRef } from "./bootstrap.js";
export {
  type ApplicationDefinition,
  crdFor,
  declaredKeys,
  loadDefinitions,
} from "./definitions.js";
export { AppsEngine } from "./engine/engine.js";
export type { AppModule, HookContext, HookResult } from "./engine/module.js";
export { ALLOW_DIRECT_DELETE_LABEL, CONTROLLER_MANAGER_USER, PLATFORM_USER } from "./guardrails.js";

/** `config/apps` of this checkout. */
export function definitionsDir(repoRoot: string): string {
  return join(repoRoot, "config", "apps");
}

/** Module apps (tenant modules) that have a backend in this version. */
export const SERVED_MODULES: ReadonlySet<string> = new Set<string>(["Etcd"]);

/** Every app module of this version, built on its checked-in definition. */
export function appModules(definitions: Map<string, ApplicationDefinition>): AppModule[] {
  const need = (kind: string) => {
    const def = definitions.get(kind);
    if (!def) throw new Error(`no checked-in ApplicationDefinition for ${kind}`);
    return def;
  };
  return [tenantModule(need("Tenant"), SERVED_MODULES), etcdModule(need("Etcd"))];
}

export interface PlatformOptions {
  definitions: Map<string, ApplicationDefinition>;
  /** Extra modules (tests). */
  extraModules?: AppModule[];
  cluster?: Record<string, string>;
  log?(msg: string, err?: unknown): void;
  /** Called once tenant-root and its Tenant exist. */
  onReady?(): void;
}

/** Bootstraps the API, then runs the engine until `signal` aborts. */
export async function runPlatform(
  client: Client,
  signal: AbortSignal,
  opts: PlatformOptions,
): Promise<void> {
  const modules = [...appModules(opts.definitions), ...(opts.extraModules ?? [])];
  const definitions = [
    ...opts.definitions.values(),
    ...(opts.extraModules ?? []).map((m) => m.definition),
  ];
  await bootstrapPlatform(client, definitions, signal);
  const engine = new AppsEngine(client, modules, {
    ...(opts.cluster ? { cluster: opts.cluster } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const running = Promise.all([
    engine.run(signal),
    runEtcdOperator(client, signal, opts.log ? { log: opts.log } : {}),
  ]);
  await ensureRootTenant(client, signal);
  opts.onReady?.();
  await running;
}
