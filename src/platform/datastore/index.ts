/**
 * The DataStore kind (Kamaji's): its CRD and types, and its controller —
 * `usedBy`, a `Ready` condition that means reachable and authenticated, and
 * a finalizer that lets a DataStore go only when no control plane uses it.
 * And the library the TenantControlPlane controller sets a control plane up
 * with: a DataStore's connection from its ContentRefs, the control plane's
 * etcd user, role and prefix, and its two Secrets.
 */
import type { Component } from "../component.js";
import { registerDataStoreController } from "./controller.js";
import { DATASTORE_CRD } from "./crd.js";

export { AUTH_PROBE_USER, authEnforced } from "./auth-probe.js";
export {
  type DataStoreConnection,
  endpointUrl,
  type ResolveOptions,
  resolveDataStore,
  UnsupportedDriverError,
} from "./connection.js";
export {
  ContentRefMissingError,
  type ContentRefMissingReason,
  ContentRefUnreadableError,
  resolveContentRef,
} from "./content-ref.js";
export { type DataStoreControllerOptions, registerDataStoreController } from "./controller.js";
export {
  type ContentRef,
  DATASTORE_API_VERSION,
  DATASTORE_CRD,
  DATASTORE_DRIVERS,
  DATASTORE_GROUP,
  type DataStore,
  type DataStoreDriver,
  type DataStoreSpec,
} from "./crd.js";
export {
  CHECKSUM_ANNOTATION,
  type ControlPlaneRef,
  DATASTORE_SECRET_FINALIZER,
  dataChecksum,
  datastoreCertificateMismatch,
  datastoreCertificateSecret,
  datastoreCertificateSecretName,
  datastoreConfigSecret,
  datastoreConfigSecretName,
  issueDataStoreClientCertificate,
  keptPassword,
  type Secret,
  setupFromConfigSecret,
  TCP_API_VERSION,
} from "./datastore-secrets.js";
export { DELETION_ALLOWED, READY as DATASTORE_READY } from "./datastore-status.js";
export { EtcdTenantStore, type PrefixDigest } from "./etcd-tenant-store.js";
export { DATASTORE, DATASTORE_FINALIZER } from "./reconciler.js";
export {
  InvalidTenantSetupError,
  prefixRangeEnd,
  type TenantSetup,
  tenantPrefix,
  validateTenantSetup,
} from "./tenant-setup.js";

export const datastoreComponent: Component = {
  name: "datastore",
  crds: [DATASTORE_CRD],
  controllers: [
    {
      name: "datastore",
      register: (manager, opts) => registerDataStoreController(manager, { log: opts.log }),
    },
  ],
};
