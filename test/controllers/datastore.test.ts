/**
 * The DataStore controller on the envtest tier with a real etcd (TLS,
 * client-certificate auth, etcd auth on with a root user, as the Etcd app's
 * clusters run): Ready=True only once etcd answers as root; Ready=False
 * naming the missing Secret and key (and True once the Secret appears, from
 * the Secret's event), Unreachable naming a dead endpoint, Unauthenticated
 * for a certificate whose CN is no etcd user, UnsupportedDriver for Kamaji's
 * MySQL sample; `usedBy` follows TenantControlPlanes created, moved and
 * deleted (their status written by the test: no TCP controller exists yet);
 * a DataStore deleted while in use waits with DeletionAllowed=False naming
 * its users and goes once they are gone, and an unreachable one with no user
 * goes at once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/index.js";
import { createCA, issueLeaf } from "../../src/pki/index.js";
import {
  DATASTORE,
  DATASTORE_CRD,
  DATASTORE_FINALIZER,
  type DataStore,
  registerDataStoreController,
} from "../../src/platform/datastore/index.js";
import { TENANT_CONTROL_PLANE, TENANT_CONTROL_PLANE_CRD } from "../../src/platform/kamaji/index.js";
import type { Condition } from "../../src/runtime/index.js";
import { type ManagerRun, runManager } from "../support/controller-run.js";
import {
  createNamespace,
  getOrGone,
  SECRET,
  waitForObject,
  waitGone,
} from "../support/core-objects.js";
import { type Env, startEnv } from "../support/envtest.js";
import { type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { run, waitFor } from "../support/hearth-process.js";

const NS = "kamaji-system";
const b64 = (s: string) => Buffer.from(s).toString("base64");
const key = (name: string, keyPath: string) => ({
  secretReference: { name, namespace: NS, keyPath },
});

function dataStore(name: string, endpoints: string[], client = "root-client-certs"): DataStore {
  return {
    ...DATASTORE,
    metadata: { name },
    spec: {
      driver: "etcd",
      endpoints,
      tlsConfig: {
        certificateAuthority: {
          certificate: key("etcd-certs", "ca.crt"),
          privateKey: key("etcd-certs", "ca.key"),
        },
        clientCertificate: {
          certificate: key(client, "tls.crt"),
          privateKey: key(client, "tls.key"),
        },
      },
    },
  };
}

const ready = (ds: DataStore | undefined) =>
  (ds?.status?.conditions as Condition[] | undefined)?.find((c) => c.type === "Ready");

describe("DataStore controller (envtest, real etcd with TLS and auth)", () => {
  let env: Env;
  let etcd: EtcdProcess;
  let controller: ManagerRun<void>;
  let endpoint: string;
  const get = (name: string) => getOrGone<DataStore>(env.client, { ...DATASTORE, name });
  const waitReady = (name: string, status: string, reason: string, message?: RegExp) =>
    waitForObject(
      `DataStore ${name} Ready=${status} ${reason}`,
      () => get(name),
      (ds) => {
        const c = ready(ds);
        return c?.status === status && c.reason === reason && (!message || message.test(c.message));
      },
      30_000,
    );
  const secret = (name: string, data: Record<string, string>) =>
    env.client.create({ ...SECRET, metadata: { name, namespace: NS }, data } as KubeObject);
  const tcp = (name: string, dataStore: string) =>
    env.client.create({
      ...TENANT_CONTROL_PLANE,
      metadata: { name, namespace: "default" },
      spec: {
        dataStore,
        controlPlane: { service: { serviceType: "ClusterIP" } },
        kubernetes: { version: "v1.30.0" },
      },
    } as KubeObject);
  const usedBy = (name: string, users: string[]) =>
    waitForObject(
      `DataStore ${name} used by [${users}]`,
      () => get(name),
      (ds) => JSON.stringify(ds.status?.usedBy ?? []) === JSON.stringify(users),
    );

  before(async () => {
    etcd = await startEtcd({ tls: true });
    endpoint = `${etcd.address}:2379`;
    // Auth on, root by client certificate (as the etcd operator sets it up).
    const ctl = (...args: string[]) => run("etcdctl", [...etcd.etcdctlArgs(), ...args]);
    for (const args of [
      ["role", "add", "root"],
      ["user", "add", "root", "--no-password"],
      ["user", "grant-role", "root", "root"],
      ["user", "add", "alice", "--no-password"],
      ["auth", "enable"],
    ]) {
      const r = await ctl(...args);
      assert.equal(r.code, 0, `etcdctl ${args.join(" ")}: ${r.stderr}`);
    }
    env = await startEnv();
    await env.client.create(DATASTORE_CRD);
    await env.client.create(TENANT_CONTROL_PLANE_CRD);
    await waitFor("the kinds served", async () => {
      await env.client.list(DATASTORE);
      await env.client.list(TENANT_CONTROL_PLANE);
      return true;
    });
    await createNamespace(env.client, NS);
    const tls = etcd.tls!;
    await secret("etcd-certs", { "ca.crt": b64(tls.caPem), "ca.key": b64(tls.caKeyPem) });
    await secret("root-client-certs", { "tls.crt": b64(tls.certPem), "tls.key": b64(tls.keyPem) });
    const ca = { certPem: tls.caPem, keyPem: tls.caKeyPem };
    const nobody = await issueLeaf(ca, { commonName: "nobody", usage: ["client"] });
    await secret("nobody-certs", { "tls.crt": b64(nobody.certPem), "tls.key": b64(nobody.keyPem) });
    const alice = await issueLeaf(ca, { commonName: "alice", usage: ["client"] });
    await secret("alice-certs", { "tls.crt": b64(alice.certPem), "tls.key": b64(alice.keyPem) });
    const stranger = await issueLeaf(await createCA("other"), {
      commonName: "root",
      usage: ["client"],
    });
    await secret("stranger-certs", {
      "tls.crt": b64(stranger.certPem),
      "tls.key": b64(stranger.keyPem),
    });
    controller = await runManager(env.client, (m) =>
      registerDataStoreController(m, { recheckMs: 1_000 }),
    );
  });
  after(async () => {
    await controller?.stop().catch(() => {});
    await env?.stop();
    await etcd?.stop();
  });

  it("is Ready once etcd answers as root, with its finalizer", async () => {
    await env.client.create(dataStore("good", [endpoint]));
    const ds = await waitReady("good", "True", "Authenticated", /answered at .* as user "root"/);
    assert.deepEqual(ds.metadata.finalizers, [DATASTORE_FINALIZER]);
    assert.equal(ds.status?.ready, true);
    assert.deepEqual(ds.status?.usedBy, []);
  });

  it("names a missing Secret and key, and becomes Ready when the Secret appears", async () => {
    await env.client.create(dataStore("late", [endpoint], "late-certs"));
    await waitReady(
      "late",
      "False",
      "SecretNotFound",
      /spec\.tlsConfig\.clientCertificate\.certificate: Secret kamaji-system\/late-certs not found \(key "tls\.crt"\)/,
    );
    await secret("late-certs", { "tls.crt": b64(etcd.tls!.certPem) });
    await waitReady("late", "False", "SecretNotFound", /late-certs has no key "tls\.key"/);
    await env.client.patch(
      { ...SECRET, namespace: NS, name: "late-certs" },
      { data: { "tls.key": b64(etcd.tls!.keyPem) } },
      { type: "merge" },
    );
    await waitReady("late", "True", "Authenticated");
  });

  it("is Unreachable naming a dead endpoint, and says which endpoints answered", async () => {
    const dead = "127.0.0.1:9";
    await env.client.create(dataStore("dead", [dead]));
    await waitReady(
      "dead",
      "False",
      "Unreachable",
      /no endpoint answered: 127\.0\.0\.1:9: .*ECONNREFUSED/,
    );
    await env.client.create(dataStore("half", [endpoint, dead]));
    await waitReady("half", "True", "Authenticated", /not answering: 127\.0\.0\.1:9/);
  });

  it("is Unauthenticated for a user etcd does not know or a certificate of another CA, PermissionDenied for a non-root user", async () => {
    await env.client.create(dataStore("nobody", [endpoint], "nobody-certs"));
    await waitReady("nobody", "False", "Unauthenticated", /no user "nobody"/);
    await env.client.create(dataStore("stranger", [endpoint], "stranger-certs"));
    await waitReady("stranger", "False", "Unauthenticated", /certificate/);
    await env.client.create(dataStore("alice", [endpoint], "alice-certs"));
    await waitReady("alice", "False", "PermissionDenied", /"alice" may not manage users and roles/);
  });

  it("accepts other drivers and says Hearth runs etcd only", async () => {
    await env.client.create({
      ...DATASTORE,
      metadata: { name: "mysql-bronze" },
      spec: {
        driver: "MySQL",
        endpoints: ["bronze.mysql-system.svc:3306"],
        basicAuth: { username: { content: b64("root") }, password: { content: b64("x") } },
      },
    } as DataStore);
    await waitReady("mysql-bronze", "False", "UnsupportedDriver", /MySQL is not supported/);
  });

  it("lists the control planes that use it in usedBy, by status first, then spec", async () => {
    await env.client.create(dataStore("shared", [endpoint]));
    await env.client.create(dataStore("target", [endpoint]));
    await tcp("b", "shared");
    await tcp("a", "shared");
    await usedBy("shared", ["default/a", "default/b"]);
    // Set up on `target` (as the TCP controller records it): it counts there, whatever the spec says.
    await env.client.patchStatus(
      { ...TENANT_CONTROL_PLANE, namespace: "default", name: "b" },
      { status: { storage: { driver: "etcd", dataStoreName: "target" } } },
      { type: "merge" },
    );
    await usedBy("shared", ["default/a"]);
    await usedBy("target", ["default/b"]);
    await env.client.delete({ ...TENANT_CONTROL_PLANE, namespace: "default", name: "a" });
    await usedBy("shared", []);
  });

  it("waits while in use, naming its users, and goes once they are gone", async () => {
    await env.client.create(dataStore("busy", [endpoint]));
    await waitReady("busy", "True", "Authenticated");
    await tcp("x", "busy");
    await tcp("y", "busy");
    await usedBy("busy", ["default/x", "default/y"]);
    await env.client.delete({ ...DATASTORE, name: "busy" });
    const waiting = await waitForObject(
      "DataStore busy waiting for its users",
      () => get("busy"),
      (ds) =>
        (ds.status?.conditions as Condition[] | undefined)?.some(
          (c) =>
            c.type === "DeletionAllowed" &&
            c.status === "False" &&
            c.reason === "InUse" &&
            c.message === "waiting for 2 TenantControlPlanes to be deleted: default/x, default/y",
        ) === true,
    );
    assert.ok(waiting.metadata.deletionTimestamp);
    await env.client.delete({ ...TENANT_CONTROL_PLANE, namespace: "default", name: "x" });
    await waitForObject(
      "DataStore busy waiting for y only",
      () => get("busy"),
      (ds) => JSON.stringify(ds.status?.usedBy) === '["default/y"]',
    );
    assert.ok(await get("busy"), "still held by y");
    await env.client.delete({ ...TENANT_CONTROL_PLANE, namespace: "default", name: "y" });
    await waitGone(env.client, { ...DATASTORE, name: "busy" }, 20_000);
  });

  it("lets an unreachable DataStore with no user go at once", async () => {
    const ds = await get("dead");
    assert.deepEqual(ds?.metadata.finalizers, [DATASTORE_FINALIZER]);
    await env.client.delete({ ...DATASTORE, name: "dead" });
    await waitGone(env.client, { ...DATASTORE, name: "dead" }, 10_000);
  });
});
