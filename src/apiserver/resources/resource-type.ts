/**
 * A ResourceType describes one served resource (built-in kind or CRD version):
 * its REST names, scope, schema, table columns and the kind-specific hooks the
 * generic store calls. Every kind the apiserver serves is one of these.
 */
import type { FieldError, KubeObject, Schema } from "../../api/index.js";

export interface TableColumn {
  name: string;
  type: "string" | "integer" | "number" | "boolean" | "date";
  format?: string;
  description?: string;
  priority?: number;
  /** The cell value for an object. */
  cell(obj: KubeObject): unknown;
}

export type NameRule = "dns1123-label" | "dns1123-subdomain" | "path-segment";

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /** Built-in kinds: the Scale's `status.selector` computed from the object (kube's scale REST). */
  selector?(obj: KubeObject): string | undefined;
}

/**
 * Objects kept in another resource's storage and form (events.k8s.io/v1 Events
 * are stored as core/v1 Events): the store reads and writes that resource's keys
 * and converts on the way in and out.
 */
export interface StorageMapping {
  /** The resource whose storage keys hold the objects. */
  resource: { group: string; plural: string };
  /** A stored object (with its resourceVersion) in this type's form. */
  fromStorage(obj: KubeObject): KubeObject;
  /** An object of this type in the stored form. */
  toStorage(obj: KubeObject): KubeObject;
}

/**
 * The request a kind's request-bound hooks (`virtualCreate`, `storeCreate`,
 * `subresourceHandlers`) are called with. The kind contract does not import the
 * HTTP layer, which imports it: the hooks are written against the handlers'
 * `RequestContext` (handlers/context.ts), which has this shape and more, and
 * only the handlers call them, always with a `RequestContext`. TypeScript checks
 * method parameters bivariantly, which is what lets a hook take that wider type.
 */
export interface KindRequest {
  type: ResourceType;
}

/** A subresource's whole request handler (`finalize`, `token`, `log`…); see `KindRequest`. */
export type SubresourceHandler = {
  handle(ctx: KindRequest): Promise<void>;
}["handle"];

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** The status subresource: spec and status are written separately. */
  status: boolean;
  scale?: ScaleSubresource;
  nameRule: NameRule;
  /** Full object schema (with apiVersion, kind, metadata). */
  schema: Schema;
  /** Built-in kinds take strategic merge patch; custom kinds do not. */
  strategicMergePatch: boolean;
  /** Columns after NAME; AGE is appended unless a column is named Age. */
  columns: TableColumn[];
  /** When true, `columns` are the whole table (no NAME first, no AGE appended). */
  ownColumns?: boolean;
  /** Field selector values beyond metadata.name / metadata.namespace. */
  selectableFields?(obj: KubeObject): Record<string, string>;
  /** Kind-specific checks on create and update (old is set on update). */
  validate?(obj: KubeObject, old: KubeObject | undefined): FieldError[];
  /** Sets defaults and server-owned fields before a create is stored. */
  prepareForCreate?(obj: KubeObject): void;
  /** Keeps server-owned fields on update (old is the stored state). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject): void;
  /** Finalizers beyond `metadata.finalizers` that keep a deleted object (Namespace `spec.finalizers`). */
  pendingFinalizers?(obj: KubeObject): string[];
  /**
   * Graceful deletion (pods): the grace period in seconds a DELETE gives the
   * object, from the requested `gracePeriodSeconds` (undefined when not asked);
   * 0 deletes at once. See `handlers/graceful-delete.ts`.
   */
  gracePeriod?(obj: KubeObject, requested: number | undefined): number;
  /** Called when a DELETE marks the object (may throw to refuse, e.g. a namespace already terminating). */
  prepareForDelete?(obj: KubeObject): void;
  /** A custom kind whose CRD is being deleted: served, but takes no new objects. */
  terminating?: boolean;
  /**
   * A DELETE that removes the object answers with the object as last stored,
   * not a Success Status (kube's `ReturnDeletedObject`: pods, services,
   * persistent volumes and claims, service accounts).
   */
  returnDeletedObject?: boolean;
  /** True for kinds whose objects are served but not deletable by users. */
  undeletable?(obj: KubeObject): string | undefined;
  /**
   * Create-only kinds that are computed, not stored (SubjectAccessReview,
   * TokenReview…): POST returns this result with 201.
   */
  virtualCreate?(ctx: KindRequest, body: KubeObject): Promise<KubeObject>;
  /** Set when the objects live in another resource's storage, converted. */
  storage?: StorageMapping;
  /**
   * Stores a new object through `store` (not on dry run), for values that must be
   * unique across objects: a Service's ClusterIP is chosen and stored under one lock.
   */
  storeCreate?(
    ctx: KindRequest,
    obj: KubeObject,
    store: (obj: KubeObject) => Promise<KubeObject>,
  ): Promise<KubeObject>;
  /** Subresources beyond status and scale, each handling its whole request (e.g. `finalize`, `token`). */
  subresourceHandlers?: Record<string, SubresourceHandler>;
  /**
   * Read-only kinds computed for each request, not stored (metrics.k8s.io's
   * PodMetrics and NodeMetrics): get and list only; see `handlers/computed-read.ts`.
   */
  computedRead?: ComputedRead;
}

/** The reads of a computed kind; see `KindRequest` for why they take it. */
export interface ComputedRead {
  /** The object named by the request; throws NotFound. */
  get(ctx: KindRequest): Promise<KubeObject>;
  /** The objects of the request's namespace (all when none), as its selectors choose. */
  list(ctx: KindRequest): Promise<KubeObject[]>;
}

export function apiVersionOf(t: { group: string; version: string }): string {
  return t.group === "" ? t.version : `${t.group}/${t.version}`;
}

/** `configmaps` or `crontabs.stable.example.com`, for messages. */
export function qualifiedPlural(t: { group: string; plural: string }): string {
  return t.group === "" ? t.plural : `${t.plural}.${t.group}`;
}

export const STANDARD_VERBS = [
  "create",
  "delete",
  "deletecollection",
  "get",
  "list",
  "patch",
  "update",
  "watch",
];

type BuiltinBase = Pick<ResourceType, "group" | "version" | "kind" | "plural" | "singular"> &
  Partial<ResourceType>;

/** A built-in kind with the usual defaults: namespaced, every verb, DNS-subdomain names, strategic merge patch. */
export function builtinType(base: BuiltinBase): ResourceType {
  return {
    listKind: `${base.kind}List`,
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    status: false,
    nameRule: "dns1123-subdomain",
    strategicMergePatch: true,
    columns: [],
    schema: {},
    ...base,
  };
}
