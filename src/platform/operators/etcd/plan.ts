/**
 * The next membership step of a cluster, decided from what is observed and
 * nothing else (so every pass of the reconciler decides afresh and a crash
 * between steps only repeats the step): create members to bootstrap 1 or 3 at
 * once, then change one member at a time — a new member joins as a learner and
 * is promoted when it has caught up; the newest member goes first on scale
 * down; nothing is added or removed while a member is unhealthy, joining,
 * promoting or leaving; an etcd member without an EtcdMember is removed
 * first. `replicas: 0` keeps one dormant member (no pod). A bootstrap a crash
 * cut short (some members told to start, others not yet) is finished first.
 */

export interface ObservedMember {
  name: string;
  /** creationTimestamp then name order is the age order. */
  created: string;
  deleting: boolean;
  /** The cluster has not told it how to start yet (no initialCluster). */
  pending: boolean;
  /** Its pod is Ready. */
  ready: boolean;
  /** The members it was told to bootstrap a new cluster with (initialClusterState new), in order. */
  bootstrap?: string[];
  /** Its entry in etcd's member list, when it has one. */
  etcd?: { id: string; learner: boolean; healthy: boolean };
}

export type Step =
  | { kind: "create"; count: number }
  | { kind: "bootstrap"; members: string[] }
  | { kind: "add"; member: string }
  | { kind: "promote"; member: string; id: string }
  | { kind: "remove"; member: string }
  | { kind: "removeStray"; name: string; id: string }
  | { kind: "wait"; reason: string }
  | { kind: "steady" };

const byAge = (a: ObservedMember, b: ObservedMember) =>
  a.created < b.created ? -1 : a.created > b.created ? 1 : a.name < b.name ? -1 : 1;

/** An entry of etcd's member list that no EtcdMember stands for (its EtcdMember went without leaving). */
export interface Stray {
  name: string;
  id: string;
}

/** The member names of an `--initial-cluster` value (`name=peerURL,…`), in order. */
export function initialNames(initialCluster: string): string[] {
  return initialCluster.split(",").map((e) => e.slice(0, e.indexOf("=")));
}

/**
 * The rest of a bootstrap a crash cut short: a started member was told to
 * start a new cluster with members that are still pending (and have no quorum
 * without them), so they are told the same. Only when every member it names
 * is still there and none is leaving.
 */
export function resumeBootstrap(observed: ObservedMember[]): Step | undefined {
  for (const m of observed) {
    const peers = m.bootstrap;
    if (m.pending || !peers) continue;
    const named = observed.filter((o) => peers.includes(o.name));
    if (named.length !== peers.length || named.some((o) => o.deleting)) continue;
    if (named.some((o) => o.pending)) return { kind: "bootstrap", members: peers };
  }
  return undefined;
}

export function nextStep(replicas: number, observed: ObservedMember[], strays: Stray[] = []): Step {
  const resumed = resumeBootstrap(observed);
  if (resumed) return resumed;
  const leaving = observed.find((m) => m.deleting);
  if (leaving) return { kind: "wait", reason: `member ${leaving.name} is leaving` };
  const live = [...observed].sort(byAge);
  const target = Math.max(replicas, 1);
  const started = live.filter((m) => !m.pending);
  const newest = live[live.length - 1];
  if (started.length === 0) {
    if (live.length < target) return { kind: "create", count: target - live.length };
    if (live.length > target) return { kind: "remove", member: newest!.name };
    return { kind: "bootstrap", members: live.map((m) => m.name) };
  }
  const joining = live.find((m) => m.pending);
  if (joining) return { kind: "add", member: joining.name };
  const learner = live.find((m) => m.etcd?.learner);
  if (learner) return { kind: "promote", member: learner.name, id: learner.etcd!.id };
  if (replicas === 0 && live.length === 1) return { kind: "steady" };
  const unwell = live.find((m) => !m.ready || !m.etcd?.healthy);
  if (unwell) return { kind: "wait", reason: `member ${unwell.name} is not healthy` };
  const stray = strays[0];
  if (stray) return { kind: "removeStray", ...stray };
  if (live.length < target) return { kind: "create", count: 1 };
  if (live.length > target) return { kind: "remove", member: newest!.name };
  return { kind: "steady" };
}
