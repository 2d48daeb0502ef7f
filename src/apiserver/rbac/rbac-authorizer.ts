/**
 * kube's RBAC authorizer over the policy cache: allowed by the first rule that
 * matches (the reason names the binding, role and subject); otherwise no
 * opinion, with the role-resolution errors as the reason. It also lists a
 * user's rules for SelfSubjectRulesReview.
 */
import type {
  AuthorizationAttributes,
  Authorizer,
  Decision,
  RulesResult,
  UserInfo,
} from "../auth/types.js";
import type { PolicyReader } from "./policy-cache.js";
import { ruleAllows } from "./rule-matching.js";
import { aggregateErrors, rulesFor, visitRulesFor } from "./rule-resolver.js";

export class RBACAuthorizer implements Authorizer {
  constructor(private readonly policy: PolicyReader) {}

  authorize(attrs: AuthorizationAttributes): Decision {
    let reason = "";
    const errors: string[] = [];
    visitRulesFor(this.policy, attrs.user, attrs.namespace, (source, rule, error) => {
      if (rule && source && ruleAllows(attrs, rule)) {
        reason = `RBAC: allowed by ${source()}`;
        return false;
      }
      if (error) errors.push(error);
      return true;
    });
    if (reason) return { allowed: true, reason };
    return { allowed: false, reason: errors.length > 0 ? `RBAC: ${aggregateErrors(errors)}` : "" };
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const { rules, errors } = rulesFor(this.policy, user, namespace);
    const result: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        result.resourceRules.push({
          verbs: r.verbs,
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}),
        });
      }
      if ((r.nonResourceURLs ?? []).length > 0)
        result.nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    if (errors.length > 0) result.evaluationError = aggregateErrors(errors);
    return result;
  }
}
