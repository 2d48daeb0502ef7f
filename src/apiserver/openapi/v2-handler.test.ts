import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { negotiateSwagger } from "./v2-handler.js";

const PB = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

describe("negotiateSwagger (kube-openapi's cases)", () => {
  const cases: [string | undefined, "json" | "protobuf" | undefined][] = [
    [undefined, "json"],
    ["", "json"],
    ["*/*", "json"],
    ["application/*", "json"],
    ["application/json", "json"],
    ["test/test", undefined],
    ["application/test", undefined],
    ["application/test, */*", "json"],
    ["application/test, application/json", "json"],
    [PB, "protobuf"],
    ["application/com.github.proto-openapi.spec.v2.v1.0+protobuf", "protobuf"],
    [`application/json, ${PB}`, "json"],
    [`${PB}, application/json`, "protobuf"],
    [`${PB}; q=0.5, application/json`, "json"],
    ["application/json; q=0", undefined],
  ];
  for (const [accept, want] of cases) {
    it(`${JSON.stringify(accept)} → ${want ?? "406"}`, () => {
      assert.equal(negotiateSwagger(accept), want);
    });
  }
});
