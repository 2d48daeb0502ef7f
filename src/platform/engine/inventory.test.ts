/**
 * The inventory arithmetic the engine's write-ahead and prune rely on: union
 * keeps order and drops duplicates, subtract and same compare by apiVersion,
 * kind, namespace and name, and namespaces are deleted in a wave of their own,
 * after everything else.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  describeEntry,
  entryKey,
  entryOf,
  sameEntries,
  subtractEntries,
  unionEntries,
} from "./inventory.js";
import type { InventoryEntry } from "./module.js";

const cm = (name: string, namespace = "ns1"): InventoryEntry => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name,
  namespace,
});
const ns = (name: string): InventoryEntry => ({ apiVersion: "v1", kind: "Namespace", name });
const secret = (name: string): InventoryEntry => ({
  apiVersion: "v1",
  kind: "Secret",
  name,
  namespace: "ns1",
});

describe("inventory entries", () => {
  it("are taken from an object, without a namespace for cluster-scoped ones", () => {
    assert.deepEqual(
      entryOf({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "ns1" } }),
      cm("a"),
    );
    const cluster = entryOf({ apiVersion: "v1", kind: "Namespace", metadata: { name: "t" } });
    assert.deepEqual(cluster, ns("t"));
    assert.equal("namespace" in cluster, false);
  });

  it("differ by apiVersion, kind, namespace and name", () => {
    const keys = new Set(
      [
        cm("a"),
        cm("a", "ns2"),
        cm("b"),
        secret("a"),
        { ...cm("a"), apiVersion: "example.com/v1" },
      ].map(entryKey),
    );
    assert.equal(keys.size, 5);
  });

  it("are described as a person reads them", () => {
    assert.equal(describeEntry(cm("a")), "ConfigMap ns1/a");
    assert.equal(describeEntry(ns("t")), "Namespace t");
  });
});

describe("unionEntries", () => {
  it("keeps the first list's order, adds only what is new", () => {
    assert.deepEqual(unionEntries([cm("a"), cm("b")], [cm("b"), cm("c"), cm("a", "ns2")]), [
      cm("a"),
      cm("b"),
      cm("c"),
      cm("a", "ns2"),
    ]);
  });

  it("of a list with itself or the empty list is the list", () => {
    assert.deepEqual(unionEntries([cm("a")], [cm("a")]), [cm("a")]);
    assert.deepEqual(unionEntries([], [cm("a")]), [cm("a")]);
    assert.deepEqual(unionEntries([cm("a")], []), [cm("a")]);
  });
});

describe("subtractEntries", () => {
  it("keeps what the second list does not hold", () => {
    assert.deepEqual(subtractEntries([cm("a"), cm("b"), secret("a")], [cm("a")]), [
      cm("b"),
      secret("a"),
    ]);
    assert.deepEqual(subtractEntries([cm("a")], [cm("a", "ns2")]), [cm("a")]);
    assert.deepEqual(subtractEntries([cm("a")], [cm("a")]), []);
  });
});

describe("sameEntries", () => {
  it("ignores order but not content or size", () => {
    assert.equal(sameEntries([cm("a"), cm("b")], [cm("b"), cm("a")]), true);
    assert.equal(sameEntries([], []), true);
    assert.equal(sameEntries([cm("a")], [cm("a"), cm("b")]), false);
    assert.equal(sameEntries([cm("a"), cm("b")], [cm("a")]), false);
    assert.equal(sameEntries([cm("a")], [secret("a")]), false);
  });
});
