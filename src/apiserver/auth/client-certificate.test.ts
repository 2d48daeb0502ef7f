/** Client certificate chains: trusted CA, foreign CA, key usage, validity, CN and O. */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { before, describe, it } from "node:test";
import { createCA, issueLeaf, type KeyPair } from "../../pki/index.js";
import { verifyClientChain } from "./client-certificate.js";

describe("verifyClientChain", () => {
  let ca: KeyPair;
  let roots: X509Certificate[];
  const x = (pair: KeyPair) => new X509Certificate(pair.certPem);

  before(async () => {
    ca = await createCA("hearth-ca");
    roots = [x(ca)];
  });

  it("names the user by CN and the groups by O", async () => {
    const leaf = await issueLeaf(ca, {
      commonName: "carol",
      organization: ["admins", "devs"],
      usage: ["client"],
    });
    assert.deepEqual(verifyClientChain([x(leaf)], roots), {
      user: { username: "carol", groups: ["admins", "devs"] },
    });
    const single = await issueLeaf(ca, {
      commonName: "dave",
      organization: ["ops"],
      usage: ["client"],
    });
    assert.deepEqual(verifyClientChain([x(single)], roots), {
      user: { username: "dave", groups: ["ops"] },
    });
  });

  it("refuses certificates from another CA, even presenting that CA", async () => {
    const evil = await createCA("hearth-ca");
    const leaf = await issueLeaf(evil, { commonName: "mallory", usage: ["client"] });
    assert.deepEqual(verifyClientChain([x(leaf), x(evil)], roots), {
      error: "x509: certificate signed by unknown authority",
    });
  });

  it("refuses server-only certificates and expired ones", async () => {
    const server = await issueLeaf(ca, { commonName: "apiserver", usage: ["server"] });
    assert.deepEqual(verifyClientChain([x(server)], roots), {
      error: "x509: certificate specifies an incompatible key usage",
    });
    const leaf = await issueLeaf(ca, { commonName: "carol", usage: ["client"], days: 1 });
    const later = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    const result = verifyClientChain([x(leaf)], roots, later);
    assert.ok("error" in result && /expired or is not yet valid/.test(result.error));
  });
});
