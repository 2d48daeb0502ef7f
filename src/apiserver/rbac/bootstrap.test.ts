/** The bootstrap policy: created once, completed when autoupdate allows, left alone otherwise. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { binding, clusterRole, group } from "../../../test/support/fixtures/rbac.js";
import { MemoryBackend } from "../../storage/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import { ObjectStore } from "../store/object-store.js";
import { ensureBootstrapPolicy, reconcileBinding, reconcileClusterRole } from "./bootstrap.js";
import { BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES } from "./bootstrap-policy.js";
import { clusterRoleBindingType, clusterRoleType } from "./kinds.js";
import type { ClusterRole } from "./types.js";

const AUTOUPDATE = { "rbac.authorization.kubernetes.io/autoupdate": "true" };

describe("ensureBootstrapPolicy", () => {
  it("creates kube's default roles and bindings, and a second run changes nothing", async () => {
    const backend = new MemoryBackend();
    const store = new ObjectStore(backend);
    const registry = new ResourceRegistry(builtinTypes());
    await ensureBootstrapPolicy(store, registry);
    const roles = await store.list(clusterRoleType, {});
    assert.equal(roles.items.length, BOOTSTRAP_CLUSTER_ROLES.length);
    const bindings = await store.list(clusterRoleBindingType, {});
    assert.equal(bindings.items.length, BOOTSTRAP_CLUSTER_ROLE_BINDINGS.length);
    const admin = (await store.get(clusterRoleType, undefined, "cluster-admin")) as ClusterRole;
    assert.deepEqual(admin.rules, [
      { apiGroups: ["*"], resources: ["*"], verbs: ["*"] },
      { nonResourceURLs: ["*"], verbs: ["*"] },
    ]);
    assert.equal(admin.metadata.labels?.["kubernetes.io/bootstrapping"], "rbac-defaults");
    const view = (await store.get(clusterRoleType, undefined, "view")) as ClusterRole;
    assert.deepEqual(view.aggregationRule, {
      clusterRoleSelectors: [
        { matchLabels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" } },
      ],
    });
    assert.equal(view.metadata.labels?.["rbac.authorization.k8s.io/aggregate-to-edit"], "true");

    const revision = await backend.currentRevision();
    await ensureBootstrapPolicy(store, registry);
    assert.equal(await backend.currentRevision(), revision);
    await backend.close();
  });
});

describe("reconcileClusterRole", () => {
  const expected = {
    ...clusterRole("r", [{ verbs: ["get"], apiGroups: [""], resources: ["pods"] }], { a: "1" }),
  };

  it("adds missing rules and labels to an autoupdate role, keeping the administrator's", () => {
    const existing: ClusterRole = {
      ...clusterRole("r", [{ verbs: ["list"], apiGroups: [""], resources: ["nodes"] }], {
        mine: "x",
      }),
    };
    existing.metadata.annotations = AUTOUPDATE;
    const next = reconcileClusterRole(existing, expected);
    assert.deepEqual(next?.rules, [
      { verbs: ["list"], apiGroups: [""], resources: ["nodes"] },
      { verbs: ["get"], apiGroups: [""], resources: ["pods"] },
    ]);
    assert.deepEqual(next?.metadata.labels, { a: "1", mine: "x" });
    assert.equal(reconcileClusterRole(next!, expected), undefined);
  });

  it("leaves roles without autoupdate alone", () => {
    const existing = clusterRole("r", []);
    existing.metadata.annotations = { "rbac.authorization.kubernetes.io/autoupdate": "false" };
    assert.equal(reconcileClusterRole(existing, expected), undefined);
  });

  it("adds selectors, not rules, to aggregated roles", () => {
    const sel = { matchLabels: { "to-view": "true" } };
    const existing: ClusterRole = {
      ...clusterRole("v", [{ verbs: ["get"], apiGroups: [""], resources: ["x"] }]),
      aggregationRule: { clusterRoleSelectors: [] },
    };
    existing.metadata.annotations = AUTOUPDATE;
    const next = reconcileClusterRole(existing, {
      ...clusterRole("v", []),
      aggregationRule: { clusterRoleSelectors: [sel] },
    });
    assert.deepEqual(next?.aggregationRule, { clusterRoleSelectors: [sel] });
    assert.deepEqual(next?.rules, existing.rules);
  });
});

describe("reconcileBinding", () => {
  it("adds missing subjects to an autoupdate binding", () => {
    const existing = binding("b", { kind: "ClusterRole", name: "r" }, [group("mine")]);
    existing.metadata.annotations = AUTOUPDATE;
    const expected = binding("b", { kind: "ClusterRole", name: "r" }, [
      group("system:authenticated"),
    ]);
    assert.deepEqual(reconcileBinding(existing, expected)?.subjects, [
      group("mine"),
      group("system:authenticated"),
    ]);
    assert.equal(reconcileBinding(expected, expected), undefined);
  });
});
