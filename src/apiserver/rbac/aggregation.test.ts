/** ClusterRole aggregation: the union rule, and the in-apiserver loop that stores it. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { clusterRole } from "../../../test/support/fixtures/rbac.js";
import { MemoryBackend } from "../../storage/index.js";
import { ObjectStore } from "../store/object-store.js";
import { aggregatedRules, ClusterRoleAggregator, sameRules } from "./aggregation.js";
import { clusterRoleType } from "./kinds.js";
import { PolicyCache } from "./policy-cache.js";
import type { ClusterRole, PolicyRule } from "./types.js";

const rule = (resource: string, verbs = ["get"]): PolicyRule => ({
  verbs,
  apiGroups: [""],
  resources: [resource],
});
const aggregating = (
  name: string,
  selectors: ClusterRole["aggregationRule"],
  labels?: Record<string, string>,
) => ({
  ...clusterRole(name, [], labels),
  aggregationRule: selectors,
});

describe("aggregatedRules", () => {
  it("is undefined without an aggregationRule", () => {
    assert.equal(aggregatedRules(clusterRole("plain", [rule("pods")]), []), undefined);
  });

  it("unions matching roles in name order, without duplicates or itself", () => {
    const agg = aggregating(
      "agg",
      { clusterRoleSelectors: [{ matchLabels: { team: "a" } }] },
      { team: "a" },
    );
    const all = [
      agg,
      clusterRole("zeta", [rule("secrets"), rule("pods")], { team: "a" }),
      clusterRole(
        "alpha",
        [rule("pods"), { verbs: ["get"], apiGroups: [""], resources: ["pods"], resourceNames: [] }],
        {
          team: "a",
        },
      ),
      clusterRole("other", [rule("nodes")], { team: "b" }),
    ];
    assert.deepEqual(aggregatedRules(agg, all), [rule("pods"), rule("secrets")]);
  });

  it("ORs its selectors and understands matchExpressions; no selectors means no rules", () => {
    const agg = aggregating("agg", {
      clusterRoleSelectors: [
        { matchLabels: { x: "1" } },
        { matchExpressions: [{ key: "y", operator: "In", values: ["2", "3"] }] },
      ],
    });
    const all = [
      clusterRole("a", [rule("a")], { x: "1" }),
      clusterRole("b", [rule("b")], { y: "3" }),
      clusterRole("c", [rule("c")], { y: "4" }),
    ];
    assert.deepEqual(aggregatedRules(agg, all), [rule("a"), rule("b")]);
    assert.deepEqual(aggregatedRules(aggregating("none", { clusterRoleSelectors: [] }), all), []);
  });

  it("compares rules semantically (absent and empty lists are the same)", () => {
    assert.ok(
      sameRules(
        [{ verbs: ["get"], resources: ["a"], apiGroups: [] }],
        [{ verbs: ["get"], resources: ["a"] }],
      ),
    );
    assert.ok(!sameRules([rule("a")], [rule("b")]));
  });
});

describe("ClusterRoleAggregator", () => {
  let backend: MemoryBackend;
  let controller: AbortController;
  let cache: PolicyCache;
  let aggregator: ClusterRoleAggregator;
  const store = () => new ObjectStore(backend);

  beforeEach(async () => {
    backend = new MemoryBackend();
    controller = new AbortController();
    cache = new PolicyCache(backend);
    await cache.start(controller.signal);
    aggregator = new ClusterRoleAggregator(cache, store(), clusterRoleType);
    aggregator.start(controller.signal);
  });
  afterEach(async () => {
    await aggregator.idle();
    controller.abort();
    await backend.close();
  });

  async function stored(name: string): Promise<PolicyRule[] | null | undefined> {
    await aggregator.idle();
    return ((await store().get(clusterRoleType, undefined, name)) as ClusterRole).rules;
  }

  it("fills chained aggregated roles (view → edit → admin) and follows changes", async () => {
    const s = store();
    await s.create(
      clusterRoleType,
      aggregating("admin", { clusterRoleSelectors: [{ matchLabels: { "to-admin": "true" } }] }),
    );
    await s.create(
      clusterRoleType,
      aggregating(
        "edit",
        { clusterRoleSelectors: [{ matchLabels: { "to-edit": "true" } }] },
        { "to-admin": "true" },
      ),
    );
    await s.create(
      clusterRoleType,
      aggregating(
        "view",
        { clusterRoleSelectors: [{ matchLabels: { "to-view": "true" } }] },
        { "to-edit": "true" },
      ),
    );
    const reader = await s.create(
      clusterRoleType,
      clusterRole("cm-reader", [rule("configmaps")], { "to-view": "true" }),
    );
    assert.deepEqual(await stored("view"), [rule("configmaps")]);
    assert.deepEqual(await stored("edit"), [rule("configmaps")]);
    assert.deepEqual(await stored("admin"), [rule("configmaps")]);

    await s.create(
      clusterRoleType,
      clusterRole("writer", [rule("configmaps", ["create"])], { "to-edit": "true" }),
    );
    assert.deepEqual(await stored("view"), [rule("configmaps")]);
    assert.deepEqual(await stored("admin"), [rule("configmaps"), rule("configmaps", ["create"])]);

    await s.remove(clusterRoleType, reader, Number(reader.metadata.resourceVersion));
    assert.deepEqual(await stored("view"), []);
    assert.deepEqual(await stored("admin"), [rule("configmaps", ["create"])]);
  });

  it("overwrites rules written by hand on an aggregated role", async () => {
    const s = store();
    await s.create(clusterRoleType, clusterRole("part", [rule("pods")], { agg: "yes" }));
    const created = await s.create(clusterRoleType, {
      ...aggregating("whole", { clusterRoleSelectors: [{ matchLabels: { agg: "yes" } }] }),
      rules: [rule("secrets", ["*"])],
    });
    assert.ok(created);
    assert.deepEqual(await stored("whole"), [rule("pods")]);
  });
});
