import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Condition } from "../../runtime/index.js";
import type { DataStore } from "./crd.js";
import {
  DELETION_ALLOWED,
  dataStoreStatus,
  nameUsers,
  READY,
  sameStatus,
} from "./datastore-status.js";
import { splitEndpoint } from "./etcd-endpoints.js";

const ds = (
  extra: Partial<DataStore["metadata"]> = {},
  status?: DataStore["status"],
): DataStore => ({
  apiVersion: "kamaji.clastix.io/v1alpha1",
  kind: "DataStore",
  metadata: { name: "etcd", generation: 3, ...extra },
  spec: { driver: "etcd", endpoints: ["etcd:2379"] },
  ...(status ? { status } : {}),
});
const find = (c: Condition[], type: string) => c.find((x) => x.type === type);

describe("dataStoreStatus", () => {
  it("says Ready with the generation it saw, and no deletion condition while not deleted", () => {
    const s = dataStoreStatus(ds(), ["a/x"], { ready: true, message: "ok" });
    assert.equal(s.ready, true);
    assert.equal(s.observedGeneration, 3);
    assert.deepEqual(s.usedBy, ["a/x"]);
    const ready = find(s.conditions, READY)!;
    assert.equal(ready.reason, "Authenticated");
    assert.equal(ready.observedGeneration, 3);
    assert.equal(find(s.conditions, DELETION_ALLOWED), undefined);
  });

  it("carries the failure's reason and message", () => {
    const s = dataStoreStatus(ds(), [], { ready: false, reason: "Unreachable", message: "no" });
    assert.deepEqual(
      [s.ready, find(s.conditions, READY)?.status, find(s.conditions, READY)?.reason],
      [false, "False", "Unreachable"],
    );
  });

  it("while deleted, names the users it waits for, or allows the deletion", () => {
    const deleting = ds({ deletionTimestamp: "2026-01-01T00:00:00Z" });
    const health = { ready: true as const, message: "ok" };
    const one = find(dataStoreStatus(deleting, ["a/x"], health).conditions, DELETION_ALLOWED)!;
    assert.deepEqual(
      [one.status, one.reason, one.message],
      ["False", "InUse", "waiting for 1 TenantControlPlane to be deleted: a/x"],
    );
    const none = find(dataStoreStatus(deleting, [], health).conditions, DELETION_ALLOWED)!;
    assert.deepEqual([none.status, none.reason], ["True", "NotInUse"]);
  });

  it("names at most ten users", () => {
    const users = Array.from({ length: 12 }, (_, i) => `ns/tcp-${i}`);
    assert.match(nameUsers(users), /ns\/tcp-9 and 2 more$/);
  });

  it("is the same status when only transition times differ", () => {
    const first = dataStoreStatus(ds(), [], { ready: true, message: "ok" }, new Date(0));
    const stored = ds({}, first);
    const again = dataStoreStatus(stored, [], { ready: true, message: "ok" }, new Date(60_000));
    assert.equal(sameStatus(stored, again), true);
    const changed = dataStoreStatus(stored, ["a/x"], { ready: true, message: "ok" });
    assert.equal(sameStatus(stored, changed), false);
    assert.equal(sameStatus(ds(), first), false, "no status yet");
  });
});

describe("splitEndpoint", () => {
  it("reads host:port with or without a scheme, IPv6 in brackets", () => {
    assert.deepEqual(splitEndpoint("etcd-client.tenant-a.svc:2379"), {
      host: "etcd-client.tenant-a.svc",
      port: "2379",
    });
    assert.deepEqual(splitEndpoint("https://10.0.0.1:2380"), { host: "10.0.0.1", port: "2380" });
    assert.deepEqual(splitEndpoint("[fd00::1]:2379"), { host: "fd00::1", port: "2379" });
    assert.deepEqual(splitEndpoint("etcd"), { host: "etcd", port: "2379" });
  });
});
