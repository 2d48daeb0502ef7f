/**
 * What a DELETE answers once the object is gone, as kube-apiserver's registry
 * stores: pods, services, persistent volumes and claims and service accounts
 * (`ReturnDeletedObject`) answer with the object as last stored; every other
 * kind with a Success Status. An object a finalizer or a grace period keeps is
 * answered with its marked state either way, and a dry run answers the same
 * as the real delete without writing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/index.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const NS = "/api/v1/namespaces/default";

interface Case {
  kind: string;
  path: string;
  body: Record<string, unknown>;
}

/** One object of each kind that answers with itself, free of finalizers and grace. */
const RETURNING: Case[] = [
  {
    kind: "Pod",
    path: `${NS}/pods`,
    body: { spec: { containers: [{ name: "c", image: "busybox" }] } },
  },
  { kind: "Service", path: `${NS}/services`, body: { spec: { ports: [{ port: 80 }] } } },
  { kind: "ServiceAccount", path: `${NS}/serviceaccounts`, body: {} },
  {
    kind: "PersistentVolume",
    path: "/api/v1/persistentvolumes",
    body: {
      spec: {
        capacity: { storage: "1Gi" },
        accessModes: ["ReadWriteOnce"],
        hostPath: { path: "/tmp/hearth-delete-answers" },
      },
    },
  },
  {
    kind: "PersistentVolumeClaim",
    path: `${NS}/persistentvolumeclaims`,
    body: {
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
    },
  },
];

describe("what a DELETE answers", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  async function create(c: Case, name: string): Promise<KubeObject> {
    const obj = { apiVersion: "v1", kind: c.kind, metadata: { name }, ...c.body };
    const r = await s.request("POST", c.path, JSON.stringify(obj));
    assert.equal(r.status, 201, r.text);
    return r.body as KubeObject;
  }

  /** Deletes at once: no grace period, and any finalizer the server added (pvc/pv protection) dropped first. */
  async function deleteNow(c: Case, name: string, query = "") {
    const path = `${c.path}/${name}`;
    const stored = (await s.request("GET", path)).body as KubeObject;
    if ((stored.metadata.finalizers ?? []).length > 0) {
      const r = await s.request("PATCH", path, JSON.stringify({ metadata: { finalizers: null } }), {
        "Content-Type": "application/merge-patch+json",
      });
      assert.equal(r.status, 200, r.text);
    }
    return s.request("DELETE", `${path}?gracePeriodSeconds=0${query}`);
  }

  for (const c of RETURNING) {
    it(`answers a removed ${c.kind} with the object, as kube's ReturnDeletedObject`, async () => {
      const name = `gone-${c.kind.toLowerCase()}`;
      const created = await create(c, name);
      const dry = await deleteNow(c, name, "&dryRun=All");
      assert.equal(dry.status, 200, dry.text);
      assert.equal((dry.body as KubeObject).kind, c.kind, dry.text);
      assert.equal((await s.request("GET", `${c.path}/${name}`)).status, 200, "dry run kept it");

      const r = await deleteNow(c, name);
      assert.equal(r.status, 200, r.text);
      const answer = r.body as KubeObject;
      assert.equal(answer.kind, c.kind, r.text);
      assert.equal(answer.apiVersion, "v1");
      assert.equal(answer.metadata.name, name);
      assert.equal(answer.metadata.uid, created.metadata.uid);
      assert.equal((await s.request("GET", `${c.path}/${name}`)).status, 404);
    });
  }

  it("answers a removed ConfigMap with a Success Status naming it", async () => {
    const c: Case = { kind: "ConfigMap", path: `${NS}/configmaps`, body: { data: { a: "1" } } };
    const created = await create(c, "gone-cm");
    const r = await deleteNow(c, "gone-cm");
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Success",
      details: { name: "gone-cm", group: "", kind: "configmaps", uid: created.metadata.uid },
      code: 200,
    });
  });

  it("answers a ServiceAccount a finalizer keeps with its marked state", async () => {
    const c = RETURNING.find((k) => k.kind === "ServiceAccount")!;
    await create(c, "held-sa");
    const path = `${c.path}/held-sa`;
    const held = await s.request(
      "PATCH",
      path,
      JSON.stringify({ metadata: { finalizers: ["example.com/hold"] } }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.equal(held.status, 200, held.text);
    const r = await s.request("DELETE", path);
    assert.equal(r.status, 200, r.text);
    const answer = r.body as KubeObject;
    assert.equal(answer.kind, "ServiceAccount");
    assert.ok(answer.metadata.deletionTimestamp, "marked for deletion");
    assert.equal((await s.request("GET", path)).status, 200, "still stored");
  });
});
