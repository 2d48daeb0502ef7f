/**
 * What it takes to reach an etcd DataStore as its administrator (Kamaji's
 * `NewStorageConnection`, for the etcd driver): its endpoints as gRPC URLs,
 * the client certificate of its `tlsConfig` (the root user, by CN) and the
 * CA pair that signs each control plane's own client certificate. Reading it
 * needs only the DataStore and the Secrets its ContentRefs name; a missing
 * piece is a ContentRefMissingError naming the field, Secret and key, a read
 * that failed now a ContentRefUnreadableError (content-ref.ts).
 */
import type { CallOptions, Reader } from "../../client/index.js";
import type { KeyPair } from "../../pki/index.js";
import type { EtcdCredentials } from "../operators/etcd/index.js";
import { resolveContentRef } from "./content-ref.js";
import type { DataStore, DataStoreSpec } from "./crd.js";

export interface DataStoreConnection {
  dataStore: string;
  /** `https://host:port` of each endpoint. */
  endpoints: string[];
  /** The DataStore's own client certificate (etcd's root user). */
  root: EtcdCredentials;
  /** The CA that etcd trusts for client certificates, with its key. */
  ca: KeyPair;
}

/** Only the etcd driver has a tenant setup here; others are refused, not retried. */
export class UnsupportedDriverError extends Error {
  constructor(
    readonly dataStore: string,
    readonly driver: string,
  ) {
    super(`DataStore ${dataStore}: driver ${driver} is not supported (only etcd)`);
    this.name = "UnsupportedDriverError";
  }
}

export interface ResolveOptions extends CallOptions {
  /**
   * Maps an endpoint's `host:port` to the one to dial (a Service DNS name to
   * its ClusterIP, for a process that has no cluster DNS); default: as given.
   */
  dialAddress?: (hostPort: string) => string | Promise<string>;
}

/** `https://host:port` for an endpoint given as `host:port` (a URL stays as it is). */
export function endpointUrl(endpoint: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`;
}

/** The PEM text of the four ContentRefs of an etcd DataStore's `tlsConfig`, as it stands. */
export interface DataStorePems {
  caPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
}

/** Reads the four; a missing one is a ContentRefMissingError naming its field. */
export async function readTlsPems(
  reader: Pick<Reader, "get">,
  spec: DataStoreSpec,
  opts: CallOptions = {},
): Promise<DataStorePems> {
  const tls = spec.tlsConfig;
  const call = opts.signal ? { signal: opts.signal } : undefined;
  const read = async (ref: Parameters<typeof resolveContentRef>[1], field: string) =>
    (await resolveContentRef(reader, ref, `spec.tlsConfig.${field}`, call)).toString();
  return {
    caPem: await read(tls?.certificateAuthority.certificate, "certificateAuthority.certificate"),
    caKeyPem: await read(tls?.certificateAuthority.privateKey, "certificateAuthority.privateKey"),
    certPem: await read(tls?.clientCertificate?.certificate, "clientCertificate.certificate"),
    keyPem: await read(tls?.clientCertificate?.privateKey, "clientCertificate.privateKey"),
  };
}

export async function resolveDataStore(
  reader: Pick<Reader, "get">,
  ds: DataStore,
  opts: ResolveOptions = {},
): Promise<DataStoreConnection> {
  const name = ds.metadata.name ?? "";
  if (ds.spec.driver !== "etcd") throw new UnsupportedDriverError(name, ds.spec.driver);
  const { caPem, caKeyPem, certPem, keyPem } = await readTlsPems(reader, ds.spec, opts);
  const dial = opts.dialAddress ?? ((a: string) => a);
  const endpoints = await Promise.all(
    ds.spec.endpoints.map(async (e) => endpointUrl(await dial(e))),
  );
  return {
    dataStore: name,
    endpoints,
    root: { caPem, certPem, keyPem },
    ca: { certPem: caPem, keyPem: caKeyPem },
  };
}
