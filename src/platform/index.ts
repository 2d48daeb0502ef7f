/**
 * The platform: its list of components (`components.ts`), the apps engine
 * that serves their app modules, the checked-in ApplicationDefinitions,
 * bootstrap of a fresh API and the admission checks on apps.
 */
import { join } from "node:path";

export { AppAdmission, type AppAdmissionRequest } from "./admission.js";
export {
  compileDefragRule,
  DEFAULT_DEFRAG_RULE,
  defragment,
  ETCD_DEFAULT_QUOTA_BYTES,
  type EtcdTls,
} from "./apps/etcd/index.js";
export { ALLOW_DIRECT_DELETE_LABEL, ROOT_NAMESPACE } from "./apps/tenant/index.js";
export {
  type AssembledPlatform,
  admissionRules,
  appModules,
  assemble,
} from "./assemble.js";
export { kindsServedAtStart, type ServedKindRef } from "./bootstrap.js";
export type {
  AdmissionRule,
  AppComponent,
  Component,
  ComponentContext,
  ComponentController,
} from "./component.js";
export { COMPONENTS } from "./components.js";
export {
  type ApplicationDefinition,
  crdFor,
  declaredKeys,
  loadDefinitions,
} from "./definitions.js";
export {
  type DoctorReport,
  diagnose,
  FINALIZER_OWNERS,
  formatReport,
  somethingStuck,
} from "./doctor/index.js";
export { AppsEngine } from "./engine/engine.js";
export type {
  App,
  AppModule,
  HookContext,
  HookResult,
  InventorySelector,
  PlacedChild,
  SpecShape,
  TeardownWave,
} from "./engine/module.js";
export { CONTROLLER_MANAGER_USER, PLATFORM_USER } from "./guardrails.js";
export { type PlatformOptions, runPlatform } from "./run.js";

/** `config/apps` of this checkout. */
export function definitionsDir(repoRoot: string): string {
  return join(repoRoot, "config", "apps");
}
