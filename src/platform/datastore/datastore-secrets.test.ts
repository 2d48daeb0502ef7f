import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { createCA, inspectCert, type KeyPair, signedBy } from "../../pki/index.js";
import {
  CHECKSUM_ANNOTATION,
  DATASTORE_SECRET_FINALIZER,
  datastoreCertificateMismatch,
  datastoreCertificateSecret,
  datastoreConfigSecret,
  issueDataStoreClientCertificate,
  keptPassword,
  setupFromConfigSecret,
} from "./datastore-secrets.js";
import {
  InvalidTenantSetupError,
  prefixRangeEnd,
  tenantPrefix,
  validateTenantSetup,
} from "./tenant-setup.js";

const tcp = { name: "cp1", namespace: "tenant-a", uid: "uid-1" };
const setup = { schema: "tenant_a_cp1", user: "tenant_a_cp1" };
const text = (s: string | undefined) => Buffer.from(s ?? "", "base64").toString();

describe("datastore Secrets", () => {
  let ca: KeyPair;
  let otherCa: KeyPair;
  before(async () => {
    ca = await createCA("datastore-ca");
    otherCa = await createCA("other-ca");
  });

  it("issues a client certificate with CN = user, signed by the DataStore's CA", async () => {
    const pair = await issueDataStoreClientCertificate(ca, "tenant_a_cp1");
    const info = inspectCert(pair.certPem);
    assert.equal(info.commonName, "tenant_a_cp1");
    assert.deepEqual(info.usage, ["client"]);
    assert.ok(await signedBy(pair.certPem, ca.certPem));
  });

  it("<tcp>-datastore-certificate: ca.crt, server.crt, server.key, owned by the control plane", async () => {
    const pair = await issueDataStoreClientCertificate(ca, setup.user);
    const s = datastoreCertificateSecret(tcp, ca.certPem, pair);
    assert.equal(s.metadata.name, "cp1-datastore-certificate");
    assert.equal(s.metadata.namespace, "tenant-a");
    assert.deepEqual(Object.keys(s.data ?? {}).sort(), ["ca.crt", "server.crt", "server.key"]);
    assert.equal(text(s.data?.["ca.crt"]), ca.certPem);
    assert.equal(text(s.data?.["server.key"]), pair.keyPem);
    assert.deepEqual(s.metadata.ownerReferences, [
      {
        apiVersion: "kamaji.clastix.io/v1alpha1",
        kind: "TenantControlPlane",
        name: "cp1",
        uid: "uid-1",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(s.metadata.labels?.["kamaji.clastix.io/component"], "datastore-certificate");
    assert.equal(s.metadata.labels?.["kamaji.clastix.io/name"], "cp1");
    assert.equal(await datastoreCertificateMismatch(s, ca.certPem, setup.user), undefined);
    assert.ok(await datastoreCertificateMismatch(s, ca.certPem, "someone-else"));
    assert.match(
      (await datastoreCertificateMismatch(s, otherCa.certPem, setup.user)) ?? "",
      /not the DataStore's CA/,
    );
    const { "server.key": _, ...noKey } = s.data ?? {};
    assert.match(
      (await datastoreCertificateMismatch({ ...s, data: noKey }, ca.certPem, setup.user)) ?? "",
      /server\.key missing/,
    );
  });

  it("<tcp>-datastore-config: Kamaji's keys, the finalizer, the password kept while the checksum matches", () => {
    let n = 0;
    const fresh = () => `pw-${++n}`;
    const s = datastoreConfigSecret(tcp, setup, undefined, fresh);
    assert.equal(s.metadata.name, "cp1-datastore-config");
    assert.deepEqual(
      Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, text(v)])),
      {
        DB_CONNECTION_STRING: "",
        DB_SCHEMA: setup.schema,
        DB_USER: setup.user,
        DB_PASSWORD: "pw-1",
      },
    );
    assert.deepEqual(s.metadata.finalizers, [DATASTORE_SECRET_FINALIZER]);
    assert.ok(s.metadata.annotations?.[CHECKSUM_ANNOTATION]);
    assert.deepEqual(setupFromConfigSecret(s), setup);

    const stored = {
      ...s,
      metadata: { ...s.metadata, finalizers: ["other/keep", DATASTORE_SECRET_FINALIZER] },
    };
    const again = datastoreConfigSecret(tcp, setup, stored, fresh);
    assert.equal(text(again.data?.DB_PASSWORD), "pw-1");
    assert.deepEqual(again.metadata.finalizers, ["other/keep", DATASTORE_SECRET_FINALIZER]);

    const edited = { ...s, data: { ...s.data, DB_USER: Buffer.from("x").toString("base64") } };
    assert.equal(keptPassword(edited), undefined);
    assert.equal(text(datastoreConfigSecret(tcp, setup, edited, fresh).data?.DB_PASSWORD), "pw-2");
    assert.equal(setupFromConfigSecret({ ...s, data: {} }), undefined);
  });
});

describe("tenant setup names", () => {
  it("the prefix keeps its trailing slash; its range end excludes /<schema>x/", () => {
    assert.equal(tenantPrefix("t1"), "/t1/");
    const end = prefixRangeEnd("/t1/").toString();
    assert.equal(end, "/t10");
    assert.ok("/t1/zzz" < end && "/t1x/a" > end && "/t1" < "/t1/");
    assert.deepEqual(prefixRangeEnd(Buffer.from([0x61, 0xff])), Buffer.from("b"));
    assert.deepEqual(prefixRangeEnd(Buffer.from([0xff])), Buffer.from([0]));
  });

  it("refuses schemas and users that are not one plain segment, or root", () => {
    validateTenantSetup({ schema: "tenant_a-1.x", user: "0b6f-uid" });
    for (const bad of [
      { schema: "", user: "u" },
      { schema: "a/b", user: "u" },
      { schema: "s", user: "root" },
      { schema: "root", user: "u" },
      { schema: "-s", user: "u" },
      { schema: "s", user: "ü" },
    ])
      assert.throws(() => validateTenantSetup(bad), InvalidTenantSetupError, JSON.stringify(bad));
  });
});
