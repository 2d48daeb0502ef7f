/**
 * Object shapes shared by every layer: the Kubernetes object envelope, ObjectMeta,
 * owner references, Status and list envelopes. Kinds are open records: the apiserver
 * validates them against their schema, code reads the fields it owns.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: "Apply" | "Update";
  apiVersion: string;
  time?: string;
  fieldsType: "FieldsV1";
  fieldsV1: FieldsV1;
  subresource?: string;
}

/** The FieldsV1 set: nested maps keyed `f:<field>`, `k:<json key>`, `v:<json value>`, `.`. */
export interface FieldsV1 {
  [key: string]: FieldsV1;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> {
  apiVersion: string;
  kind: string;
  metadata: ListMeta;
  items: T[];
}

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: "Status";
  apiVersion: "v1";
  metadata: ListMeta;
  status: "Success" | "Failure";
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";

export interface WatchEvent<T = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Group, version and kind of a type. The core group is the empty string. */
export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Splits an apiVersion like `apps/v1` or `v1` into group and version. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf("/");
  if (slash < 0) return { group: "", version: apiVersion };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

export function formatApiVersion(group: string, version: string): string {
  return group === "" ? version : `${group}/${version}`;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
