import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { describe, it } from "node:test";
import { createCA, issueLeaf } from "./certs.js";
import { certMismatch, fresh, inspectCert, signedBy } from "./inspect.js";

const DAY = 24 * 3600 * 1000;

describe("reading certificates back", () => {
  it("reports CN, SANs, usages, issuer and CA-ness, as openssl reads them", async () => {
    const ca = await createCA("etcd-ca");
    const leaf = await issueLeaf(ca, {
      commonName: "etcd-server",
      dnsNames: ["etcd-client", "etcd-client.ns.svc"],
      ipAddresses: ["127.2.0.9"],
      usage: ["server", "client"],
    });
    const info = inspectCert(leaf.certPem);
    assert.equal(info.commonName, "etcd-server");
    assert.deepEqual(info.dnsNames, ["etcd-client", "etcd-client.ns.svc"]);
    assert.deepEqual(info.ipAddresses, ["127.2.0.9"]);
    assert.deepEqual(info.usage, ["server", "client"]);
    assert.equal(info.isCA, false);
    assert.equal(inspectCert(ca.certPem).isCA, true);
    const node = new X509Certificate(leaf.certPem);
    assert.equal(
      node.subjectAltName,
      "DNS:etcd-client, DNS:etcd-client.ns.svc, IP Address:127.2.0.9",
    );
    assert.ok(node.checkIssued(new X509Certificate(ca.certPem)));
    assert.equal(info.notAfter.getTime(), new Date(node.validTo).getTime());
  });

  it("tells the CA that signed a certificate from another with the same name", async () => {
    const ca = await createCA("etcd-ca");
    const other = await createCA("etcd-ca");
    const leaf = await issueLeaf(ca, { commonName: "root", usage: ["client"] });
    assert.equal(await signedBy(leaf.certPem, ca.certPem), true);
    assert.equal(await signedBy(leaf.certPem, other.certPem), false);
  });

  it("says why a certificate no longer fits, and nothing when it does", async () => {
    const ca = await createCA("etcd-ca");
    const wanted = {
      commonName: "etcd",
      dnsNames: ["etcd", "etcd.ns"],
      ipAddresses: ["127.2.0.1"],
      usage: ["server", "client"] as ("server" | "client")[],
    };
    const leaf = await issueLeaf(ca, { ...wanted, dnsNames: [...wanted.dnsNames, "extra"] });
    assert.equal(await certMismatch(leaf.certPem, ca.certPem, wanted), undefined, "extra SANs fit");
    assert.equal(
      await certMismatch(leaf.certPem, ca.certPem, {
        ...wanted,
        ipAddresses: ["127.2.0.1", "127.2.0.2"],
      }),
      "SANs lack 127.2.0.2",
    );
    assert.equal(
      await certMismatch(leaf.certPem, ca.certPem, { ...wanted, commonName: "root" }),
      'CN is "etcd", want "root"',
    );
    const clientOnly = await issueLeaf(ca, { ...wanted, usage: ["client"] });
    assert.equal(await certMismatch(clientOnly.certPem, ca.certPem, wanted), "usages lack server");
    const other = await createCA("etcd-ca");
    assert.equal(
      await certMismatch(leaf.certPem, other.certPem, wanted),
      "not signed by the current CA",
    );
    assert.match(
      (await certMismatch(leaf.certPem, ca.certPem, wanted, Date.now() + 3640 * DAY)) ?? "",
      /^expires /,
    );
    assert.match((await certMismatch("garbage", ca.certPem, wanted)) ?? "", /^unreadable/);
  });

  it("counts a certificate fresh until the last 30 days (or tenth of a short life)", async () => {
    const ca = await createCA("ca");
    const info = inspectCert(
      (await issueLeaf(ca, { commonName: "x", usage: ["client"], days: 365 })).certPem,
    );
    assert.equal(fresh(info), true);
    assert.equal(fresh(info, Date.now() + 330 * DAY), true);
    assert.equal(fresh(info, Date.now() + 340 * DAY), false);
    const short = inspectCert(
      (await issueLeaf(ca, { commonName: "x", usage: ["client"], days: 10 })).certPem,
    );
    assert.equal(fresh(short, Date.now() + 8 * DAY), true);
    assert.equal(fresh(short, Date.now() + 9.5 * DAY), false);
    assert.equal(fresh(info, Date.now() - 2 * 3600 * 1000), false, "not yet valid");
  });
});
