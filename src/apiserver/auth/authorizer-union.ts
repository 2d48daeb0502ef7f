/**
 * Authorizers in sequence, as kube-apiserver chains them: the first that allows
 * wins; otherwise the reasons are joined. The privileged-group authorizer allows
 * members of `system:masters` everything and has no opinion on anyone else.
 */
import {
  type AuthorizationAttributes,
  type Authorizer,
  type Decision,
  MASTERS_GROUP,
  type RulesResult,
  type UserInfo,
} from "./types.js";

export function privilegedGroups(groups: string[] = [MASTERS_GROUP]): Authorizer {
  return {
    authorize: (attrs) => ({
      allowed: attrs.user.groups.some((g) => groups.includes(g)),
      reason: "",
    }),
  };
}

export function unionAuthorizer(authorizers: Authorizer[]): Authorizer {
  return {
    async authorize(attrs: AuthorizationAttributes): Promise<Decision> {
      const reasons: string[] = [];
      for (const a of authorizers) {
        const d = await a.authorize(attrs);
        if (d.allowed) return d;
        if (d.reason) reasons.push(d.reason);
      }
      return { allowed: false, reason: reasons.join("\n") };
    },
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
