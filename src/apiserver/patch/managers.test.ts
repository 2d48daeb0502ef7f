/** managedFields tables: identities, decoding errors, kube's entry order and the updater cap. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  managerId,
} from "./managers.js";

const entry = (manager: string, operation: string, time?: string, apiVersion = "v1") => ({
  manager,
  operation,
  apiVersion,
  ...(time ? { time } : {}),
  fieldsType: "FieldsV1",
  fieldsV1: { "f:data": { [`f:${manager}`]: {} } },
});

describe("managerId", () => {
  it("is kube's JSON identifier; appliers ignore the apiVersion", () => {
    assert.equal(
      managerId({ manager: "m", operation: "Update", apiVersion: "v1" }),
      '{"manager":"m","operation":"Update","apiVersion":"v1"}',
    );
    assert.equal(
      managerId({ manager: "m", operation: "Apply", apiVersion: "v1" }),
      '{"manager":"m","operation":"Apply"}',
    );
    assert.equal(
      managerId({ manager: "m", operation: "Update", apiVersion: "v1", subresource: "status" }),
      '{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"status"}',
    );
  });
});

describe("decodeManagedFields", () => {
  it("reads entries, one per identity", () => {
    const managers = decodeManagedFields([
      entry("a", "Update", "2024-01-01T00:00:00Z"),
      entry("a", "Update", undefined, "v2"),
      entry("b", "Apply", undefined, "v1"),
      entry("b", "Apply", undefined, "v2"),
    ]);
    assert.deepEqual(
      [...managers.keys()],
      [
        '{"manager":"a","operation":"Update","apiVersion":"v1"}',
        '{"manager":"a","operation":"Update","apiVersion":"v2"}',
        '{"manager":"b","operation":"Apply"}',
      ],
    );
    assert.equal(managers.get('{"manager":"b","operation":"Apply"}')?.apiVersion, "v2");
  });

  it("refuses entries kube cannot decode", () => {
    assert.throws(
      () => decodeManagedFields([{ ...entry("a", "Update"), operation: "Patch" }]),
      /operation must be/,
    );
    assert.throws(
      () => decodeManagedFields([{ ...entry("a", "Update"), apiVersion: "" }]),
      /apiVersion must not be empty/,
    );
    assert.throws(
      () => decodeManagedFields([{ ...entry("a", "Update"), fieldsType: undefined }]),
      /missing fieldsType/,
    );
    assert.throws(
      () => decodeManagedFields([{ ...entry("a", "Update"), fieldsType: "FieldsV2" }]),
      /invalid fieldsType "FieldsV2"/,
    );
    assert.throws(() => decodeManagedFields({}), /must be a list/);
  });
});

describe("encodeManagedFields", () => {
  it("orders appliers first, then by time, manager and apiVersion", () => {
    const managers = decodeManagedFields([
      entry("z", "Update", "2024-01-01T00:00:01Z"),
      entry("y", "Update", "2024-01-01T00:00:00Z"),
      entry("x", "Update", "2024-01-01T00:00:00Z"),
      entry("w", "Apply", "2024-01-01T00:00:05Z"),
      entry("v", "Apply"),
    ]);
    assert.deepEqual(
      encodeManagedFields(managers).map((e) => e.manager),
      ["v", "w", "x", "y", "z"],
    );
  });

  it("writes the fields in FieldsV1 form", () => {
    const managers = decodeManagedFields([entry("a", "Update", "2024-01-01T00:00:00Z")]);
    assert.deepEqual(encodeManagedFields(managers), [entry("a", "Update", "2024-01-01T00:00:00Z")]);
  });
});

describe("capUpdateManagers", () => {
  it("keeps up to the cap and merges the oldest updaters per apiVersion", () => {
    const managers = decodeManagedFields(
      ["a", "b", "c", "d"].map((m, i) => entry(m, "Update", `2024-01-01T00:00:0${i}Z`)),
    );
    capUpdateManagers(managers, 3);
    assert.deepEqual(
      encodeManagedFields(managers).map((e) => [e.manager, e.fieldsV1]),
      [
        ["ancient-changes", { "f:data": { "f:a": {}, "f:b": {} } }],
        ["c", { "f:data": { "f:c": {} } }],
        ["d", { "f:data": { "f:d": {} } }],
      ],
    );
  });

  it("leaves appliers out of the count", () => {
    const managers = decodeManagedFields([
      entry("a", "Apply"),
      entry("b", "Apply"),
      entry("c", "Update"),
    ]);
    capUpdateManagers(managers, 1);
    assert.equal(managers.size, 3);
  });
});
