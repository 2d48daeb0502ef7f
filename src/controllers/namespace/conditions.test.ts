/** Namespace deletion conditions: kube's wording, and transition times that move only on change. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deletionConditions, mergeConditions, sameConditions } from "./conditions.js";
import { countRemaining, emptyRemaining, groupResource } from "./content.js";

describe("namespace deletion conditions", () => {
  it("name the resources and finalizers that remain, with counts", () => {
    const r = emptyRemaining();
    const held = (name: string, finalizers: string[]) => ({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, finalizers },
    });
    countRemaining(r, groupResource("", "configmaps"), [
      held("a", ["example.com/x"]),
      held("b", ["example.com/x", "example.com/y"]),
    ]);
    countRemaining(r, groupResource("stable.example.com", "crontabs"), [held("c", [])]);
    const byType = Object.fromEntries(deletionConditions({ remaining: r }).map((c) => [c.type, c]));
    assert.equal(byType.NamespaceContentRemaining!.status, "True");
    assert.equal(
      byType.NamespaceContentRemaining!.message,
      "Some resources are remaining: configmaps has 2 resource instances, crontabs.stable.example.com has 1 resource instances",
    );
    assert.equal(
      byType.NamespaceFinalizersRemaining!.message,
      "Some content in the namespace has finalizers remaining: example.com/x in 2 resource instances, example.com/y in 1 resource instances",
    );
    assert.equal(byType.NamespaceDeletionContentFailure!.status, "False");
    assert.equal(Object.keys(byType).length, 5);
  });

  it("say all is removed when nothing remains", () => {
    const byType = Object.fromEntries(
      deletionConditions({ remaining: emptyRemaining() }).map((c) => [c.type, c]),
    );
    assert.equal(byType.NamespaceContentRemaining!.reason, "ContentRemoved");
    assert.equal(byType.NamespaceFinalizersRemaining!.reason, "ContentHasNoFinalizers");
  });

  it("keep lastTransitionTime while a condition's status holds", () => {
    const first = mergeConditions([], deletionConditions({ remaining: emptyRemaining() }), "T1");
    const again = mergeConditions(
      first,
      deletionConditions({ remaining: emptyRemaining(), contentError: "boom" }),
      "T2",
    );
    const byType = Object.fromEntries(again.map((c) => [c.type, c]));
    assert.equal(byType.NamespaceContentRemaining!.lastTransitionTime, "T1");
    assert.equal(byType.NamespaceDeletionContentFailure!.lastTransitionTime, "T2");
    assert.ok(
      sameConditions(
        first,
        mergeConditions(first, deletionConditions({ remaining: emptyRemaining() }), "T3"),
      ),
    );
    assert.ok(!sameConditions(first, again));
  });
});
