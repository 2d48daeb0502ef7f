/**
 * The member finalizer never sticks: a member that cannot leave etcd is kept
 * while the deadline runs and released with a Warning after it; a member of a
 * cluster that is being deleted, or gone, is released at once. The client is an
 * in-memory stand-in holding the objects the reconciler reads (no Secrets, so
 * leaving etcd fails before any etcd call).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import { NotFoundError } from "../../../api/index.js";
import type { Client, EventRecorder, ObjectRef } from "../../../client/index.js";
import { DONE } from "../../../runtime/index.js";
import { MemberReconciler } from "./member-reconciler.js";
import { ETCD_API_VERSION, type EtcdCluster, type EtcdMember, MEMBER_FINALIZER } from "./types.js";

const NS = "tenant-a";
const ref = (name: string) => ({ name });

function cluster(deleting: boolean): EtcdCluster {
  return {
    apiVersion: ETCD_API_VERSION,
    kind: "EtcdCluster",
    metadata: {
      name: "etcd",
      namespace: NS,
      ...(deleting ? { deletionTimestamp: new Date().toISOString() } : {}),
    },
    spec: {
      replicas: 1,
      storage: { size: "1Gi" },
      tls: {
        client: {
          caSecretRef: ref("etcd-ca-tls"),
          serverSecretRef: ref("etcd-server-tls"),
          clientSecretRef: ref("etcd-client-tls"),
        },
        peer: { caSecretRef: ref("etcd-peer-ca-tls"), secretRef: ref("etcd-peer-tls") },
      },
    },
  };
}

function member(deletedMinutesAgo: number): EtcdMember {
  return {
    apiVersion: ETCD_API_VERSION,
    kind: "EtcdMember",
    metadata: {
      name: "etcd-2",
      namespace: NS,
      resourceVersion: "7",
      finalizers: [MEMBER_FINALIZER],
      deletionTimestamp: new Date(Date.now() - deletedMinutesAgo * 60_000).toISOString(),
    },
    spec: { cluster: "etcd" },
  };
}

/** get/list answer from `objects` (kind/name), patch is recorded; nothing else is expected. */
function fakeClient(objects: KubeObject[]) {
  const patches: { kind: string; name: string; body: unknown }[] = [];
  const client = {
    async get({ kind, name }: ObjectRef) {
      const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
      if (!found) throw new NotFoundError({ group: "", resource: kind.toLowerCase(), name });
      return structuredClone(found);
    },
    async list() {
      return { items: [] };
    },
    async patch({ kind, name }: ObjectRef, body: unknown) {
      patches.push({ kind, name, body });
      return {};
    },
  };
  return { client: client as unknown as Client, patches };
}

function fakeEvents() {
  const events: { type: string; reason: string; message: string }[] = [];
  const recorder = {
    event: (_o: KubeObject, type: string, reason: string, message: string) =>
      events.push({ type, reason, message }),
  };
  return { recorder: recorder as unknown as EventRecorder, events };
}

const REQUEST = { namespace: NS, name: "etcd-2" };
const released = (patches: { body: unknown }[]) =>
  patches.some(
    (p) =>
      !(p.body as { metadata: { finalizers: string[] } }).metadata.finalizers.includes(
        MEMBER_FINALIZER,
      ),
  );

describe("EtcdMember finalizer", () => {
  it("keeps a member that cannot leave etcd while the deadline runs", async () => {
    const { client, patches } = fakeClient([cluster(false), member(1)]);
    const { recorder } = fakeEvents();
    await assert.rejects(
      new MemberReconciler(client, recorder).reconcile(REQUEST),
      /client Secrets are missing/,
    );
    assert.equal(released(patches), false);
  });

  it("releases it with a Warning once the deadline has passed", async () => {
    const { client, patches } = fakeClient([cluster(false), member(6)]);
    const { recorder, events } = fakeEvents();
    const result = await new MemberReconciler(client, recorder).reconcile(REQUEST);
    assert.equal(result, DONE);
    assert.equal(released(patches), true);
    const warning = events.find((e) => e.reason === "MemberRemoveSkipped");
    assert.equal(warning?.type, "Warning");
    assert.match(warning?.message ?? "", /after 5 minutes: .*client Secrets are missing/);
  });

  for (const [what, objects] of [
    ["is being deleted", [cluster(true), member(0)]],
    ["is gone", [member(0)]],
  ] as const) {
    it(`releases a member at once when its cluster ${what}`, async () => {
      const { client, patches } = fakeClient([...objects]);
      const { recorder, events } = fakeEvents();
      await new MemberReconciler(client, recorder).reconcile(REQUEST);
      assert.equal(released(patches), true);
      assert.deepEqual(events, []);
    });
  }
});
