/** Escalation prevention: covering rules, kube's message, and the escalate/bind exemptions. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  binding,
  clusterRole,
  role,
  staticPolicy,
  user,
} from "../../../test/support/fixtures/rbac.js";
import type { KubeObject } from "../../api/index.js";
import { ForbiddenError, NotFoundError } from "../../api/index.js";
import type { AdmissionAttributes } from "../admission/types.js";
import type { UserInfo } from "../auth/types.js";
import { breakdownRule, compactString, uncovered } from "./covers.js";
import { EscalationCheck } from "./escalation.js";
import { clusterRoleBindingType, clusterRoleType, roleBindingType, roleType } from "./kinds.js";
import { RBACAuthorizer } from "./rbac-authorizer.js";
import type { PolicyRule } from "./types.js";

const r = (
  apiGroups: string[],
  resources: string[],
  verbs: string[],
  extra: Partial<PolicyRule> = {},
): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
  ...extra,
});

describe("uncovered", () => {
  it("breaks rules down to one verb, group, resource and name", () => {
    assert.deepEqual(
      breakdownRule(r(["", "apps"], ["pods"], ["get", "list"], { resourceNames: ["a"] })).length,
      4,
    );
    assert.deepEqual(breakdownRule({ verbs: ["get"], nonResourceURLs: ["/a", "/b"] }).length, 2);
  });

  it("is empty when owner rules cover every piece, with * and */subresource", () => {
    const owner = [
      r([""], ["pods", "*/status"], ["get", "list"]),
      r(["apps"], ["*"], ["*"]),
      { verbs: ["get"], nonResourceURLs: ["/logs/*"] },
    ];
    assert.deepEqual(uncovered(owner, [r([""], ["pods", "pods/status"], ["get"])]), []);
    assert.deepEqual(uncovered(owner, [r(["apps"], ["deployments/scale"], ["patch"])]), []);
    assert.deepEqual(uncovered(owner, [{ verbs: ["get"], nonResourceURLs: ["/logs/x"] }]), []);
  });

  it("returns the pieces not held; names only narrow", () => {
    const owner = [r([""], ["secrets"], ["get"], { resourceNames: ["mine"] })];
    assert.deepEqual(
      uncovered(owner, [r([""], ["secrets"], ["get"], { resourceNames: ["mine"] })]),
      [],
    );
    assert.deepEqual(uncovered(owner, [r([""], ["secrets"], ["get", "list"])]), [
      r([""], ["secrets"], ["get"]),
      r([""], ["secrets"], ["list"]),
    ]);
  });

  it("prints rules as kube's CompactString", () => {
    assert.equal(
      compactString(r(["apps"], ["deployments"], ["get", "list"])),
      '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}',
    );
    assert.equal(
      compactString({ verbs: ["get"], nonResourceURLs: ["/x"] }),
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
    );
  });
});

describe("EscalationCheck", () => {
  const policy = staticPolicy({
    clusterRoles: [
      clusterRole("reader", [r([""], ["configmaps"], ["get", "list"])]),
      clusterRole("cluster-admin", [
        r(["*"], ["*"], ["*"]),
        { verbs: ["*"], nonResourceURLs: ["*"] },
      ]),
      clusterRole("binder", [
        r(["rbac.authorization.k8s.io"], ["clusterroles"], ["bind"], {
          resourceNames: ["cluster-admin"],
        }),
      ]),
    ],
    roles: [
      // Creating roles and bindings, but not `escalate` or `bind` (which `*` would include).
      role("team", "rbac-admin", [
        r(["rbac.authorization.k8s.io"], ["roles", "rolebindings"], ["create", "update"]),
      ]),
    ],
    roleBindings: [
      binding("bob-reader", { kind: "ClusterRole", name: "reader" }, [user("bob")], "team"),
      binding("bob-rbac", { kind: "Role", name: "rbac-admin" }, [user("bob")], "team"),
      binding("carol-binder", { kind: "ClusterRole", name: "binder" }, [user("carol")], "team"),
    ],
  });
  const check = new EscalationCheck(policy, new RBACAuthorizer(policy));
  const bob: UserInfo = { username: "bob", groups: ["system:authenticated"] };

  const attrs = (
    type: AdmissionAttributes["type"],
    object: KubeObject,
    who: UserInfo = bob,
  ): AdmissionAttributes => ({
    operation: "CREATE",
    type,
    subresource: "",
    namespace: object.metadata.namespace ?? "",
    name: object.metadata.name ?? "",
    object,
    oldObject: undefined,
    user: who,
    dryRun: false,
  });

  it("lets a user grant what they hold", async () => {
    assert.deepEqual(
      await check.validate(attrs(roleType, role("team", "r", [r([""], ["configmaps"], ["get"])]))),
      [],
    );
    const b = binding("b", { kind: "ClusterRole", name: "reader" }, [user("dave")], "team");
    assert.deepEqual(await check.validate(attrs(roleBindingType, b)), []);
  });

  it("refuses more, in kube's words", async () => {
    await assert.rejects(
      check.validate(
        attrs(roleType, role("team", "r", [r([""], ["configmaps", "secrets"], ["get", "delete"])])),
      ),
      (e: unknown) =>
        e instanceof ForbiddenError &&
        e.message ===
          'roles.rbac.authorization.k8s.io "r" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
            '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
    const admin = binding(
      "b",
      { kind: "ClusterRole", name: "cluster-admin" },
      [user("bob")],
      "team",
    );
    await assert.rejects(check.validate(attrs(roleBindingType, admin)), ForbiddenError);
    const ghost = binding("b", { kind: "ClusterRole", name: "ghost" }, [user("bob")], "team");
    await assert.rejects(check.validate(attrs(roleBindingType, ghost)), NotFoundError);
  });

  it("exempts the escalate and bind verbs (which `*` includes), and system:masters", async () => {
    const star = staticPolicy({
      roles: [role("team", "all", [r(["rbac.authorization.k8s.io"], ["roles"], ["*"])])],
      roleBindings: [binding("b", { kind: "Role", name: "all" }, [user("bob")], "team")],
    });
    const wide = role("team", "r", [r(["*"], ["*"], ["*"])]);
    const starCheck = new EscalationCheck(star, new RBACAuthorizer(star));
    assert.deepEqual(await starCheck.validate(attrs(roleType, wide)), []);
    const admin = binding(
      "b",
      { kind: "ClusterRole", name: "cluster-admin" },
      [user("dave")],
      "team",
    );
    assert.deepEqual(
      await check.validate(attrs(roleBindingType, admin, { username: "carol", groups: [] })),
      [],
    );
    const masters = { username: "root", groups: ["system:masters"] };
    assert.deepEqual(
      await check.validate(
        attrs(clusterRoleBindingType, { ...admin, metadata: { name: "x" } }, masters),
      ),
      [],
    );
  });

  it("needs every permission for an aggregationRule", async () => {
    const agg = { ...clusterRole("agg", []), aggregationRule: { clusterRoleSelectors: [{}] } };
    await assert.rejects(
      check.validate(attrs(clusterRoleType, agg)),
      /must have cluster-admin privileges to use the aggregationRule/,
    );
  });
});
