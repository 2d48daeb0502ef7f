/**
 * An etcd DataStore's TLS material, read from its spec and checked before
 * anything is dialled: the CA certificate and its private key (control planes'
 * client certificates are signed with it later), and the client certificate
 * and key the platform itself connects with. A certificate that does not
 * parse, or a key that is not the certificate's, is `InvalidCertificate`
 * naming the field; the client certificate's CN is the etcd user it
 * authenticates as.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { Reader } from "../../client/index.js";
import { readTlsPems } from "./connection.js";
import { ContentNotFound, notReadyIfMissing } from "./content-refs.js";
import type { DataStoreSpec } from "./crd.js";

export interface DataStoreTls {
  caPem: string;
  caKeyPem: string;
  certPem: string;
  keyPem: string;
  /** The client certificate's CN: the etcd user the platform is. */
  user: string;
}

const FIELD = "spec.tlsConfig";

function checkPair(certPem: string, keyPem: string, field: string): X509Certificate {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch (e) {
    throw new ContentNotFound({
      reason: "InvalidCertificate",
      message: `${field}.certificate is not a PEM certificate: ${(e as Error).message}`,
    });
  }
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch (e) {
    throw new ContentNotFound({
      reason: "InvalidCertificate",
      message: `${field}.privateKey is not a PEM private key: ${(e as Error).message}`,
    });
  }
  if (!matches)
    throw new ContentNotFound({
      reason: "InvalidCertificate",
      message: `${field}.privateKey is not the key of ${field}.certificate`,
    });
  return cert;
}

/** Reads and checks the material; throws ContentNotFound saying what is missing or wrong. */
export async function readDataStoreTls(
  reader: Pick<Reader, "get">,
  spec: DataStoreSpec,
  signal?: AbortSignal,
): Promise<DataStoreTls> {
  const tls = spec.tlsConfig;
  const ca = tls?.certificateAuthority;
  const client = tls?.clientCertificate;
  if (!ca?.privateKey || !client)
    throw new ContentNotFound({
      reason: "InvalidContent",
      message: `${FIELD} needs the CA's certificate and privateKey and a clientCertificate`,
    });
  const { caPem, caKeyPem, certPem, keyPem } = await notReadyIfMissing(
    readTlsPems(reader, spec, signal ? { signal } : {}),
  );
  checkPair(caPem, caKeyPem, `${FIELD}.certificateAuthority`);
  const cert = checkPair(certPem, keyPem, `${FIELD}.clientCertificate`);
  const user = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1] ?? "";
  return { caPem, caKeyPem, certPem, keyPem, user };
}
