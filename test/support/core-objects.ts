/**
 * Objects and waits the core controllers' envtest tests share: a namespace per
 * test, a namespaced CustomResourceDefinition served before it returns, a
 * ConfigMap with owners or finalizers, reading an object that may be gone,
 * waiting for one to reach a state or to be gone, and reading a controller's
 * Events.
 */
import { hasCode, type KubeObject, type OwnerReference } from "../../src/api/index.js";
import type { Client, ObjectRef } from "../../src/client/index.js";
import { waitFor } from "./hearth-process.js";
import { openCrd } from "./open-crd.js";

export const NAMESPACE = { apiVersion: "v1", kind: "Namespace" };
export const CONFIG_MAP = { apiVersion: "v1", kind: "ConfigMap" };
export const SECRET = { apiVersion: "v1", kind: "Secret" };
export const POD = { apiVersion: "v1", kind: "Pod" };
export const NODE = { apiVersion: "v1", kind: "Node" };
export const EVENT = { apiVersion: "v1", kind: "Event" };

let counter = 0;
/** A name no other test of this process uses: `<prefix>-<n>`. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${++counter}`;
}

export async function createNamespace(
  client: Client,
  name: string,
  extra: Partial<KubeObject> = {},
): Promise<KubeObject> {
  return client.create({ ...NAMESPACE, metadata: { name }, ...extra });
}

export interface ObjectExtras {
  owners?: OwnerReference[];
  finalizers?: string[];
  labels?: Record<string, string>;
}

/** A ConfigMap (or, with `type`, a Secret) in `namespace`. */
export function configMap(
  namespace: string,
  name: string,
  extra: ObjectExtras = {},
  type: { apiVersion: string; kind: string } = CONFIG_MAP,
): KubeObject {
  return {
    ...type,
    metadata: {
      name,
      namespace,
      ...(extra.owners ? { ownerReferences: extra.owners } : {}),
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
      ...(extra.labels ? { labels: extra.labels } : {}),
    },
  };
}

/** An owner reference to `owner` (by uid). */
export function ownerRef(
  owner: KubeObject,
  opts: { blockOwnerDeletion?: boolean; controller?: boolean } = {},
): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name!,
    uid: owner.metadata.uid!,
    ...opts,
  };
}

export function refOf(obj: KubeObject): ObjectRef {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name!,
    ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
  };
}

/** The object, or undefined once it is gone. */
export async function getOrGone<T extends KubeObject = KubeObject>(
  client: Client,
  ref: ObjectRef,
): Promise<T | undefined> {
  try {
    return await client.get<T>(ref);
  } catch (e) {
    if (hasCode(e, 404)) return undefined;
    throw e;
  }
}

/** Waits until `get` returns an object for which `ok` holds; returns it. */
export function waitForObject<T extends KubeObject>(
  what: string,
  get: () => Promise<T | undefined>,
  ok: (o: T) => boolean,
  timeoutMs?: number,
): Promise<T> {
  return waitFor(
    what,
    async () => {
      const o = await get();
      return o && ok(o) ? o : undefined;
    },
    timeoutMs,
  );
}

/** Waits until the object `ref` names is gone. */
export function waitGone(client: Client, ref: ObjectRef, timeoutMs?: number): Promise<true>;
/** Waits until `get` (which may also poke the object) returns undefined. */
export function waitGone(
  what: string,
  get: () => Promise<KubeObject | undefined>,
  timeoutMs?: number,
): Promise<true>;
export function waitGone(
  on: Client | string,
  target: ObjectRef | (() => Promise<KubeObject | undefined>),
  timeoutMs?: number,
): Promise<true> {
  if (typeof on === "string") {
    const get = target as () => Promise<KubeObject | undefined>;
    return waitFor(on, async () => ((await get()) === undefined ? true : undefined), timeoutMs);
  }
  const ref = target as ObjectRef;
  const what = `${ref.kind} ${ref.namespace ?? ""}/${ref.name} gone`;
  return waitGone(what, () => getOrGone(on, ref), timeoutMs);
}

/** Removes every metadata finalizer of the object (as whoever set them would). */
export async function dropFinalizers(client: Client, ref: ObjectRef): Promise<void> {
  await client.patch(ref, { metadata: { finalizers: null } }, { type: "merge" });
}

/** `reason: message` of every Event about the object named `name` in `namespace`. */
export async function eventsAbout(
  client: Client,
  namespace: string,
  name: string,
): Promise<string[]> {
  const list = await client.list(EVENT, {
    namespace,
    fieldSelector: `involvedObject.name=${name}`,
  });
  return list.items.map((e) => `${e.reason}: ${e.message}`);
}

/** Waits until an Event about `name` matches `pattern`; returns every Event seen. */
export function waitEvent(
  client: Client,
  namespace: string,
  name: string,
  pattern: RegExp,
): Promise<string[]> {
  return waitFor(`an event about ${name} matching ${pattern}`, async () => {
    const events = await eventsAbout(client, namespace, name);
    return events.some((e) => pattern.test(e)) ? events : undefined;
  });
}

/** A namespaced CRD `<plural>.<group>` (kind `kind`, version v1) served once this returns. */
export async function createCrd(
  client: Client,
  group: string,
  kind: string,
  plural: string,
): Promise<{ apiVersion: string; kind: string }> {
  await client.create(openCrd(group, kind, plural));
  const type = { apiVersion: `${group}/v1`, kind };
  await waitFor(`${plural}.${group} served`, () => client.list(type).then(() => true));
  return type;
}
