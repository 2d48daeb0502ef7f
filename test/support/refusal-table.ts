/**
 * The table runner of the built-in refusal tests: each row is a create (or an
 * update of an object the row first creates) that the in-process server must
 * refuse with a 422 Invalid Status whose causes name each field with its
 * reason, whose message carries kube's rule, and that writes nothing (the
 * storage revision does not move, see `expectRefused`); each accepted row is
 * a create that must succeed, its stored object checked.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "./in-process.js";
import { expectRefused } from "./refusal.js";

export type Obj = Record<string, unknown>;

/** The namespace every namespaced row lives in. */
export const NS = "door";
const RBAC = "rbac.authorization.k8s.io/v1";

/** Where each kind's objects are created: its apiVersion and collection path. */
export const KINDS: Record<string, { apiVersion: string; path: string }> = {
  Role: { apiVersion: RBAC, path: `/apis/${RBAC}/namespaces/${NS}/roles` },
  RoleBinding: { apiVersion: RBAC, path: `/apis/${RBAC}/namespaces/${NS}/rolebindings` },
  StorageClass: { apiVersion: "storage.k8s.io/v1", path: "/apis/storage.k8s.io/v1/storageclasses" },
  Pod: { apiVersion: "v1", path: `/api/v1/namespaces/${NS}/pods` },
  Service: { apiVersion: "v1", path: `/api/v1/namespaces/${NS}/services` },
  Endpoints: { apiVersion: "v1", path: `/api/v1/namespaces/${NS}/endpoints` },
  EndpointSlice: {
    apiVersion: "discovery.k8s.io/v1",
    path: `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`,
  },
  Lease: {
    apiVersion: "coordination.k8s.io/v1",
    path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`,
  },
  CronJob: { apiVersion: "batch/v1", path: `/apis/batch/v1/namespaces/${NS}/cronjobs` },
  Job: { apiVersion: "batch/v1", path: `/apis/batch/v1/namespaces/${NS}/jobs` },
  PersistentVolumeClaim: {
    apiVersion: "v1",
    path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`,
  },
  Namespace: { apiVersion: "v1", path: "/api/v1/namespaces" },
  Node: { apiVersion: "v1", path: "/api/v1/nodes" },
};

export interface Row {
  why: string;
  kind: string;
  /** The object's fields beside apiVersion, kind and metadata. */
  body: Obj;
  /** The name (default: one of the row's own). */
  name?: string;
  /**
   * Set for an update: `body` is created first (it must be valid), then this
   * turns the stored object into the PUT that must be refused.
   */
  update?: (stored: Obj) => void;
  causes: [field: string, reason: string][];
  message: RegExp;
}

export interface Accepted {
  why: string;
  kind: string;
  body: Obj;
  /** Checks the object as stored. */
  check(stored: Obj): void;
}

/** One server for the suite; each table a describe, each row a test. */
export function describeRefusals(
  title: string,
  tables: [table: string, rows: Row[]][],
  accepted: Accepted[] = [],
): void {
  describe(title, () => {
    let s: InProcessServer;
    let seq = 0;
    before(async () => {
      s = await startInProcess();
      await created("Namespace", NS, {});
    });
    after(async () => {
      await s?.stop();
    });

    const manifest = (kind: string, name: string, body: Obj) => ({
      apiVersion: KINDS[kind]!.apiVersion,
      kind,
      metadata: { name },
      ...structuredClone(body),
    });

    async function created(kind: string, name: string, body: Obj): Promise<Obj> {
      const r = await s.request(
        "POST",
        KINDS[kind]!.path,
        JSON.stringify(manifest(kind, name, body)),
      );
      assert.equal(r.status, 201, r.text);
      return r.body as Obj;
    }

    for (const [table, rows] of tables)
      describe(table, () => {
        for (const row of rows)
          it(`refuses ${row.why} with ${row.causes.map((c) => c[0]).join(", ")}`, async () => {
            const name = row.name ?? `${row.kind.toLowerCase()}-${++seq}`;
            const { path } = KINDS[row.kind]!;
            let send = () =>
              s.request("POST", path, JSON.stringify(manifest(row.kind, name, row.body)));
            if (row.update) {
              const stored = await created(row.kind, name, row.body);
              row.update(stored);
              send = () => s.request("PUT", `${path}/${name}`, JSON.stringify(stored));
            }
            const status = await expectRefused(s, `${row.kind} ${row.why}`, send, {
              code: 422,
              reason: "Invalid",
              message: row.message,
              fields: row.causes.map((c) => c[0]),
            });
            assert.equal(status.details?.kind, row.kind);
            assert.deepEqual(
              status.details?.causes?.map((c) => c.reason),
              row.causes.map((c) => c[1]),
            );
          });
      });

    for (const ok of accepted)
      it(`takes ${ok.why}`, async () => {
        ok.check(await created(ok.kind, `ok-${++seq}`, ok.body));
      });
  });
}
