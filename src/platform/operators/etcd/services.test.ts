import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serviceDnsNames } from "./services.js";
import type { EtcdCluster } from "./types.js";

describe("the names a cluster's certificates cover", () => {
  it("are every Service in its kube forms and the headless wildcard", () => {
    const cluster = { metadata: { name: "etcd", namespace: "tenant-a" } } as EtcdCluster;
    assert.deepEqual(serviceDnsNames(cluster, ["etcd-abcde"]), [
      "etcd",
      "etcd.tenant-a",
      "etcd.tenant-a.svc",
      "etcd-client",
      "etcd-client.tenant-a",
      "etcd-client.tenant-a.svc",
      "etcd-abcde",
      "etcd-abcde.tenant-a",
      "etcd-abcde.tenant-a.svc",
      "*.etcd.tenant-a.svc",
    ]);
  });
});
