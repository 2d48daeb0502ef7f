/**
 * What a component of the platform declares: one folder (an app, an operator,
 * a kind) says here everything `hearth up` must do for it, and registers with
 * one line in `components.ts`. Nothing outside the folder names its kinds.
 * - `crds`: installed, and waited for until served, before anything else runs
 *   (`crds.ts` is the one install path);
 * - `bootstrap`: objects applied at every start, before the controllers;
 * - `seeds`: objects applied once their kind is served, after the controllers
 *   start (the root Tenant, which needs the engine to serve Tenants);
 * - `apps`: app modules the engine serves, each on its ApplicationDefinition;
 * - `admission`: checks on an app kind's spec, run in the apiserver's chain;
 * - `controllers`: controllers (operators) each registers on the platform's
 *   one Manager, whose shared cache and lifecycle they run on.
 */
import type { FieldError, KubeObject } from "../api/index.js";
import type { Reader } from "../client/index.js";
import type { Manager } from "../runtime/index.js";
import type { ApplicationDefinition } from "./definitions.js";
import type { AppModule } from "./engine/module.js";

/** What every component is told about the platform it is part of. */
export interface ComponentContext {
  /** Every ApplicationDefinition applied at this start, by kind. */
  definitions: ReadonlyMap<string, ApplicationDefinition>;
  /** Kinds of the tenant modules that have a backend (derived from the list). */
  servedModules: ReadonlySet<string>;
}

/** One app kind a component serves. */
export interface AppComponent {
  kind: string;
  /** Its own definition; without it, the checked-in one of `kind` (`config/apps`). */
  definition?: ApplicationDefinition;
  module(definition: ApplicationDefinition, ctx: ComponentContext): AppModule;
}

/** An app object's create or update, as the platform's admission plugin sees it. */
export interface AppAdmissionRequest {
  operation: "CREATE" | "UPDATE" | "DELETE" | "CONNECT";
  group: string;
  kind: string;
  subresource: string;
  namespace: string;
  name: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

/** A check of one app kind's create/update; asked only once the spec keys passed. */
export interface AdmissionRule {
  kind: string;
  /**
   * The errors, each naming the field and the rule. `reader` is undefined
   * while the server starts (before the platform's client exists).
   */
  check(
    req: AppAdmissionRequest,
    reader: Reader | undefined,
    ctx: ComponentContext,
  ): FieldError[] | Promise<FieldError[]>;
}

export interface ControllerOptions {
  log(msg: string, err?: unknown): void;
}

/**
 * A controller of a component: `register` builds its controllers
 * (`manager.controller(name).for(..).owns(..)`) and runnables
 * (`manager.add`) on the platform's Manager, which starts and stops them.
 */
export interface ComponentController {
  name: string;
  register(manager: Manager, opts: ControllerOptions): void;
}

export interface Component {
  name: string;
  crds?: readonly KubeObject[];
  bootstrap?(ctx: ComponentContext): KubeObject[];
  seeds?(ctx: ComponentContext): KubeObject[];
  apps?: readonly AppComponent[];
  admission?: readonly AdmissionRule[];
  controllers?: readonly ComponentController[];
}
