/**
 * kube-scheduler's NodePorts filter: a pod asking for a host port does not go
 * to a node where a pod already holds it. Two ports clash when protocol and
 * port are equal and their host IPs are equal or either is every address
 * (unset or 0.0.0.0), as two binds would. Only the containers' ports count,
 * as in kube (an init container's port is not held once it has run).
 */
import type { ContainerPort, Pod } from "./types.js";

export const REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

type Claim = { ip: string; protocol: string; port: number };

function claims(pod: Pod): Claim[] {
  return (pod.spec?.containers ?? []).flatMap((c) =>
    (c.ports ?? [])
      .filter((p: ContainerPort) => (p.hostPort ?? 0) > 0)
      .map((p: ContainerPort) => ({
        ip: p.hostIP || "0.0.0.0",
        protocol: p.protocol ?? "TCP",
        port: p.hostPort ?? 0,
      })),
  );
}

const clash = (a: Claim, b: Claim) =>
  a.port === b.port &&
  a.protocol === b.protocol &&
  (a.ip === b.ip || a.ip === "0.0.0.0" || b.ip === "0.0.0.0");

/** The NodePorts reason when a pod of `onNode` holds a host port `pod` asks for; undefined if none. */
export function nodePortsRefusal(pod: Pod, onNode: Pod[]): string | undefined {
  const wanted = claims(pod);
  if (wanted.length === 0) return undefined;
  const held = onNode.flatMap(claims);
  return wanted.some((w) => held.some((h) => clash(w, h))) ? REASON_NODE_PORTS : undefined;
}
