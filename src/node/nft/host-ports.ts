/**
 * The hostPorts of a node's pods as the ruleset needs them, in the place of
 * the CNI portmap plugin (which writes iptables chains every Hearth on the
 * machine would share): one DNAT per `hostIP . protocol . hostPort` of a pod
 * bound to this node that has its address and is not finished, to the pod's
 * address and `containerPort`. A pod on the host's network binds its ports
 * itself and gets none. When two pods claim one host port (the scheduler's
 * NodePorts filter keeps that from happening, but a pod bound by name skips
 * it) the older pod keeps it, as the first to bind a port does, and the
 * other is named in `skipped`.
 */
import type { KubeObject } from "../../api/index.js";
import { isLoopback, type L4Proto, l4proto, validIPv4, validPort } from "./validate.js";

export interface PodObject extends KubeObject {
  spec?: {
    hostNetwork?: boolean;
    containers?: {
      ports?: { containerPort?: number; hostPort?: number; hostIP?: string; protocol?: string }[];
    }[];
  };
  status?: { phase?: string; podIP?: string };
}

export interface HostPortRule {
  /** `namespace/name`, for comments: the pod's, validated. */
  pod: string;
  /** The one local address it answers on; undefined: every local address but loopback. */
  hostIP?: string;
  protocol: L4Proto;
  hostPort: number;
  podIP: string;
  containerPort: number;
}

export interface HostPorts {
  rules: HostPortRule[];
  skipped: string[];
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Whether the pod asks for any host port (so its changes can change the rules). */
export function hasHostPorts(pod: PodObject): boolean {
  return (pod.spec?.containers ?? []).some((c) => (c.ports ?? []).some((p) => !!p.hostPort));
}

function older(a: PodObject, b: PodObject): number {
  const at = a.metadata.creationTimestamp ?? "";
  const bt = b.metadata.creationTimestamp ?? "";
  return at < bt ? -1 : at > bt ? 1 : (a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1;
}

export function hostPortRules(pods: readonly PodObject[]): HostPorts {
  const rules: HostPortRule[] = [];
  const skipped: string[] = [];
  const taken = new Map<string, string>();
  const live = pods.filter(
    (p) =>
      hasHostPorts(p) &&
      p.spec?.hostNetwork !== true &&
      p.status?.phase !== "Succeeded" &&
      p.status?.phase !== "Failed",
  );
  for (const pod of [...live].sort(older)) {
    const ns = pod.metadata.namespace ?? "";
    const name = pod.metadata.name ?? "";
    if (!NAME.test(ns) || !NAME.test(name)) {
      skipped.push(`pod ${JSON.stringify(`${ns}/${name}`)}: invalid name`);
      continue;
    }
    const key = `${ns}/${name}`;
    const podIP = pod.status?.podIP;
    if (!validIPv4(podIP)) continue; // no address yet: nothing to send to
    for (const c of pod.spec?.containers ?? [])
      for (const p of c.ports ?? []) {
        if (!p.hostPort) continue;
        const protocol = l4proto(p.protocol);
        const hostIP = p.hostIP && p.hostIP !== "0.0.0.0" ? p.hostIP : undefined;
        if (!protocol || !validPort(p.hostPort) || !validPort(p.containerPort)) {
          skipped.push(`pod ${key}: host port ${JSON.stringify(p)} is invalid`);
          continue;
        }
        if (hostIP !== undefined && (!validIPv4(hostIP) || isLoopback(hostIP))) {
          skipped.push(
            `pod ${key}: hostIP ${JSON.stringify(hostIP)} is no IPv4 address off loopback`,
          );
          continue;
        }
        // A port on every address clashes with one on any address, as a bind would.
        const claims = [`${hostIP ?? "*"} ${protocol} ${p.hostPort}`];
        if (hostIP !== undefined) claims.push(`* ${protocol} ${p.hostPort}`);
        else
          for (const k of taken.keys())
            if (k.endsWith(` ${protocol} ${p.hostPort}`)) claims.push(k);
        const holder = claims.map((k) => taken.get(k)).find((h) => h !== undefined);
        if (holder !== undefined) {
          skipped.push(`pod ${key}: host port ${protocol}/${p.hostPort} is taken by pod ${holder}`);
          continue;
        }
        taken.set(claims[0]!, key);
        rules.push({
          pod: key,
          ...(hostIP ? { hostIP } : {}),
          protocol,
          hostPort: p.hostPort,
          podIP,
          containerPort: p.containerPort,
        });
      }
  }
  return { rules, skipped };
}
