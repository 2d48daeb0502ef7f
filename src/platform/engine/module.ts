/**
 * What an app is to the engine: `AppModule<Spec, Observed>`. `spec` declares
 * the spec's keys and JSON types (checked once against the definition's schema,
 * and each app's spec against it before render, so modules read a typed spec
 * without casts); `observe` reads live state before render; `render` is a pure
 * function of the app, its tenant context and what was observed, returning the
 * children, optionally placed in install waves; `teardown` declares the
 * uninstall's waves (what to delete, what to wait for, a deadline, the residue
 * to report), hooks being the short form of a first and a last wave; `status`
 * reads the children back into conditions; `childKinds` names the kinds
 * render returns, whose events wake the app (nothing is polled). One module per app, one folder per
 * module under `platform/apps/`.
 */
import type { KubeObject } from "../../api/index.js";
import type { Client, Reader, TypeRef } from "../../client/index.js";
import type { Condition } from "../../runtime/index.js";
import type { ApplicationDefinition } from "../definitions.js";

export {
  APPS_API_VERSION,
  APPS_GROUP,
  APPS_VERSION,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
  LABEL_TENANT_MODULE,
} from "../apps-api.js";

/** An application object of `apps.cozystack.io/v1alpha1`, its spec of type `Spec`. */
export interface App<Spec = Record<string, unknown>> extends KubeObject {
  spec?: Spec;
  status?: AppStatus;
}

export type JsonType =
  | "string"
  | "boolean"
  | "integer"
  | "number"
  | "array"
  | "object"
  /** `x-kubernetes-int-or-string` (a quantity: `4Gi` or `4294967296`). */
  | "int-or-string";

/** The JSON schema `type` of a value of type `T` (any, for `unknown`). */
export type JsonTypeOf<T> = unknown extends T ? JsonType : DefinedJsonType<Exclude<T, undefined>>;

// Tuples keep a union whole: `string | number` is int-or-string, not either.
type DefinedJsonType<T> = [T] extends [string]
  ? "string"
  : [T] extends [boolean]
    ? "boolean"
    : [T] extends [number]
      ? "integer" | "number"
      : [T] extends [string | number]
        ? "int-or-string"
        : [T] extends [readonly unknown[]]
          ? "array"
          : "object";

/**
 * Every key of a spec type with its JSON type: the link between a module's
 * `Spec` and its definition's schema (`spec-shape.ts` checks the two agree).
 */
export type SpecShape<Spec> = { [K in keyof Spec]-?: JsonTypeOf<Spec[K]> };

