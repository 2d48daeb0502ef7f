/**
 * Which rules apply to a user in a namespace (kube's DefaultRuleResolver): the
 * rules of every ClusterRoleBinding naming the user, then, in a namespace, of
 * every RoleBinding there. A binding whose role is missing yields an error but
 * no rules; rules are additive, so what was found still counts.
 */
import type { UserInfo } from "../auth/types.js";
import type { PolicyReader } from "./policy-cache.js";
import type { PolicyRule, RoleBinding, RoleRef, Subject } from "./types.js";

/** Gets each rule with a lazy description of where it came from; return false to stop. */
export type RuleVisitor = (
  source: (() => string) | undefined,
  rule: PolicyRule | undefined,
  error: string | undefined,
) => boolean;

const SA_PREFIX = "system:serviceaccount:";

/** kube's `appliesToUser`: ServiceAccount subjects default to the binding's namespace. */
export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case "User":
      return user.username === subject.name;
    case "Group":
      return user.groups.includes(subject.name);
    case "ServiceAccount": {
      const ns = subject.namespace || namespace;
      return ns !== "" && user.username === `${SA_PREFIX}${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === "ServiceAccount")
    return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}

function describeBinding(b: RoleBinding, s: Subject, namespace: string): string {
  const name = namespace ? `${b.metadata.name}/${namespace}` : (b.metadata.name ?? "");
  const kind = namespace ? "RoleBinding" : "ClusterRoleBinding";
  return `${kind} ${JSON.stringify(name)} of ${b.roleRef.kind} ${JSON.stringify(b.roleRef.name)} to ${describeSubject(s, namespace)}`;
}

/** The rules a role reference points to, or kube's NotFound wording. */
export function roleReferenceRules(
  policy: PolicyReader,
  ref: RoleRef,
  namespace: string,
): PolicyRule[] | string {
  switch (ref.kind) {
    case "Role": {
      const role = policy.getRole(namespace, ref.name);
      return role ? (role.rules ?? []) : `role.rbac.authorization.k8s.io "${ref.name}" not found`;
    }
    case "ClusterRole": {
      const role = policy.getClusterRole(ref.name);
      return role
        ? (role.rules ?? [])
        : `clusterrole.rbac.authorization.k8s.io "${ref.name}" not found`;
    }
    default:
      return `unsupported role reference kind: "${ref.kind}"`;
  }
}

function visitBindings(
  policy: PolicyReader,
  user: UserInfo,
  bindings: Iterable<RoleBinding>,
  namespace: string,
  visit: RuleVisitor,
): boolean {
  for (const binding of bindings) {
    const subject = (binding.subjects ?? []).find((s) => appliesToUser(user, s, namespace));
    if (!subject) continue;
    const rules = roleReferenceRules(policy, binding.roleRef, namespace);
    if (typeof rules === "string") {
      if (!visit(undefined, undefined, rules)) return false;
      continue;
    }
    const source = () => describeBinding(binding, subject, namespace);
    for (const rule of rules) if (!visit(source, rule, undefined)) return false;
  }
  return true;
}

export function visitRulesFor(
  policy: PolicyReader,
  user: UserInfo,
  namespace: string,
  visit: RuleVisitor,
): void {
  if (!visitBindings(policy, user, policy.clusterRoleBindings(), "", visit)) return;
  if (namespace !== "")
    visitBindings(policy, user, policy.roleBindings(namespace), namespace, visit);
}

/** Every applicable rule and every resolution error. */
export function rulesFor(
  policy: PolicyReader,
  user: UserInfo,
  namespace: string,
): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  visitRulesFor(policy, user, namespace, (_source, rule, error) => {
    if (rule) rules.push(rule);
    if (error) errors.push(error);
    return true;
  });
  return { rules, errors };
}

/** apimachinery's aggregate error text: one message alone, several as `[a, b]`. */
export function aggregateErrors(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(", ")}]`;
}
