/**
 * Reading a DataStore's ContentRefs and connection from Secrets on a real
 * (envtest) apiserver: inline content, a Secret's key, and each way a
 * reference fails — typed as missing (naming the field, Secret and key) or as
 * unreadable (the API did not answer), the two cases a controller must tell apart.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { useEnv } from "../../../test/support/controller-run.js";
import { SECRET } from "../../../test/support/core-objects.js";
import { createHttpClient } from "../../client/index.js";
import { resolveDataStore, UnsupportedDriverError } from "./connection.js";
import {
  ContentRefMissingError,
  ContentRefUnreadableError,
  resolveContentRef,
} from "./content-ref.js";
import type { DataStore } from "./crd.js";

const NS = "default";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const ref = (name: string, keyPath: string) => ({
  secretReference: { name, namespace: NS, keyPath },
});

function dataStore(tls: DataStore["spec"]["tlsConfig"]): DataStore {
  return {
    apiVersion: "kamaji.clastix.io/v1alpha1",
    kind: "DataStore",
    metadata: { name: "ds" },
    spec: {
      driver: "etcd",
      endpoints: ["etcd-client.tenant-a.svc:2379", "https://10.0.0.9:2379"],
      tlsConfig: tls,
    },
  };
}

describe("DataStore ContentRefs (envtest)", () => {
  const env = useEnv();
  before(async () => {
    const secret = (name: string, data: Record<string, string>) =>
      env.client.create({ ...SECRET, metadata: { name, namespace: NS }, data });
    await secret("ca", { "tls.crt": b64("CA CERT"), "tls.key": b64("CA KEY") });
    await secret("root", { "tls.crt": b64("ROOT CERT"), "tls.key": b64("ROOT KEY"), empty: "" });
  });

  it("reads inline content and a Secret's key", async () => {
    assert.equal(
      (await resolveContentRef(env.client, { content: b64("inline") })).toString(),
      "inline",
    );
    assert.equal((await resolveContentRef(env.client, ref("ca", "tls.key"))).toString(), "CA KEY");
  });

  it("says which Secret or key is missing", async () => {
    const missing = async (
      r: Parameters<typeof resolveContentRef>[1],
      reason: string,
      text: RegExp,
    ) =>
      assert.rejects(resolveContentRef(env.client, r, "spec.x"), (e: unknown) => {
        assert.ok(e instanceof ContentRefMissingError, String(e));
        assert.equal(e.reason, reason);
        assert.equal(e.field, "spec.x");
        assert.match(e.message, text);
        return true;
      });
    await missing(undefined, "NoContent", /spec\.x: neither content nor secretReference/);
    await missing({}, "NoContent", /neither/);
    await missing(ref("gone", "tls.crt"), "SecretNotFound", /Secret default\/gone not found/);
    await missing(ref("ca", "ca.crt"), "KeyNotFound", /Secret default\/ca has no key "ca\.crt"/);
    await missing(ref("root", "empty"), "KeyNotFound", /has no key "empty"/);
  });

  it("an API that does not answer is unreadable, not missing", async () => {
    const down = createHttpClient({ server: "http://127.0.0.1:9", userAgent: "content-ref-test" });
    try {
      await assert.rejects(
        resolveContentRef(down, ref("ca", "tls.crt"), "spec.y"),
        (e: unknown) => {
          assert.ok(e instanceof ContentRefUnreadableError, String(e));
          assert.deepEqual(e.secret, { namespace: NS, name: "ca", key: "tls.crt" });
          assert.match(e.message, /cannot read spec\.y: Secret default\/ca/);
          return true;
        },
      );
    } finally {
      down.close();
    }
  });

  it("resolves a DataStore's connection; a missing piece names its field", async () => {
    const tls = {
      certificateAuthority: {
        certificate: { content: b64("CA CERT") },
        privateKey: ref("ca", "tls.key"),
      },
      clientCertificate: {
        certificate: ref("root", "tls.crt"),
        privateKey: ref("root", "tls.key"),
      },
    };
    const conn = await resolveDataStore(env.client, dataStore(tls), {
      dialAddress: (a) => (a.startsWith("etcd-client.") ? "10.96.0.7:2379" : a),
    });
    assert.deepEqual(conn, {
      dataStore: "ds",
      endpoints: ["https://10.96.0.7:2379", "https://10.0.0.9:2379"],
      root: { caPem: "CA CERT", certPem: "ROOT CERT", keyPem: "ROOT KEY" },
      ca: { certPem: "CA CERT", keyPem: "CA KEY" },
    });
    const noKey = {
      ...tls,
      clientCertificate: { ...tls.clientCertificate, privateKey: ref("root", "key") },
    };
    await assert.rejects(
      resolveDataStore(env.client, dataStore(noKey)),
      (e: unknown) =>
        e instanceof ContentRefMissingError &&
        e.field === "spec.tlsConfig.clientCertificate.privateKey" &&
        e.secret?.name === "root" &&
        e.secret.key === "key",
    );
    const { privateKey: _, ...caOnly } = tls.certificateAuthority;
    await assert.rejects(
      resolveDataStore(env.client, dataStore({ ...tls, certificateAuthority: caOnly })),
      /spec\.tlsConfig\.certificateAuthority\.privateKey: neither content nor secretReference/,
    );
    const mysql: DataStore = {
      ...dataStore(tls),
      spec: { ...dataStore(tls).spec, driver: "MySQL" },
    };
    await assert.rejects(resolveDataStore(env.client, mysql), UnsupportedDriverError);
  });
});