export interface InventoryEntry {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface AppStatus {
  version?: string;
  observedGeneration?: number;
  conditions?: Condition[];
  /** Every child the engine applied and has not yet deleted. */
  inventory?: InventoryEntry[];
  /** Tenants: the namespace they own. */
  namespace?: string;
  [key: string]: unknown;
}

/** `_namespace` and `_cluster` as Cozystack passes them to every chart. */
export interface TenantContext {
  namespace: Record<string, string>;
  cluster: Record<string, string>;
  /** The Namespace object the app lives in (undefined if it is gone). */
  appNamespace: KubeObject | undefined;
}

/** What a hook may do: the verbs it declared, on the kinds it declared. */
export interface HookPermission {
  apiVersion: string;
  kind: string;
  verbs: ("get" | "list" | "delete")[];
}

export interface HookContext {
  app: App;
  /** A client limited to the module's declared permissions. */
  client: Client;
  signal: AbortSignal;
  /** The kinds of every served app, for hooks that walk a namespace's apps. */
  appKinds: readonly string[];
}

/** A hook's answer: done, or still waiting (then asked again shortly). */
export interface HookResult {
  done: boolean;
  /** What it is waiting for, for the app's status. */
  waitingFor?: string;
  /** What it could not clean up and left behind, reported in status and an Event. */
  residue?: string[];
}

/**
 * One wave of an uninstall. On each pass the engine deletes what `delete`
 * selects, then asks `waitFor`; the next wave starts only once the selected
 * children are gone and `waitFor` is done. Progress is kept in
 * `status.teardown`, so a restart resumes at the same wave, its deadline
 * counted from when the wave first started. A wave past its deadline records
 * its residue (status and a Warning `CleanupResidue` Event) and the teardown
 * goes on: never stuck, never silent. Whatever is left in the inventory after
 * the module's waves is deleted by the engine's own last waves (the rest, then
 * namespaces).
 */
export interface TeardownWave {
  /** Unique in the module; shown as `status.teardown.wave`. */
  name: string;
  /**
   * Inventory entries to delete (ownership-checked, as every delete of the
   * engine), or a function doing other deletes with a client limited to
   * `permissions` (called on every pass of the wave; it must be idempotent).
   */
  delete?: InventorySelector | ((ctx: HookContext) => Promise<void>);
  /** What must hold (be gone) before the next wave; read through the limited client. */
  waitFor?(ctx: HookContext): Promise<HookResult>;
  /** What `delete` and `waitFor` may do (default: nothing). */
  permissions?: HookPermission[];
  /** How long the wave may wait, from when it started. */
  deadlineMs: number;
  /** What to report as left behind when the deadline passes (default: what it waited on). */
  residue?(ctx: HookContext, waitingOn: string): Promise<string[]>;
}

/** Inventory entries by kind; `exceptKinds` selects all others. */
export interface InventorySelector {
  kinds?: string[];
  exceptKinds?: string[];
}

/** A child placed in an install wave: wave k+1 is applied once wave k is ready. */
export interface PlacedChild {
  object: KubeObject;
  wave: number;
}

/** What render returns: a child (wave 0) or a placed one. */
export type RenderedChild = KubeObject | PlacedChild;

export interface AppHooks {
  permissions: HookPermission[];
  /** Milliseconds one call may take before it counts as failed (default 60 s). */
  deadlineMs?: number;
  preDelete?(ctx: HookContext): Promise<HookResult>;
  postDelete?(ctx: HookContext): Promise<HookResult>;
}

/** How the children are doing, read after they were applied. */
export interface WorkloadReport {
  ready: boolean;
  reason: string;
  message: string;
  /** Extra status fields (a Tenant's `namespace`). */
  fields?: Record<string, unknown>;
}

/**
 * Where an app's children may live. The engine applies, prunes and deletes
 * nothing outside it, whatever the app's status says.
 */
export interface ChildScope {
  /** Namespaces its namespaced children live in. */
  namespaces: string[];
  /** The cluster-scoped children it renders, each by apiVersion, kind and name. */
  clusterScoped: { apiVersion: string; kind: string; name: string }[];
}

export interface AppModule<Spec = Record<string, unknown>, Observed = unknown> {
  /** The checked-in ApplicationDefinition this module serves. */
  definition: ApplicationDefinition;
  /** The version reported in `status.version`. */
  version: string;
  /**
   * The spec's keys and types. The engine refuses to serve a module whose
   * shape and schema differ, and renders no app whose spec does not fit it.
   */
  spec?: SpecShape<Spec>;
  /** Live state render needs (what a running child names), read before each render. */
  observe?(app: App<Spec>, reader: Reader): Promise<Observed>;
  render(app: App<Spec>, context: TenantContext, observed: Observed): RenderedChild[];
  /**
   * Whether install wave `wave` is ready for the next one to be applied
   * (default: at once). Asked only when a later wave exists.
   */
  waveReady?(app: App<Spec>, wave: number, reader: Reader): Promise<HookResult>;
  /**
   * Every kind `render` may return. The engine watches these (only the
   * objects it labelled) and looks at an app again when one of its children
   * changes or goes, so nothing is polled; a child of an undeclared kind is
   * looked at again on a timer instead.
   */
  childKinds?: readonly TypeRef[];
  /**
   * Where `render` puts children; default: the app's own namespace and no
   * cluster-scoped object. A pure function of the app's namespace and name.
   */
  scope?(app: App): ChildScope;
  /** Schemas of the extra `status` fields `status` reports (`WorkloadReport.fields`). */
  statusFields?: Record<string, Record<string, unknown>>;
  /**
   * Short form of a first and a last teardown wave: `preDelete` is asked
   * before anything is deleted and again on every later pass (children are
   * never deleted while it is not done), `postDelete` once the children are gone.
   */
  hooks?: AppHooks;
  /** The uninstall's waves, in order, run between `preDelete` and the engine's own. */
  teardown?: TeardownWave[];
  /** Reads through the engine's cache-first reader; what this pass applied reads as applied. */
  status?(app: App<Spec>, reader: Reader): Promise<WorkloadReport>;
}
