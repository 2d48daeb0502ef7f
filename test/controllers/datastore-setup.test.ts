/**
 * A control plane's datastore setup on a real etcd (TLS, --client-cert-auth,
 * a root user, auth enabled), checked with the real etcdctl and each tenant's
 * own client certificate (CN = its user): tenants `t1`, `t1x` (its name
 * extends t1's) and `t2` each read and write only under `/<schema>/`; removing
 * t1 leaves no key under `/t1/`, no role, no user, and every key of `/t1x/`
 * and of the bare `/t1` (Kamaji #201). ensure and remove are idempotent. The
 * DataStore's connection is read from Secrets on an envtest apiserver.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  authEnforced,
  type DataStore,
  type DataStoreConnection,
  EtcdTenantStore,
  InvalidTenantSetupError,
  issueDataStoreClientCertificate,
  resolveDataStore,
} from "../../src/platform/datastore/index.js";
import { SECRET } from "../support/core-objects.js";
import { type Env, startEnv } from "../support/envtest.js";
import { type CertFiles, etcdctl } from "../support/etcd-cluster.js";
import { type EtcdProcess, randomLoopback, startEtcd } from "../support/etcd-process.js";

const NS = "default";
const TENANTS = {
  t1: { schema: "t1", user: "user-t1" },
  t1x: { schema: "t1x", user: "user-t1x" },
  t2: { schema: "t2", user: "user-t2" },
};
type Tenant = keyof typeof TENANTS;
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("datastore setup (real etcd with auth, real etcdctl)", () => {
  let etcd: EtcdProcess;
  let env: Env;
  let conn: DataStoreConnection;
  let store: EtcdTenantStore;
  let dir: string;
  /** What the auth probe said before auth was enabled. */
  let openBefore = false;
  const files = new Map<string, CertFiles>();

  const ctl = (who: string, ...args: string[]) => etcdctl(etcd.endpoint, files.get(who)!, args);
  const ok = async (who: string, ...args: string[]) => {
    const r = await ctl(who, ...args);
    assert.equal(r.code, 0, `etcdctl ${args.join(" ")} as ${who}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const denied = async (who: string, ...args: string[]) => {
    const r = await ctl(who, ...args);
    assert.notEqual(r.code, 0, `etcdctl ${args.join(" ")} as ${who} should fail: ${r.stdout}`);
    assert.match(r.stderr, /permission denied/, `etcdctl ${args.join(" ")} as ${who}`);
  };
  const keys = async (prefix: string) =>
    (await ok("root", "get", "--prefix", "--keys-only", prefix)).split("\n").filter(Boolean);

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "hearth-ds-setup-"));
    etcd = await startEtcd({ tls: true });
    const tls = etcd.tls!;
    files.set("root", { dir, cacert: tls.caFile, cert: tls.certFile, key: tls.keyFile });
    // The DataStore's credentials as the Etcd app gives them: Secrets by reference.
    env = await startEnv();
    const secret = (name: string, cert: string, key: string) =>
      env.client.create({
        ...SECRET,
        metadata: { name, namespace: NS },
        data: { "tls.crt": b64(cert), "tls.key": b64(key) },
      });
    await secret("etcd-ca-tls", tls.caPem, tls.caKeyPem);
    await secret("etcd-client-tls", tls.certPem, tls.keyPem);
    // A certificate and its key, both from one kubernetes.io/tls-shaped Secret.
    const fromSecret = (name: string) => {
      const key = (keyPath: string) => ({ secretReference: { name, namespace: NS, keyPath } });
      return { certificate: key("tls.crt"), privateKey: key("tls.key") };
    };
    const ds: DataStore = {
      apiVersion: "kamaji.clastix.io/v1alpha1",
      kind: "DataStore",
      metadata: { name: "shared" },
      spec: {
        driver: "etcd",
        endpoints: [`${etcd.address}:2379`],
        tlsConfig: {
          certificateAuthority: fromSecret("etcd-ca-tls"),
          clientCertificate: fromSecret("etcd-client-tls"),
        },
      },
    };
    conn = await resolveDataStore(env.client, ds);
    openBefore = !(await authEnforced(conn));
    await ok("root", "role", "add", "root");
    await ok("root", "user", "add", "root", "--no-password");
    await ok("root", "user", "grant-role", "root", "root");
    await ok("root", "auth", "enable");
    store = await EtcdTenantStore.connect(conn);
    for (const [name, t] of Object.entries(TENANTS)) {
      const pair = await issueDataStoreClientCertificate(conn.ca, t.user);
      const cert = join(dir, `${name}.crt`);
      const key = join(dir, `${name}.key`);
      writeFileSync(cert, pair.certPem);
      writeFileSync(key, pair.keyPem, { mode: 0o600 });
      files.set(name, { dir, cacert: tls.caFile, cert, key });
    }
  });
  after(async () => {
    store?.close();
    await env?.stop();
    await etcd?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the auth probe tells an etcd that enforces roles from one that does not", async () => {
    assert.ok(openBefore, "before `auth enable` any CA-signed certificate reads");
    assert.equal(await authEnforced(conn), true);
  });

  it("each tenant reads and writes only under /<schema>/", async () => {
    for (const t of Object.values(TENANTS)) await store.ensure(t);
    // ensure is idempotent: a second pass changes nothing and fails nothing.
    for (const t of Object.values(TENANTS)) await store.ensure(t);
    for (const name of Object.keys(TENANTS) as Tenant[]) {
      await ok(name, "put", `/${name}/registry/a`, `${name}-a`);
      await ok(name, "put", `/${name}/registry/b`, `${name}-b`);
      assert.equal(await ok(name, "get", "--print-value-only", `/${name}/registry/a`), `${name}-a`);
    }
    await ok("root", "put", "/t1", "bare, not t1's");
    for (const [who, other] of [
      ["t1", "t2"],
      ["t1", "t1x"],
      ["t1x", "t1"],
      ["t2", "t1"],
    ] as const) {
      await denied(who, "get", `/${other}/registry/a`);
      await denied(who, "put", `/${other}/registry/a`, "stolen");
      await denied(who, "get", "--prefix", `/${other}/`);
    }
    await denied("t1", "get", "/t1");
    await denied("t1", "get", "--prefix", "/t1");
    await denied("t1", "del", "--prefix", "/t1");
    assert.equal(
      await ok("t1", "get", "--prefix", "--keys-only", "/t1/"),
      "/t1/registry/a\n\n/t1/registry/b",
    );
  });

  it("ensure narrows a role that was widened and drops roles granted beside it", async () => {
    await ok("root", "role", "grant-permission", "t2", "readwrite", "/", "--prefix");
    await ok("root", "role", "add", "spare");
    await ok("root", "role", "grant-permission", "spare", "read", "/t1x/", "--prefix");
    await ok("root", "user", "grant-role", "user-t2", "spare");
    assert.equal(await ok("t2", "get", "--print-value-only", "/t1x/registry/a"), "t1x-a");
    await store.ensure(TENANTS.t2);
    await denied("t2", "get", "/t1x/registry/a");
    await denied("t2", "get", "--prefix", "/");
    assert.equal(await ok("t2", "get", "--print-value-only", "/t2/registry/a"), "t2-a");
    assert.match(await ok("root", "user", "get", "user-t2"), /Roles: t2$/m);
  });

  it("counts and digests a prefix at one revision", async () => {
    assert.equal(await store.keyCount("/t1x/"), 2);
    const d = await store.digest("/t1x/");
    assert.equal(d.count, 2);
    assert.deepEqual(await store.digest("/t1x/"), d, "same data, same digest");
    await ok("t1x", "put", "/t1x/registry/b", "changed");
    const changed = await store.digest("/t1x/");
    assert.equal(changed.count, 2);
    assert.notEqual(changed.sha256, d.sha256);
    assert.equal((await store.digest("/none/")).count, 0);
  });

  it("remove(t1) leaves no key, role or user of t1, and every key of /t1x/ and /t1", async () => {
    const t1x = await keys("/t1x/");
    assert.equal(t1x.length, 2);
    await store.remove(TENANTS.t1);
    assert.deepEqual(await keys("/t1/"), []);
    assert.deepEqual(
      await keys("/t1x/"),
      t1x,
      "the neighbour whose name extends t1's keeps its keys",
    );
    assert.equal(await ok("root", "get", "--print-value-only", "/t1"), "bare, not t1's");
    assert.ok(!(await ok("root", "role", "list")).split("\n").includes("t1"));
    assert.ok(!(await ok("root", "user", "list")).split("\n").includes("user-t1"));
    const r = await ctl("t1", "get", "/t1/registry/a");
    assert.notEqual(r.code, 0, "t1's certificate no longer reaches anything");
    // Others keep working.
    assert.equal(await ok("t1x", "get", "--print-value-only", "/t1x/registry/a"), "t1x-a");
    // Idempotent, and fine for a tenant never set up.
    await store.remove(TENANTS.t1);
    await store.remove({ schema: "never", user: "never-user" });
    // Set up again after removal: a fresh, empty prefix.
    await store.ensure(TENANTS.t1);
    assert.equal(await ok("t1", "get", "--prefix", "--keys-only", "/t1/"), "");
    await ok("t1", "put", "/t1/registry/again", "yes");
  });

  it("refuses root and a schema with a slash, changing nothing", async () => {
    await assert.rejects(store.ensure({ schema: "root", user: "x" }), InvalidTenantSetupError);
    await assert.rejects(store.remove({ schema: "t2", user: "root" }), InvalidTenantSetupError);
    await assert.rejects(store.ensure({ schema: "t1/", user: "x" }), InvalidTenantSetupError);
    assert.match(await ok("root", "user", "get", "root"), /Roles: root/);
    assert.deepEqual(await keys("/t2/"), ["/t2/registry/a", "/t2/registry/b"]);
  });

  it("an unreachable DataStore fails ensure and remove within the call deadline, never hangs", async () => {
    const gone = await EtcdTenantStore.connect(
      { ...conn, endpoints: [`https://${randomLoopback()}:2379`] },
      1_000,
    );
    try {
      const started = Date.now();
      await assert.rejects(gone.remove(TENANTS.t2));
      await assert.rejects(gone.ensure(TENANTS.t2));
      assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    } finally {
      gone.close();
    }
    assert.deepEqual(await keys("/t2/"), ["/t2/registry/a", "/t2/registry/b"]);
  });
});
