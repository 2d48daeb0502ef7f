/**
 * The tenant ClusterRoles grant app kinds by name: no level may write an app's
 * `status` (or any subresource, or anything through `*`), since the status
 * holds the inventory the engine deletes by. test/e2e/tenant-isolation.test.ts
 * checks the same through SubjectAccessReviews against a real server.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LEVELS, roleName, tenantClusterRoles } from "./rbac.js";

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

const roles = tenantClusterRoles(["tenants", "etcds", "postgreses"], ["postgreses"]);
const rulesOf = (level: (typeof LEVELS)[number]) =>
  (roles.find((r) => r.metadata.name === roleName(level))?.rules ?? []) as Rule[];
const READ = new Set(["get", "list", "watch"]);

describe("tenant ClusterRoles", () => {
  it("grant no write on an app's status, any subresource, or through a wildcard", () => {
    for (const level of LEVELS)
      for (const rule of rulesOf(level).filter((r) => r.apiGroups.includes("apps.cozystack.io"))) {
        assert.ok(!rule.verbs.includes("*"), `${level}: verbs *`);
        assert.ok(!rule.resources.includes("*"), `${level}: resources *`);
        const writes = rule.verbs.some((v) => !READ.has(v));
        if (writes)
          for (const resource of rule.resources)
            assert.ok(!resource.includes("/"), `${level} may write ${resource}`);
      }
  });

  it("let every level read every app and its status; admins write their apps, super-admins all", () => {
    const may = (level: (typeof LEVELS)[number], verb: string, resource: string) =>
      rulesOf(level).some(
        (r) =>
          r.apiGroups.includes("apps.cozystack.io") &&
          r.resources.includes(resource) &&
          r.verbs.includes(verb),
      );
    for (const level of LEVELS)
      for (const resource of ["tenants", "tenants/status", "etcds", "postgreses/status"])
        assert.ok(may(level, "get", resource), `${level} cannot read ${resource}`);
    assert.equal(may("use", "create", "postgreses"), false);
    assert.equal(may("admin", "create", "postgreses"), true);
    assert.equal(may("admin", "create", "tenants"), false);
    for (const resource of ["tenants", "etcds", "postgreses"])
      for (const verb of ["create", "update", "patch", "delete", "deletecollection"])
        assert.ok(may("super-admin", verb, resource), `super-admin cannot ${verb} ${resource}`);
  });

  it("let every level read disruption budgets, and admins and super-admins evict pods", () => {
    const may = (level: (typeof LEVELS)[number], group: string, resource: string, verb: string) =>
      rulesOf(level).some(
        (r) =>
          r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb),
      );
    for (const level of LEVELS) {
      assert.ok(may(level, "policy", "poddisruptionbudgets", "list"), level);
      assert.equal(may(level, "policy", "poddisruptionbudgets", "create"), false, level);
      assert.equal(
        may(level, "", "pods/eviction", "create"),
        level === "admin" || level === "super-admin",
        level,
      );
    }
  });

  it("let every level read WorkloadMonitors and none write them or their status", () => {
    for (const level of LEVELS) {
      const rules = rulesOf(level).filter((r) => r.apiGroups.includes("cozystack.io"));
      const verbs = new Set(
        rules.filter((r) => r.resources.includes("workloadmonitors")).flatMap((r) => r.verbs),
      );
      assert.deepEqual([...verbs].sort(), ["get", "list", "watch"], level);
      for (const r of rules)
        assert.ok(
          r.verbs.every((v) => READ.has(v)),
          `${level} may ${r.verbs} ${r.resources} in cozystack.io`,
        );
    }
  });
});
