/**
 * Registering the Node and keeping it alive, as the kubelet does: create the
 * Node (or, when it exists, take it over: labels, annotations, spec and status
 * written again), then renew a Lease named after the node in
 * `kube-node-lease` (created if absent) every `renewIntervalMs`, and refresh
 * the node's status (heartbeat times) less often, or at once when the node no
 * longer says Ready (the node lifecycle controller marked it Unknown while the
 * agent was cut off), as the kubelet posts a changed status at once. Renewal
 * times, the renew interval and the status interval are read from one Clock
 * (the agent's Manager's).
 */

import { hasCode, NODE, type Node, rfc3339 } from "../api/index.js";
import { type Client, getOptional, ignoreNotFound, isNotFound } from "../client/index.js";
import { type Clock, realClock } from "../runtime/index.js";
import { type NodeFacts, nodeObject } from "./node-object.js";

export const LEASE_NAMESPACE = "kube-node-lease";

export interface HeartbeatOptions {
  leaseDurationSeconds: number;
  renewIntervalMs: number;
  /** How often the Node's status (heartbeat times) is refreshed. */
  statusIntervalMs: number;
  onError(msg: string, err: unknown): void;
  /** The time renewals are stamped with and wait on (default: the machine's). */
  clock?: Clock;
}

function microTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}

export async function registerNode(client: Client, facts: NodeFacts): Promise<Node> {
  const now = rfc3339();
  const old = await getOptional<Node>(client, { ...NODE, name: facts.name });
  const desired = nodeObject(facts, now, old);
  if (!old) {
    const created = await client.create(desired);
    return client.updateStatus({ ...created, status: desired.status });
  }
  const merged: Node = {
    ...old,
    metadata: {
      ...old.metadata,
      labels: { ...old.metadata.labels, ...desired.metadata.labels },
      annotations: { ...old.metadata.annotations, ...desired.metadata.annotations },
    },
    spec: { ...old.spec, ...desired.spec },
  };
  const updated = await client.update(merged);
  return client.updateStatus({ ...updated, status: desired.status });
}

async function ensureNamespace(client: Client): Promise<void> {
  try {
    await client.create({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: LEASE_NAMESPACE },
    });
  } catch (e) {
    if (!hasCode(e, 409)) throw e;
  }
}

async function renewLease(
  client: Client,
  node: Node,
  durationSeconds: number,
  nowMs: number,
): Promise<void> {
  const name = node.metadata.name!;
  const spec = {
    holderIdentity: name,
    leaseDurationSeconds: durationSeconds,
    renewTime: microTime(nowMs),
  };
  const lease = { apiVersion: "coordination.k8s.io/v1", kind: "Lease" };
  const ref = { ...lease, name, namespace: LEASE_NAMESPACE };
  if (await ignoreNotFound(client.patch(ref, { spec }, { type: "merge" }))) return;
  await client.create({
    ...lease,
    metadata: {
      name,
      namespace: LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: node.metadata.uid! }],
    },
    spec,
  });
}

/** Renews the lease and refreshes the node's status until `signal` aborts. */
export async function heartbeat(
  client: Client,
  facts: NodeFacts,
  node: Node,
  opts: HeartbeatOptions,
  signal: AbortSignal,
): Promise<void> {
  const clock = opts.clock ?? realClock;
  let lastStatus = clock.now();
  let current = node;
  while (!signal.aborted) {
    try {
      await ensureNamespace(client);
      await renewLease(client, current, opts.leaseDurationSeconds, clock.now());
      const fresh = await client.get<Node>({
        apiVersion: NODE.apiVersion,
        kind: NODE.kind,
        name: facts.name,
      });
      // Due, or someone else (the node lifecycle controller) says the node is not Ready.
      if (clock.now() - lastStatus >= opts.statusIntervalMs || !postedReady(fresh)) {
        const status = nodeObject(facts, rfc3339(clock.now()), fresh).status;
        current = await client.patchStatus<Node>(
          { apiVersion: NODE.apiVersion, kind: NODE.kind, name: facts.name },
          { status },
          { type: "merge" },
        );
        lastStatus = clock.now();
      }
    } catch (e) {
      if (signal.aborted) return;
      if (isNotFound(e) && !(await reRegister(client, facts, opts, (n) => (current = n)))) continue;
      opts.onError("node heartbeat failed", e);
    }
    await clock.sleep(opts.renewIntervalMs, signal);
  }
}

function postedReady(node: Node): boolean {
  return (node.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True");
}

/** The Node was deleted under the agent: register it again, as a kubelet does. */
async function reRegister(
  client: Client,
  facts: NodeFacts,
  opts: HeartbeatOptions,
  set: (n: Node) => void,
): Promise<boolean> {
  try {
    set(await registerNode(client, facts));
    return false;
  } catch (e) {
    opts.onError("node re-registration failed", e);
    return true;
  }
}
