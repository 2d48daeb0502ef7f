/** The policy cache follows storage: creates, updates and deletes of all four kinds, by namespace. */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { binding, clusterRole, role, user } from "../../../test/support/fixtures/rbac.js";
import { MemoryBackend } from "../../storage/index.js";
import { ObjectStore } from "../store/object-store.js";
import { clusterRoleBindingType, clusterRoleType, roleBindingType, roleType } from "./kinds.js";
import { PolicyCache, type PolicyChange } from "./policy-cache.js";

describe("PolicyCache", () => {
  let backend: MemoryBackend;
  let controller: AbortController;
  let store: ObjectStore;

  beforeEach(() => {
    backend = new MemoryBackend();
    controller = new AbortController();
    store = new ObjectStore(backend);
  });
  afterEach(async () => {
    controller.abort();
    await backend.close();
  });

  it("loads what is stored, then follows every write before it returns", async () => {
    await store.create(clusterRoleType, clusterRole("early", []));
    const cache = new PolicyCache(backend);
    const changes: PolicyChange[] = [];
    cache.onChange((c) => changes.push(c));
    await cache.start(controller.signal);
    assert.ok(cache.getClusterRole("early"));

    await store.create(roleType, role("a", "r", []));
    const rb = await store.create(
      roleBindingType,
      binding("rb", { kind: "Role", name: "r" }, [user("bob")], "a"),
    );
    await store.create(
      roleBindingType,
      binding("rb", { kind: "Role", name: "r" }, [user("eve")], "b"),
    );
    await store.create(
      clusterRoleBindingType,
      binding("crb", { kind: "ClusterRole", name: "early" }, []),
    );
    assert.ok(cache.getRole("a", "r"));
    assert.equal(cache.getRole("b", "r"), undefined);
    assert.deepEqual(
      [...cache.roleBindings("a")].map((b) => b.subjects?.[0]?.name),
      ["bob"],
    );
    assert.deepEqual(
      [...cache.roleBindings("b")].map((b) => b.subjects?.[0]?.name),
      ["eve"],
    );
    assert.deepEqual(
      [...cache.clusterRoleBindings()].map((b) => b.metadata.name),
      ["crb"],
    );
    assert.deepEqual(
      changes.map((c) => `${c.plural}:${c.name}`),
      ["roles:a/r", "rolebindings:a/rb", "rolebindings:b/rb", "clusterrolebindings:crb"],
    );

    await store.update(
      roleBindingType,
      { ...rb, subjects: [user("carol")] },
      Number(rb.metadata.resourceVersion),
    );
    assert.deepEqual(
      [...cache.roleBindings("a")].map((b) => b.subjects?.[0]?.name),
      ["carol"],
    );
    const current = await store.get(roleBindingType, "a", "rb");
    await store.remove(roleBindingType, current, Number(current.metadata.resourceVersion));
    assert.deepEqual([...cache.roleBindings("a")], []);
  });

  it("ignores other kinds, even under similar keys", async () => {
    const cache = new PolicyCache(backend);
    await cache.start(controller.signal);
    await backend.create(
      "/registry/rbac.authorization.k8s.io/other/x",
      JSON.stringify({ metadata: { name: "x" } }),
    );
    await backend.create(
      "/registry/core/configmaps/default/roles",
      JSON.stringify({ metadata: { name: "roles" } }),
    );
    assert.deepEqual([...cache.clusterRoles()], []);
  });
});
