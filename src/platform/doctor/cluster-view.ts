/**
 * What the doctor knows about the rest of the cluster while it judges one
 * object: its dependents (objects whose ownerReferences name its uid), the
 * objects inside a namespace, the pods that mount a claim, and the newest
 * Warning Event about an object. Built once from everything listed.
 */
import type { KubeObject } from "../../api/index.js";

export interface ClusterView {
  dependents(uid: string): KubeObject[];
  inNamespace(namespace: string): KubeObject[];
  podsUsingClaim(namespace: string, claim: string): string[];
  /** `Reason: message` of the newest Warning Event whose involvedObject is `obj`. */
  newestWarning(obj: KubeObject): string | undefined;
}

interface EventShape {
  type?: string;
  reason?: string;
  message?: string;
  note?: string;
  involvedObject?: { uid?: string; kind?: string; name?: string; namespace?: string };
  regarding?: { uid?: string; kind?: string; name?: string; namespace?: string };
  lastTimestamp?: string;
  eventTime?: string;
  series?: { lastObservedTime?: string };
}

const isEvent = (o: KubeObject) =>
  o.kind === "Event" && (o.apiVersion === "v1" || o.apiVersion === "events.k8s.io/v1");

function eventTime(e: EventShape & KubeObject): string {
  return (
    e.series?.lastObservedTime ??
    e.lastTimestamp ??
    e.eventTime ??
    e.metadata.creationTimestamp ??
    ""
  );
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A view over `objects` (every object the doctor listed, events included). */
export function clusterView(objects: readonly KubeObject[]): ClusterView {
  const byOwner = new Map<string, KubeObject[]>();
  const byNamespace = new Map<string, KubeObject[]>();
  const claimUsers = new Map<string, string[]>();
  const warnings = new Map<string, (EventShape & KubeObject)[]>();
  for (const o of objects) {
    if (isEvent(o)) {
      const e = o as EventShape & KubeObject;
      const about = e.involvedObject ?? e.regarding;
      if (e.type === "Warning" && about) {
        push(warnings, about.uid || `${about.kind}/${about.namespace ?? ""}/${about.name}`, e);
      }
      continue;
    }
    for (const ref of o.metadata.ownerReferences ?? []) push(byOwner, ref.uid, o);
    if (o.metadata.namespace) push(byNamespace, o.metadata.namespace, o);
    if (o.kind === "Pod" && o.apiVersion === "v1") {
      const volumes = (o.spec as { volumes?: { persistentVolumeClaim?: { claimName?: string } }[] })
        ?.volumes;
      for (const v of volumes ?? []) {
        const claim = v.persistentVolumeClaim?.claimName;
        if (claim) push(claimUsers, `${o.metadata.namespace}/${claim}`, o.metadata.name ?? "");
      }
    }
  }
  return {
    dependents: (uid) => byOwner.get(uid) ?? [],
    // Events are left out: they never hold a namespace's deletion.
    inNamespace: (ns) => byNamespace.get(ns) ?? [],
    podsUsingClaim: (ns, claim) => claimUsers.get(`${ns}/${claim}`) ?? [],
    newestWarning(obj) {
      const m = obj.metadata;
      const found = [
        ...(warnings.get(m.uid ?? "") ?? []),
        ...(warnings.get(`${obj.kind}/${m.namespace ?? ""}/${m.name}`) ?? []),
      ];
      found.sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
      const e = found[0];
      return e ? `${e.reason ?? ""}: ${e.message ?? e.note ?? ""}` : undefined;
    },
  };
}
