import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { namespaceType } from "./namespace-type.js";
import { finalizerNameErrors, validateNamespace } from "./namespace-validation.js";

const ns = (finalizers?: unknown[]): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name: "n" },
  ...(finalizers ? { spec: { finalizers } } : {}),
});

describe("Namespace finalizer names", () => {
  it("takes standard names and domain-qualified ones", () => {
    for (const f of ["kubernetes", "orphan", "foregroundDeletion", "example.com/hold"])
      assert.deepEqual(finalizerNameErrors(f, "f"), [], f);
  });

  it("refuses other names as kube does", () => {
    const details = finalizerNameErrors("Bad Fin!", "spec.finalizers").map((e) => e.detail);
    assert.equal(details.length, 2);
    assert.match(details[0]!, /^Invalid value: "Bad Fin!": name part must consist of/);
    assert.equal(
      details[1],
      'Invalid value: "Bad Fin!": name is neither a standard finalizer name nor is it fully qualified',
    );
    assert.equal(finalizerNameErrors("hold", "f").length, 1);
    assert.equal(finalizerNameErrors("bad_prefix/x", "f").length, 1);
  });

  it("checks on create at spec.finalizers, on a changed list at spec.finalizers[i]", () => {
    assert.deepEqual(
      validateNamespace(ns(["ok.io/a", "x y"]), undefined).map((e) => e.field),
      ["spec.finalizers", "spec.finalizers"],
    );
    assert.deepEqual(
      validateNamespace(ns(["ok.io/a", "x y"]), ns(["ok.io/a"])).map((e) => e.field),
      ["spec.finalizers[1]", "spec.finalizers[1]"],
    );
    // A list stored before these rules can still be written back unchanged.
    assert.deepEqual(validateNamespace(ns(["x y"]), ns(["x y"])), []);
  });
});

describe("Namespace strategy", () => {
  it("adds kubernetes to every new namespace", () => {
    for (const [given, want] of [
      [undefined, ["kubernetes"]],
      [[], ["kubernetes"]],
      [["example.com/a"], ["example.com/a", "kubernetes"]],
      [
        ["kubernetes", "example.com/a"],
        ["kubernetes", "example.com/a"],
      ],
    ] as const) {
      const o = ns(given ? [...given] : undefined);
      namespaceType.prepareForCreate!(o);
      assert.deepEqual((o.spec as { finalizers: string[] }).finalizers, want);
    }
  });

  it("keeps the stored spec.finalizers on a plain update", () => {
    const o = ns(["Bad Fin!"]);
    namespaceType.prepareForUpdate!(o, ns(["kubernetes"]));
    assert.deepEqual((o.spec as { finalizers: string[] }).finalizers, ["kubernetes"]);
    const emptied = ns([]);
    namespaceType.prepareForUpdate!(emptied, ns(["kubernetes"]));
    assert.deepEqual((emptied.spec as { finalizers: string[] }).finalizers, ["kubernetes"]);
  });
});
