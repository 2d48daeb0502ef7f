/** Certificates for Hearth's components: CA and leaf issuance as PEM. */
export { createCA, issueLeaf, type KeyPair, type LeafOptions } from "./certs.js";
