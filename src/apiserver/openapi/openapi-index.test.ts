/** The /openapi/v3 index and its content hashes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { allResources, configMaps } from "../../../test/support/fixtures/openapi.js";
import { buildOpenApiDocuments, buildOpenApiIndex, documentHash } from "./openapi-index.js";

describe("buildOpenApiIndex", () => {
  it("lists one entry per group-version with a hashed serverRelativeURL", () => {
    const index = buildOpenApiIndex(allResources);
    assert.deepEqual(Object.keys(index.paths), ["api/v1", "apis/stable.example.com/v1"]);
    const url = index.paths["api/v1"]?.serverRelativeURL ?? "";
    assert.match(url, /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
  });

  it("hashes the document that is served", () => {
    const { index, documents } = buildOpenApiDocuments(allResources);
    const doc = documents.get("apis/stable.example.com/v1");
    assert.ok(doc);
    assert.equal(
      index.paths["apis/stable.example.com/v1"]?.serverRelativeURL,
      `/openapi/v3/apis/stable.example.com/v1?hash=${documentHash(doc)}`,
    );
  });

  it("keeps the hash stable and changes it when the document changes", () => {
    const before = buildOpenApiIndex(allResources).paths["api/v1"]?.serverRelativeURL;
    assert.equal(buildOpenApiIndex(allResources).paths["api/v1"]?.serverRelativeURL, before);
    const changed = {
      ...configMaps,
      schema: { ...configMaps.schema, description: "changed" },
    };
    const others = allResources.filter((r) => r !== configMaps);
    const after = buildOpenApiIndex([changed, ...others]).paths["api/v1"]?.serverRelativeURL;
    assert.notEqual(after, before);
    const untouched = buildOpenApiIndex([changed, ...others]).paths["apis/stable.example.com/v1"];
    assert.equal(
      untouched?.serverRelativeURL,
      buildOpenApiIndex(allResources).paths["apis/stable.example.com/v1"]?.serverRelativeURL,
    );
  });

  it("accepts a custom hash function", () => {
    const index = buildOpenApiIndex([configMaps], () => "H");
    assert.deepEqual(index, {
      paths: { "api/v1": { serverRelativeURL: "/openapi/v3/api/v1?hash=H" } },
    });
  });
});
