/** The RBAC authorizer over a fixed policy: bindings, subjects, reasons, errors and rule listing. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  binding,
  clusterRole,
  group,
  role,
  staticPolicy,
  user,
} from "../../../test/support/fixtures/rbac.js";
import type { AuthorizationAttributes, UserInfo } from "../auth/types.js";
import { RBACAuthorizer } from "./rbac-authorizer.js";
import { appliesToUser } from "./rule-resolver.js";

const read = { verbs: ["get", "list", "watch"], apiGroups: [""], resources: ["configmaps"] };
const policy = staticPolicy({
  clusterRoles: [
    clusterRole("reader", [read]),
    clusterRole("discovery", [{ verbs: ["get"], nonResourceURLs: ["/api", "/api/*"] }]),
  ],
  roles: [role("team", "writer", [{ ...read, verbs: ["create", "delete"] }])],
  clusterRoleBindings: [
    binding("discovery", { kind: "ClusterRole", name: "discovery" }, [
      group("system:authenticated"),
    ]),
    binding("ops-read", { kind: "ClusterRole", name: "reader" }, [group("ops")]),
  ],
  roleBindings: [
    binding("bob-read", { kind: "ClusterRole", name: "reader" }, [user("bob")], "team"),
    binding("bob-write", { kind: "Role", name: "writer" }, [user("bob")], "team"),
    binding(
      "robot",
      { kind: "ClusterRole", name: "reader" },
      [{ kind: "ServiceAccount", name: "robot" }],
      "team",
    ),
    binding("dangling", { kind: "Role", name: "gone" }, [user("carol")], "team"),
  ],
});
const rbac = new RBACAuthorizer(policy);

const who = (username: string, groups: string[] = []): UserInfo => ({ username, groups });

function attrs(
  u: UserInfo,
  verb: string,
  namespace: string,
  resource = "configmaps",
): AuthorizationAttributes {
  return {
    user: u,
    verb,
    isResourceRequest: true,
    path: "",
    apiGroup: "",
    apiVersion: "v1",
    resource,
    subresource: "",
    namespace,
    name: "",
  };
}

describe("RBACAuthorizer.authorize", () => {
  it("allows through a RoleBinding of a ClusterRole, only in that namespace", () => {
    assert.deepEqual(rbac.authorize(attrs(who("bob"), "list", "team")), {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "bob-read/team" of ClusterRole "reader" to User "bob"',
    });
    assert.deepEqual(rbac.authorize(attrs(who("bob"), "list", "default")), {
      allowed: false,
      reason: "",
    });
    assert.equal(rbac.authorize(attrs(who("bob"), "list", "")).allowed, false);
  });

  it("allows through a RoleBinding of a Role in the binding's namespace", () => {
    const d = rbac.authorize(attrs(who("bob"), "delete", "team"));
    assert.equal(
      d.reason,
      'RBAC: allowed by RoleBinding "bob-write/team" of Role "writer" to User "bob"',
    );
    assert.equal(rbac.authorize(attrs(who("bob"), "patch", "team")).allowed, false);
  });

  it("allows groups through ClusterRoleBindings everywhere, cluster scope included", () => {
    for (const ns of ["team", "default", ""]) {
      const d = rbac.authorize(attrs(who("dave", ["ops"]), "watch", ns));
      assert.equal(
        d.reason,
        'RBAC: allowed by ClusterRoleBinding "ops-read" of ClusterRole "reader" to Group "ops"',
      );
    }
  });

  it("defaults a ServiceAccount subject's namespace to the binding's", () => {
    const sa = who("system:serviceaccount:team:robot");
    assert.equal(
      rbac.authorize(attrs(sa, "get", "team")).reason,
      'RBAC: allowed by RoleBinding "robot/team" of ClusterRole "reader" to ServiceAccount "robot/team"',
    );
    assert.equal(
      rbac.authorize(attrs(who("system:serviceaccount:other:robot"), "get", "team")).allowed,
      false,
    );
    assert.ok(!appliesToUser(sa, { kind: "ServiceAccount", name: "robot" }, ""));
    assert.ok(appliesToUser(sa, { kind: "ServiceAccount", name: "robot", namespace: "team" }, ""));
  });

  it("names missing roles in the reason of a refusal", () => {
    assert.deepEqual(rbac.authorize(attrs(who("carol"), "get", "team")), {
      allowed: false,
      reason: 'RBAC: role.rbac.authorization.k8s.io "gone" not found',
    });
  });

  it("authorizes non-resource URLs through ClusterRoleBindings", () => {
    const a = {
      ...attrs(who("eve", ["system:authenticated"]), "get", ""),
      isResourceRequest: false,
      path: "/api/v1",
    };
    assert.equal(rbac.authorize(a).allowed, true);
    assert.equal(rbac.authorize({ ...a, path: "/apis" }).allowed, false);
  });
});

describe("RBACAuthorizer.rulesFor", () => {
  it("lists cluster-wide then namespace rules, split into resource and non-resource rules", () => {
    const r = rbac.rulesFor(who("bob", ["system:authenticated"]), "team");
    assert.deepEqual(r.nonResourceRules, [{ verbs: ["get"], nonResourceURLs: ["/api", "/api/*"] }]);
    assert.deepEqual(
      r.resourceRules.map((x) => x.verbs.join(",")),
      ["get,list,watch", "create,delete"],
    );
    assert.equal(r.incomplete, false);
    assert.equal(r.evaluationError, undefined);
  });

  it("reports unresolvable roles as the evaluation error", () => {
    const r = rbac.rulesFor(who("carol"), "team");
    assert.deepEqual(r.resourceRules, []);
    assert.equal(r.evaluationError, 'role.rbac.authorization.k8s.io "gone" not found');
  });
});
