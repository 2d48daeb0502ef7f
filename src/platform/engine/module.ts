/**
 * What an app is to the engine: `{ definition, render, childKinds?, hooks?, status? }`.
 * `render` is a pure function of the app object and its tenant context that
 * returns the children to apply; hooks run around uninstall with a client
 * limited to what they declare; `status` reads the children back into
 * conditions. One module per app, one folder per module under `platform/apps/`.
 */
import type { KubeObject } from "../../api/index.js";
import type { Client, TypeRef } from "../../client/index.js";
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

/** An application object of `apps.cozystack.io/v1alpha1`. */
export interface App extends KubeObject {
  spec?: Record<string, unknown>;
  status?: AppStatus;
}

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

export interface AppModule {
  /** The checked-in ApplicationDefinition this module serves. */
  definition: ApplicationDefinition;
  /** The version reported in `status.version`. */
  version: string;
  render(app: App, context: TenantContext): KubeObject[];
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
  hooks?: AppHooks;
  status?(app: App, reader: Client): Promise<WorkloadReport>;
}
