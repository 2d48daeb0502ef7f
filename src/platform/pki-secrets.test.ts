import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../api/index.js";
import { AlreadyExistsError, ConflictError, NotFoundError } from "../api/index.js";
import type { ObjectRef } from "../client/index.js";
import { inspectCert, signedBy } from "../pki/index.js";
import {
  ensureCASecret,
  ensureLeafSecret,
  type SecretClient,
  secretPems,
  type TlsSecret,
} from "./pki-secrets.js";

/** Secrets in a Map with resourceVersion checks; counts writes. */
class Secrets implements SecretClient {
  readonly objects = new Map<string, TlsSecret>();
  writes = 0;
  private rv = 0;
  async get<T extends KubeObject>({ name, namespace: ns }: ObjectRef): Promise<T> {
    const o = this.objects.get(`${ns}/${name}`);
    if (!o) throw new NotFoundError({ group: "", resource: "secrets", name });
    return structuredClone(o) as unknown as T;
  }
  async create<T extends KubeObject>(obj: T): Promise<T> {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    if (this.objects.has(key))
      throw new AlreadyExistsError({ group: "", resource: "secrets", name: obj.metadata.name! });
    return this.store(key, obj);
  }
  async update<T extends KubeObject>(obj: T): Promise<T> {
    const key = `${obj.metadata.namespace}/${obj.metadata.name}`;
    if (this.objects.get(key)?.metadata.resourceVersion !== obj.metadata.resourceVersion)
      throw new ConflictError(
        { group: "", resource: "secrets", name: obj.metadata.name! },
        "stale",
      );
    return this.store(key, obj);
  }
  private store<T extends KubeObject>(key: string, obj: T): T {
    this.writes++;
    const stored = {
      ...structuredClone(obj),
      metadata: { ...obj.metadata, resourceVersion: String(++this.rv) },
    };
    this.objects.set(key, stored as TlsSecret);
    return structuredClone(stored);
  }
}

const target = {
  namespace: "ns",
  name: "etcd-ca-tls",
  labels: { "etcd.hearth.io/cluster": "etcd" },
};
const owner = {
  apiVersion: "etcd.hearth.io/v1alpha1",
  kind: "EtcdCluster",
  name: "etcd",
  uid: "u1",
};
const serverWanted = {
  commonName: "etcd",
  dnsNames: ["etcd-client", "etcd-client.ns.svc"],
  ipAddresses: ["127.2.0.10"],
  usage: ["server", "client"] as ("server" | "client")[],
};

describe("certificates in Secrets", () => {
  it("creates a CA Secret once, unowned, in cert-manager's layout, and reuses it", async () => {
    const c = new Secrets();
    const ca = await ensureCASecret(c, { ...target, owner }, "etcd-ca");
    const s = c.objects.get("ns/etcd-ca-tls")!;
    assert.equal(s.type, "kubernetes.io/tls");
    assert.deepEqual(Object.keys(s.data!).sort(), ["ca.crt", "tls.crt", "tls.key"]);
    assert.equal(s.metadata.ownerReferences, undefined, "a CA outlives its users");
    assert.deepEqual(s.metadata.labels, target.labels);
    assert.equal(secretPems(s).ca, ca.certPem);
    assert.equal(inspectCert(ca.certPem).isCA, true);
    const again = await ensureCASecret(c, target, "etcd-ca");
    assert.equal(again.certPem, ca.certPem);
    assert.equal(c.writes, 1);
  });

  it("refuses a CA Secret without its key rather than replacing the trust root", async () => {
    const c = new Secrets();
    await c.create({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "etcd-ca-tls", namespace: "ns" },
      data: {},
    } as TlsSecret);
    await assert.rejects(ensureCASecret(c, target, "etcd-ca"), /lacks tls.crt or tls.key/);
  });

  it("issues a leaf once, and again only when the wanted SANs or the CA change", async () => {
    const c = new Secrets();
    const ca = await ensureCASecret(c, target, "etcd-ca");
    const leaf = { namespace: "ns", name: "etcd-server-tls", owner };
    assert.equal(await ensureLeafSecret(c, leaf, ca, serverWanted), "absent");
    const first = c.objects.get("ns/etcd-server-tls")!;
    assert.deepEqual(first.metadata.ownerReferences, [owner]);
    const pems = secretPems(first);
    assert.equal(pems.ca, ca.certPem);
    assert.ok(await signedBy(pems.cert, ca.certPem));
    assert.deepEqual(inspectCert(pems.cert).ipAddresses, ["127.2.0.10"]);

    assert.equal(await ensureLeafSecret(c, leaf, ca, serverWanted), undefined, "still fits");
    assert.equal(c.writes, 2);

    const more = { ...serverWanted, ipAddresses: ["127.2.0.10", "127.2.0.11"] };
    assert.equal(await ensureLeafSecret(c, leaf, ca, more), "SANs lack 127.2.0.11");
    const second = secretPems(c.objects.get("ns/etcd-server-tls")!);
    assert.deepEqual(inspectCert(second.cert).ipAddresses, ["127.2.0.10", "127.2.0.11"]);
    assert.notEqual(second.key, pems.key, "a new key with the new certificate");
    assert.deepEqual(c.objects.get("ns/etcd-server-tls")!.metadata.ownerReferences, [owner]);

    const newCa = await ensureCASecret(c, { ...target, name: "other-ca" }, "etcd-ca");
    assert.equal(await ensureLeafSecret(c, leaf, newCa, more), "not signed by the current CA");
    assert.ok(await signedBy(secretPems(c.objects.get("ns/etcd-server-tls")!).cert, newCa.certPem));
  });

  it("issues a client certificate with its CN and client usage only", async () => {
    const c = new Secrets();
    const ca = await ensureCASecret(c, target, "etcd-ca");
    await ensureLeafSecret(c, { namespace: "ns", name: "etcd-client-tls" }, ca, {
      commonName: "root",
      usage: ["client"],
    });
    const info = inspectCert(secretPems(c.objects.get("ns/etcd-client-tls")!).cert);
    assert.equal(info.commonName, "root");
    assert.deepEqual(info.usage, ["client"]);
    assert.equal(
      await ensureLeafSecret(c, { namespace: "ns", name: "etcd-client-tls" }, ca, {
        commonName: "a",
        usage: ["client"],
      }),
      'CN is "root", want "a"',
    );
  });
});
