/**
 * The Etcd app's post-delete hook against an in-memory client limited to its
 * declared permissions: it waits for members and pods, deletes the data claims
 * and the five TLS Secrets, waits for the volumes, and reports a volume kept by
 * its Retain policy as residue. Other clusters' and namespaces' objects stay.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeList, KubeObject } from "../../../api/index.js";
import { NotFoundError } from "../../../api/index.js";
import type { Client, ListOptions, ObjectRef, TypeRef } from "../../../client/index.js";
import { limitedClient } from "../../engine/limited-client.js";
import { APPS_API_VERSION, type HookResult } from "../../engine/module.js";
import { CLEANUP_PERMISSIONS, postDelete } from "./cleanup.js";

const LABEL = "etcd.hearth.io/cluster";

class Store {
  readonly objects = new Map<string, KubeObject>();
  readonly deletes: string[] = [];

  add(kind: string, name: string, namespace?: string, extra: Partial<KubeObject> = {}): void {
    const labels = kind === "PersistentVolume" || kind === "Secret" ? {} : { [LABEL]: "etcd" };
    const obj = { apiVersion: "v1", kind, metadata: { name, namespace, labels }, ...extra };
    this.objects.set(`${kind}/${namespace ?? ""}/${name}`, obj as KubeObject);
  }

  remove(kind: string, name: string, namespace?: string): void {
    this.objects.delete(`${kind}/${namespace ?? ""}/${name}`);
  }

  has(kind: string, name: string, namespace?: string): boolean {
    return this.objects.has(`${kind}/${namespace ?? ""}/${name}`);
  }

  client(): Client {
    const unused = (what: string) => () => {
      throw new Error(`the test client has no ${what}`);
    };
    const matches = (o: KubeObject, opts?: ListOptions) => {
      if (opts?.namespace !== undefined && o.metadata.namespace !== opts.namespace) return false;
      if (!opts?.labelSelector) return true;
      const [k, v] = opts.labelSelector.split("=");
      return o.metadata.labels?.[k!] === v;
    };
    return {
      mapper: { resolve: unused("mapper") },
      get: unused("get"),
      watch: unused("watch"),
      create: unused("create"),
      update: unused("update"),
      patch: unused("patch"),
      apply: unused("apply"),
      deleteCollection: unused("deleteCollection"),
      updateStatus: unused("updateStatus"),
      patchStatus: unused("patchStatus"),
      request: unused("request"),
      list: async <T extends KubeObject>({ apiVersion, kind }: TypeRef, opts?: ListOptions) =>
        ({
          apiVersion,
          kind: `${kind}List`,
          metadata: {},
          items: [...this.objects.values()].filter((o) => o.kind === kind && matches(o, opts)),
        }) as KubeList<T>,
      delete: async ({ kind, name, namespace }: ObjectRef) => {
        const key = `${kind}/${namespace ?? ""}/${name}`;
        this.deletes.push(key);
        const obj = this.objects.get(key);
        if (!obj) throw new NotFoundError({ group: "", resource: kind, name });
        this.objects.delete(key);
        return obj;
      },
    };
  }
}

const SECRETS = [
  "etcd-ca-tls",
  "etcd-peer-ca-tls",
  "etcd-server-tls",
  "etcd-peer-tls",
  "etcd-client-tls",
];

function setUp() {
  const store = new Store();
  store.add("EtcdMember", "etcd-abcde", "tenant-a");
  store.add("Pod", "etcd-abcde", "tenant-a");
  store.add("PersistentVolumeClaim", "data-etcd-abcde", "tenant-a");
  store.add("PersistentVolumeClaim", "data-etcd-other", "tenant-b");
  store.add("PersistentVolume", "pvc-1", undefined, {
    spec: { claimRef: { namespace: "tenant-a", name: "data-etcd-abcde" } },
  });
  store.add("PersistentVolume", "pvc-2", undefined, {
    spec: { claimRef: { namespace: "tenant-b", name: "data-etcd-fghij" } },
  });
  for (const s of SECRETS) store.add("Secret", s, "tenant-a");
  store.add("Secret", "etcd-ca-tls", "tenant-b");
  const app = {
    apiVersion: APPS_API_VERSION,
    kind: "Etcd",
    metadata: { name: "etcd", namespace: "tenant-a" },
  };
  const client = limitedClient(store.client(), CLEANUP_PERMISSIONS);
  const run = (): Promise<HookResult> =>
    postDelete({ app, client, signal: new AbortController().signal, appKinds: [] });
  return { store, run };
}

describe("Etcd postDelete", () => {
  it("waits for members and pods, then deletes claims and Secrets and waits for the volumes", async () => {
    const { store, run } = setUp();
    const first = await run();
    assert.equal(first.done, false);
    assert.match(first.waitingFor!, /2 members and pods of EtcdCluster etcd to be gone/);
    assert.deepEqual(store.deletes, [], "nothing is deleted while a member may still write");

    store.remove("EtcdMember", "etcd-abcde", "tenant-a");
    store.remove("Pod", "etcd-abcde", "tenant-a");
    const second = await run();
    assert.equal(second.done, false);
    assert.deepEqual(store.deletes, [
      "PersistentVolumeClaim/tenant-a/data-etcd-abcde",
      ...SECRETS.map((s) => `Secret/tenant-a/${s}`),
    ]);
    assert.match(second.waitingFor!, /1 data claims to be deleted/);

    const third = await run();
    assert.equal(third.done, false);
    assert.match(third.waitingFor!, /1 volumes to be freed \(pvc-1\)/);

    store.remove("PersistentVolume", "pvc-1");
    assert.deepEqual(await run(), { done: true });
    assert.ok(store.has("PersistentVolumeClaim", "data-etcd-other", "tenant-b"));
    assert.ok(store.has("PersistentVolume", "pvc-2"));
    assert.ok(store.has("Secret", "etcd-ca-tls", "tenant-b"));
  });

  it("reports a volume its Retain policy keeps as residue instead of waiting for it", async () => {
    const { store, run } = setUp();
    store.remove("EtcdMember", "etcd-abcde", "tenant-a");
    store.remove("Pod", "etcd-abcde", "tenant-a");
    store.remove("PersistentVolumeClaim", "data-etcd-abcde", "tenant-a");
    store.add("PersistentVolume", "pvc-1", undefined, {
      spec: {
        claimRef: { namespace: "tenant-a", name: "data-etcd-abcde" },
        persistentVolumeReclaimPolicy: "Retain",
      },
    });
    const result = await run();
    assert.equal(result.done, true);
    assert.deepEqual(result.residue, [
      "PersistentVolume pvc-1 (claim tenant-a/data-etcd-abcde): kept by its Retain policy",
    ]);
  });
});
