/** Certificates for Hearth's components: CA and leaf issuance as PEM, and reading them back. */
export { createCA, issueLeaf, type KeyPair, type LeafOptions } from "./certs.js";
export {
  type CertInfo,
  certMismatch,
  fresh,
  inspectCert,
  RENEW_BEFORE_MS,
  signedBy,
  type WantedCert,
} from "./inspect.js";
