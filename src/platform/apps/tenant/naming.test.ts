/**
 * The tenant tree's names: a namespace spells its ancestry, and a Tenant name
 * is refused when it has a dash, an uppercase letter or a leading digit, or
 * when its namespace would not fit the 63 characters of a namespace name.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ancestry,
  isTenantNamespace,
  MAX_NAMESPACE_LENGTH,
  tenantNameProblem,
  tenantNamespace,
} from "./naming.js";

describe("tenantNamespace", () => {
  it("is tenant-<name> under tenant-root and <parent>-<name> deeper", () => {
    assert.equal(tenantNamespace("tenant-root", "alpha"), "tenant-alpha");
    assert.equal(tenantNamespace("tenant-alpha", "beta"), "tenant-alpha-beta");
    assert.equal(tenantNamespace("tenant-alpha-beta", "gamma"), "tenant-alpha-beta-gamma");
  });

  it("gives the root Tenant tenant-root itself", () => {
    assert.equal(tenantNamespace("tenant-root", "root"), "tenant-root");
  });
});

describe("ancestry", () => {
  it("of tenant-root is tenant-root alone", () => {
    assert.deepEqual(ancestry("tenant-root"), ["tenant-root"]);
  });

  it("starts at tenant-root and ends at the namespace itself", () => {
    assert.deepEqual(ancestry("tenant-a"), ["tenant-root", "tenant-a"]);
    assert.deepEqual(ancestry("tenant-a-b-c"), [
      "tenant-root",
      "tenant-a",
      "tenant-a-b",
      "tenant-a-b-c",
    ]);
  });
});

describe("isTenantNamespace", () => {
  it("knows tenant-root and namespaces labelled with it, nothing else", () => {
    assert.equal(isTenantNamespace("tenant-root", undefined), true);
    assert.equal(isTenantNamespace("tenant-a", { "tenant.cozystack.io/tenant-root": "" }), true);
    assert.equal(isTenantNamespace("tenant-a", {}), false);
    assert.equal(isTenantNamespace("default", undefined), false);
  });
});

describe("tenantNameProblem", () => {
  it("accepts lowercase letters and digits starting with a letter", () => {
    for (const name of ["alpha", "a", "team42", "x1y2"])
      assert.equal(tenantNameProblem("tenant-root", name), undefined, name);
  });

  it("refuses dashes, uppercase and a leading digit, naming the rule", () => {
    for (const name of ["my-team", "Alpha", "alphA", "1team", "", "team_1", "team.a"]) {
      const problem = tenantNameProblem("tenant-root", name);
      assert.ok(problem, `${JSON.stringify(name)} was accepted`);
      assert.match(problem, /must match \^\[a-z\]\[a-z0-9\]\*\$/);
    }
    assert.match(tenantNameProblem("tenant-root", "my-team")!, /no dashes/);
  });

  it("accepts a namespace of exactly 63 characters and refuses 64 under a deep parent", () => {
    const parent = `tenant-${"a".repeat(20)}-${"b".repeat(20)}`;
    const fits = "c".repeat(MAX_NAMESPACE_LENGTH - parent.length - 1);
    assert.equal(tenantNamespace(parent, fits).length, 63);
    assert.equal(tenantNameProblem(parent, fits), undefined);

    const tooLong = `${fits}c`;
    const ns = tenantNamespace(parent, tooLong);
    assert.equal(ns.length, 64);
    const problem = tenantNameProblem(parent, tooLong);
    assert.ok(problem, "a 64-character namespace was accepted");
    assert.ok(problem.includes(`"${ns}"`), problem);
    assert.match(problem, /would be 64 characters long, over the 63-character limit/);
  });

  it("counts the tenant- prefix under tenant-root", () => {
    assert.equal(tenantNameProblem("tenant-root", "a".repeat(56)), undefined);
    assert.match(tenantNameProblem("tenant-root", "a".repeat(57))!, /64 characters/);
  });
});
