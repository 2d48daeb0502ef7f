/**
 * Authorizers in sequence, as kube-apiserver chains them: the first that allows
 * wins; otherwise the reasons are joined. While the authorizers answer
 * synchronously, so does the union. The privileged-group authorizer allows
 * members of `system:masters` everything and has no opinion on anyone else.
 */
import {
  type AuthorizationAttributes,
  type Authorizer,
  type Decision,
  isPromiseLike,
  MASTERS_GROUP,
  type RulesResult,
  type UserInfo,
} from "./types.js";

const ALLOWED: Decision = Object.freeze({ allowed: true, reason: "" });
const NO_OPINION: Decision = Object.freeze({ allowed: false, reason: "" });

export function privilegedGroups(groups: string[] = [MASTERS_GROUP]): Authorizer {
  return {
    authorize(attrs) {
      for (const g of attrs.user.groups) if (groups.includes(g)) return ALLOWED;
      return NO_OPINION;
    },
  };
}

export function unionAuthorizer(authorizers: Authorizer[]): Authorizer {
  /** Asks authorizers `from`, `from + 1`, … in turn; `reasons` are those of the ones before. */
  const decideFrom = (
    attrs: AuthorizationAttributes,
    from: number,
    reasons: string[] | undefined,
  ): Decision | Promise<Decision> => {
    for (let i = from; i < authorizers.length; i++) {
      const d = authorizers[i]!.authorize(attrs);
      if (isPromiseLike(d))
        return Promise.resolve(d).then((d) =>
          d.allowed ? d : decideFrom(attrs, i + 1, withReason(reasons, d.reason)),
        );
      if (d.allowed) return d;
      reasons = withReason(reasons, d.reason);
    }
    return { allowed: false, reason: reasons ? reasons.join("\n") : "" };
  };
  return {
    authorize: (attrs) => decideFrom(attrs, 0, undefined),
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const a of authorizers) {
        if (!a.rulesFor) continue;
        const r = a.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        out.incomplete ||= r.incomplete;
        if (r.evaluationError) errors.push(r.evaluationError);
      }
      if (errors.length > 0) out.evaluationError = errors.join("\n");
      return out;
    },
  };
}

function withReason(reasons: string[] | undefined, reason: string): string[] | undefined {
  if (!reason) return reasons;
  if (reasons === undefined) return [reason];
  reasons.push(reason);
  return reasons;
}
