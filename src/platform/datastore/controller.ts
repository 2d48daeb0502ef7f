/**
 * The DataStore controller on the platform's Manager. A DataStore is looked
 * at when it changes, when a TenantControlPlane starts or stops naming it
 * (old and new object of each event: a control plane that moves or goes
 * frees its old DataStore), when a Secret its TLS material lives in changes,
 * and every `recheckMs` for its health. Both mappings are indexes of the
 * shared caches: control planes by the DataStore they use, DataStores by the
 * Secrets they read.
 */
import type { KubeObject } from "../../api/index.js";
import { EventRecorder } from "../../client/index.js";
import type { Manager, RequestQueue } from "../../runtime/index.js";
import { flushOnStop } from "../events-runnable.js";
import { dataStoreOf, TENANT_CONTROL_PLANE, type TenantControlPlane } from "../kamaji/index.js";
import { referencedSecrets } from "./content-refs.js";
import type { DataStore } from "./crd.js";
import { DATASTORE, DataStoreReconciler } from "./reconciler.js";

const SECRET = { apiVersion: "v1", kind: "Secret" };
const BY_DATASTORE = "kamaji:dataStore";
const BY_SECRET = "datastore:secret";

export interface DataStoreControllerOptions {
  log?(msg: string, err?: unknown): void;
  /** How often each DataStore's health is checked again, ms (default 30 s). */
  recheckMs?: number;
}

/** The Secrets (`namespace/name`) a DataStore's spec reads. */
export function secretsOf(ds: DataStore): string[] {
  const tls = ds.spec?.tlsConfig;
  const auth = ds.spec?.basicAuth;
  return referencedSecrets([
    tls?.certificateAuthority?.certificate,
    tls?.certificateAuthority?.privateKey,
    tls?.clientCertificate?.certificate,
    tls?.clientCertificate?.privateKey,
    auth?.username,
    auth?.password,
  ]);
}

export function registerDataStoreController(
  manager: Manager,
  opts: DataStoreControllerOptions = {},
): void {
  const log = opts.log ?? (() => {});
  const { client, cache } = manager;
  const events = new EventRecorder(client, {
    component: "datastore-controller",
    onError: (e) => log("datastore controller: event", e),
  });
  const tcps = cache.informer(TENANT_CONTROL_PLANE);
  if (!tcps.hasIndex(BY_DATASTORE))
    tcps.addIndex(BY_DATASTORE, (t) => {
      const name = dataStoreOf(t as TenantControlPlane);
      return name ? [name] : [];
    });
  const dataStores = cache.informer(DATASTORE);
  if (!dataStores.hasIndex(BY_SECRET))
    dataStores.addIndex(BY_SECRET, (d) => secretsOf(d as DataStore));
  const usersOf = (name: string) =>
    tcps
      .byIndex(BY_DATASTORE, name)
      .map((t) => `${t.metadata.namespace}/${t.metadata.name}`)
      .sort();
  const named = (t: KubeObject, q: RequestQueue) => {
    const name = dataStoreOf(t as TenantControlPlane);
    if (name) q.add({ name });
  };
  const readers = (s: KubeObject) =>
    dataStores
      .byIndex(BY_SECRET, `${s.metadata.namespace}/${s.metadata.name}`)
      .map((d) => ({ name: d.metadata.name! }));
  manager
    .controller("datastore")
    .for(DATASTORE)
    .watchesWith(TENANT_CONTROL_PLANE, {
      create: named,
      update: (old, t, q) => {
        named(old, q);
        named(t, q);
      },
      delete: named,
    })
    .watches(SECRET, readers)
    .workers(2)
    .complete(
      new DataStoreReconciler(client, cache, events, {
        usersOf,
        ...(opts.recheckMs ? { recheckMs: opts.recheckMs } : {}),
      }),
    );
  manager.add(flushOnStop(events));
}
