/**
 * The quorum guard of a member leaving etcd (MemberRemove): a member that etcd
 * does not list, or the last one, has nothing to remove; otherwise every
 * remaining voter must answer first, since removing a member while another
 * voter is down can leave the cluster without a quorum. Pure, so each case is
 * tested without etcd; the member reconciler only executes it.
 */

/** What the guard reads of etcd's member list. */
export interface GuardMember {
  ID: string;
  name: string;
  isLearner?: boolean;
}

/** The voters that must answer before `me` may be removed; undefined when there is nothing to remove. */
export function votersToCheck<M extends GuardMember>(
  members: readonly M[],
  me: M | undefined,
): M[] | undefined {
  if (!me || members.length === 1) return undefined;
  return members.filter((m) => m.ID !== me.ID && !m.isLearner);
}

/** Why member `name` may not leave yet (some voters did not answer), or undefined. */
export function removeBlocked(name: string, answered: readonly boolean[]): string | undefined {
  const silent = answered.filter((ok) => !ok).length;
  if (silent === 0) return undefined;
  return `cannot remove member ${name} from etcd: ${silent} of the ${answered.length} remaining voters do not answer`;
}
