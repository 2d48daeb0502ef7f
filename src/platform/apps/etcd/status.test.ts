/** The Etcd app's readiness, read from its EtcdCluster's status. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import { NotFoundError } from "../../../api/index.js";
import type { Client, ObjectRef } from "../../../client/index.js";
import { APPS_API_VERSION, type App } from "../../engine/module.js";
import { etcdStatus } from "./status.js";

const app: App = {
  apiVersion: APPS_API_VERSION,
  kind: "Etcd",
  metadata: { name: "etcd", namespace: "tenant-a" },
};

/** A reader that knows one EtcdCluster (or none); only `get` is used. */
function reader(cluster?: KubeObject): Client {
  const get = async ({ kind, name, namespace }: ObjectRef) => {
    if (cluster && kind === "EtcdCluster" && name === "etcd" && namespace === "tenant-a")
      return cluster;
    throw new NotFoundError({ group: "etcd.hearth.io", resource: "etcdclusters", name });
  };
  return { get } as unknown as Client;
}

const cluster = (generation: number, status: Record<string, unknown>): KubeObject => ({
  apiVersion: "etcd.hearth.io/v1alpha1",
  kind: "EtcdCluster",
  metadata: { name: "etcd", namespace: "tenant-a", generation },
  spec: { replicas: 3 },
  status,
});

const condition = (status: string, reason: string, message: string) => ({
  type: "Ready",
  status,
  reason,
  message,
});

describe("etcdStatus", () => {
  it("is not ready while the EtcdCluster does not exist", async () => {
    const report = await etcdStatus(app, reader());
    assert.deepEqual([report.ready, report.reason], [false, "EtcdClusterMissing"]);
  });

  it("is ready when the operator has seen the current spec and says Ready", async () => {
    const ready = cluster(2, {
      observedGeneration: 2,
      readyMembers: 3,
      conditions: [condition("True", "MembersReady", "3/3 members ready")],
    });
    assert.deepEqual(await etcdStatus(app, reader(ready)), {
      ready: true,
      reason: "EtcdClusterReady",
      message: "etcd: 3/3 members ready",
    });
  });

  it("is not ready on a spec the operator has not seen, even if Ready from before", async () => {
    const stale = cluster(3, {
      observedGeneration: 2,
      readyMembers: 1,
      conditions: [condition("True", "MembersReady", "1/1 members ready")],
    });
    const report = await etcdStatus(app, reader(stale));
    assert.deepEqual([report.ready, report.reason], [false, "EtcdClusterProgressing"]);
    assert.match(report.message, /1\/3 members ready/);
  });

  it("passes on the operator's reason and message when not Ready", async () => {
    const waiting = cluster(1, {
      observedGeneration: 1,
      readyMembers: 2,
      conditions: [condition("False", "MembersNotReady", "adding member etcd-x as a learner")],
    });
    assert.deepEqual(await etcdStatus(app, reader(waiting)), {
      ready: false,
      reason: "MembersNotReady",
      message: "adding member etcd-x as a learner; 2/3 members ready",
    });
  });
});
