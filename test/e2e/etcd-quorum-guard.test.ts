/**
 * The etcd operator's quorum guard against a real 3-member etcd (TLS, client
 * certificates): while one member is down, deleting another is blocked — a
 * Warning `RemoveBlocked` Event, the member stays in etcd and keeps its
 * finalizer — and once the dead member is back the deleted one leaves etcd
 * and is released. The reconciler reads its EtcdCluster, Secrets and Services
 * from a stand-in client; etcd is the real thing.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NotFoundError } from "../../src/api/errors.js";
import type { KubeObject } from "../../src/api/types.js";
import type { Client, EventRecorder, ObjectRef } from "../../src/client/index.js";
import { createCA, issueLeaf, type KeyPair } from "../../src/pki/index.js";
import { EtcdApi } from "../../src/platform/operators/etcd/etcd-api.js";
import { MemberReconciler } from "../../src/platform/operators/etcd/member-reconciler.js";
import {
  ETCD_API_VERSION,
  LABEL_CLUSTER,
  MEMBER_FINALIZER,
} from "../../src/platform/operators/etcd/types.js";
import { realClock } from "../../src/runtime/index.js";
import { type EtcdProcess, randomLoopback, startEtcd } from "../support/etcd-process.js";
import { waitFor } from "../support/hearth-process.js";

const NS = "tenant-a";
const NAMES = ["etcd-0", "etcd-1", "etcd-2"];
const b64 = (s: string) => Buffer.from(s).toString("base64");

function secret(name: string, cert: string, key = ""): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: NS },
    data: { "tls.crt": b64(cert), "tls.key": b64(key) },
  } as KubeObject;
}

function service(name: string, clusterIP: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, namespace: NS, labels: { [LABEL_CLUSTER]: "etcd" } },
    spec: { clusterIP },
  } as KubeObject;
}

const ref = (name: string) => ({ name });
const cluster: KubeObject = {
  apiVersion: ETCD_API_VERSION,
  kind: "EtcdCluster",
  metadata: { name: "etcd", namespace: NS },
  spec: {
    replicas: 3,
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
} as KubeObject;

/** Reads answer from `objects`; a patch is recorded and applied to the finalizers. */
function standIn(objects: KubeObject[]) {
  const patches: unknown[] = [];
  const find = (kind: string, name: string) =>
    objects.find((o) => o.kind === kind && o.metadata.name === name);
  const client = {
    async get({ kind, name }: ObjectRef) {
      const found = find(kind, name);
      if (!found) throw new NotFoundError({ group: "", resource: kind.toLowerCase(), name });
      return structuredClone(found);
    },
    async list({ kind }: { kind: string }) {
      return { items: structuredClone(objects.filter((o) => o.kind === kind)) };
    },
    async patch({ kind, name }: ObjectRef, body: { metadata: { finalizers: string[] } }) {
      patches.push(body);
      const o = find(kind, name)!;
      o.metadata.finalizers = body.metadata.finalizers;
      return structuredClone(o);
    },
  };
  return { client: client as unknown as Client, patches };
}

describe("the etcd member finalizer's quorum guard on a real 3-member etcd", () => {
  let ca: KeyPair;
  let client: { certPem: string; keyPem: string };
  const dirs: string[] = [];
  const addresses = NAMES.map(() => randomLoopback());
  const members: EtcdProcess[] = [];
  const initialCluster = NAMES.map((n, i) => `${n}=http://${addresses[i]}:2380`).join(",");
  const start = (i: number) =>
    startEtcd({
      tls: true,
      ca,
      dir: dirs[i]!,
      address: addresses[i]!,
      member: { name: NAMES[i]!, initialCluster },
      timeoutMs: 30_000,
    });

  before(async () => {
    ca = await createCA("quorum-test-ca");
    client = await issueLeaf(ca, { commonName: "root", usage: ["client"] });
    for (const _ of NAMES) dirs.push(mkdtempSync(join(tmpdir(), "hearth-quorum-")));
    members.push(...(await Promise.all(NAMES.map((_, i) => start(i)))));
  });
  after(async () => {
    await Promise.all(members.map((m) => m.stop()));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const memberNames = async () => {
    const api = new EtcdApi([members[0]!.endpoint], {
      caPem: ca.certPem,
      certPem: client.certPem,
      keyPem: client.keyPem,
    });
    try {
      return (await api.membership()).members.map((m) => m.name).sort();
    } finally {
      api.close();
    }
  };

  it("blocks the removal while a voter is down, and removes once it is back", async () => {
    assert.deepEqual(await memberNames(), NAMES);
    const deleted = {
      apiVersion: ETCD_API_VERSION,
      kind: "EtcdMember",
      metadata: {
        name: "etcd-1",
        namespace: NS,
        resourceVersion: "7",
        finalizers: [MEMBER_FINALIZER],
        deletionTimestamp: new Date().toISOString(),
      },
      spec: { cluster: "etcd" },
    } as KubeObject;
    const { client: standInClient, patches } = standIn([
      cluster,
      deleted,
      secret("etcd-ca-tls", ca.certPem),
      secret("etcd-client-tls", client.certPem, client.keyPem),
      ...NAMES.map((n, i) => service(n, addresses[i]!)),
    ]);
    const events: { type: string; reason: string; message: string }[] = [];
    const recorder = {
      event: (_o: KubeObject, type: string, reason: string, message: string) =>
        events.push({ type, reason, message }),
    } as unknown as EventRecorder;
    const reconciler = new MemberReconciler(standInClient, recorder, {
      cache: standInClient,
      clock: realClock,
    });
    const reconcile = () => reconciler.reconcile({ namespace: NS, name: "etcd-1" });

    await members[2]!.kill();
    const why = "cannot remove member etcd-1 from etcd: 1 of the 2 remaining voters do not answer";
    await assert.rejects(reconcile(), { message: why });
    assert.deepEqual(events, [{ type: "Warning", reason: "RemoveBlocked", message: why }]);
    assert.deepEqual(patches, [], "the finalizer stays");
    assert.deepEqual(await memberNames(), NAMES, "etcd-1 is still a member");

    members[2] = await start(2);
    // As the runtime would, retry: etcd itself refuses a removal ("unhealthy cluster")
    // until the member that came back has been connected for a few seconds.
    await waitFor("the removal goes through", () => reconcile().then(() => true), 30_000);
    assert.deepEqual(events.at(-1), {
      type: "Normal",
      reason: "MemberRemoved",
      message: "member etcd-1 removed from etcd",
    });
    assert.deepEqual(deleted.metadata.finalizers, [], "released");
    assert.deepEqual(await memberNames(), ["etcd-0", "etcd-2"]);
  });
});
