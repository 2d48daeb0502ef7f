import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OpenApiDocuments } from "./openapi-documents.js";
import { builtinTypes } from "./resources/builtin.js";
import { ResourceRegistry } from "./resources/registry.js";
import { ServedKinds } from "./served-kinds.js";

describe("ServedKinds", () => {
  const registry = new ResourceRegistry(builtinTypes());
  const served = new ServedKinds(registry, new OpenApiDocuments(registry));
  const configMap = { group: "", version: "v1", kind: "ConfigMap", plural: "configmaps" };
  const lease = { group: "coordination.k8s.io", version: "v1", kind: "Lease", plural: "leases" };

  it("passes kinds that are in discovery and both OpenAPI documents", () => {
    assert.equal(served.missing([configMap, lease]), undefined);
    // Cached per document body: asking again reads the same answer.
    assert.equal(served.missing([configMap, lease]), undefined);
  });

  it("names the first kind not served and where it is missing", () => {
    const widget = { group: "rules.example.com", version: "v1", kind: "Widget", plural: "widgets" };
    assert.equal(
      served.missing([configMap, widget]),
      "Widget (rules.example.com/v1) is not in discovery (/apis/rules.example.com/v1) yet",
    );
    assert.equal(
      served.missing([{ ...configMap, plural: "configmapz" }]),
      "ConfigMap (v1) is not in discovery (/api/v1) yet",
    );
  });
});
