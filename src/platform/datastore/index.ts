/**
 * The DataStore kind (Kamaji's): its CRD and types, and the library the
 * TenantControlPlane controller sets a control plane up with: reading a
 * DataStore's connection from its ContentRefs, the control plane's etcd user,
 * role and prefix, and its two Secrets. No controller yet.
 */
import type { Component } from "../component.js";
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
export { EtcdTenantStore, type PrefixDigest } from "./etcd-tenant-store.js";
export {
  InvalidTenantSetupError,
  prefixRangeEnd,
  type TenantSetup,
  tenantPrefix,
  validateTenantSetup,
} from "./tenant-setup.js";

export const datastoreComponent: Component = { name: "datastore", crds: [DATASTORE_CRD] };
