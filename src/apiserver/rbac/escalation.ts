/**
 * RBAC's escalation check, as kube's rbac storage does it: a user may create or
 * update a Role or ClusterRole only with rules they already hold (or the
 * `escalate` verb on it), and may bind a role only if they hold its rules (or
 * the `bind` verb on it). system:masters is exempt; setting a ClusterRole's
 * aggregationRule needs every permission. Runs as an admission plugin.
 */
import { ForbiddenError, NotFoundError } from "../../api/index.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../admission/types.js";
import { type Authorizer, MASTERS_GROUP, type UserInfo } from "../auth/types.js";
import { compactRules, compactString, uncovered } from "./covers.js";
import type { PolicyReader } from "./policy-cache.js";
import { roleReferenceRules, rulesFor } from "./rule-resolver.js";
import { type ClusterRole, type PolicyRule, RBAC_GROUP, type RoleBinding } from "./types.js";

const ROLES = new Set(["roles", "clusterroles"]);
const BINDINGS = new Set(["rolebindings", "clusterrolebindings"]);
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ["*"], apiGroups: ["*"], resources: ["*"] },
  { verbs: ["*"], nonResourceURLs: ["*"] },
];

/** kube's message for rules the user does not hold, or undefined when they hold them all. */
export function escalationError(
  policy: PolicyReader,
  user: UserInfo,
  namespace: string,
  wanted: PolicyRule[],
): string | undefined {
  const { rules, errors } = rulesFor(policy, user, namespace);
  const missing = uncovered(rules, wanted);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(" ")}]`;
  let msg = `user ${JSON.stringify(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${lines.join("\n")}`;
  if (errors.length > 0) msg += `; resolution errors: [${errors.join(" ")}]`;
  return msg;
}

export class EscalationCheck implements AdmissionPlugin {
  readonly name = "RBACEscalation";

  constructor(
    private readonly policy: PolicyReader,
    private readonly authorizer: Authorizer,
  ) {}

  async validate(a: AdmissionAttributes): Promise<string[]> {
    const t = a.type;
    if (t.group !== RBAC_GROUP || (a.operation !== "CREATE" && a.operation !== "UPDATE")) return [];
    if (!a.object || a.user.groups.includes(MASTERS_GROUP)) return [];
    const ref = { group: RBAC_GROUP, resource: t.plural, name: a.name };
    if (ROLES.has(t.plural)) {
      if (await this.allowed(a.user, "escalate", t.plural, a.namespace, a.name)) return [];
      const role = a.object as ClusterRole;
      const why = escalationError(this.policy, a.user, a.namespace, role.rules ?? []);
      if (why) throw new ForbiddenError(ref, why);
      if (role.aggregationRule && escalationError(this.policy, a.user, a.namespace, FULL_AUTHORITY))
        throw new ForbiddenError(
          ref,
          "must have cluster-admin privileges to use the aggregationRule",
        );
    } else if (BINDINGS.has(t.plural)) {
      const roleRef = (a.object as RoleBinding).roleRef;
      const plural = roleRef.kind === "Role" ? "roles" : "clusterroles";
      if (await this.allowed(a.user, "bind", plural, a.namespace, roleRef.name)) return [];
      const rules = roleReferenceRules(this.policy, roleRef, a.namespace);
      if (typeof rules === "string")
        throw new NotFoundError({ group: RBAC_GROUP, resource: plural, name: roleRef.name });
      const why = escalationError(this.policy, a.user, a.namespace, rules);
      if (why) throw new ForbiddenError(ref, why);
    }
    return [];
  }

  private async allowed(
    user: UserInfo,
    verb: string,
    resource: string,
    namespace: string,
    name: string,
  ): Promise<boolean> {
    const d = await this.authorizer.authorize({
      user,
      verb,
      isResourceRequest: true,
      path: "",
      apiGroup: RBAC_GROUP,
      apiVersion: "v1",
      resource,
      subresource: "",
      namespace,
      name,
    });
    return d.allowed;
  }
}
