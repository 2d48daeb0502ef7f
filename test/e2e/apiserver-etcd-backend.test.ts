/**
 * The etcd Backend against the real etcd: the shared backend suite (a fresh
 * etcd for each test, as the suite expects a store of its own), then over TLS
 * as a prefix-limited etcd user (roles set through etcd's auth API, the user
 * named by its client certificate's CN), and what only a shared store shows:
 * two backends on one etcd see each other's writes and conflicts, and etcd's
 * request size limit surfaces as 413. (It lives under test/ because it drives
 * the etcd fixture, which src/ may not import.)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Etcd3, Range } from "etcd3";
import { RequestEntityTooLargeError } from "../../src/api/errors.js";
import { createCA, issueLeaf } from "../../src/pki/index.js";
import type { Backend } from "../../src/storage/backend.js";
import { CompactedError, KeyExistsError, RevisionMismatchError } from "../../src/storage/errors.js";
import { type EtcdBackend, openEtcdBackend } from "../../src/storage/index.js";
import { type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { runBackendSuite } from "../support/storage-suite/backend-suite.js";
import { crudTests } from "../support/storage-suite/crud-tests.js";
import { Recorder } from "../support/storage-suite/helpers.js";
import { listTests } from "../support/storage-suite/list-tests.js";
import { watchTests } from "../support/storage-suite/watch-tests.js";

/** A backend on an etcd of its own; closing the backend stops that etcd. */
async function onFreshEtcd(): Promise<Backend> {
  const etcd = await startEtcd();
  const backend = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: "/hearth" });
  const close = backend.close.bind(backend);
  backend.close = async () => {
    await close();
    await etcd.stop();
  };
  return backend;
}

// One etcd for every case that stays within its own prefix (each test a fresh
// one); compaction is cluster-wide, so its cases get an etcd each.
let shared: EtcdProcess | undefined;
let sharedPrefixes = 0;
before(async () => {
  shared = await startEtcd();
});
after(async () => {
  await shared?.stop();
});
const onSharedEtcd = () =>
  openEtcdBackend({ endpoints: [shared!.endpoint], prefix: `/suite-${++sharedPrefixes}` });

runBackendSuite("etcd", onSharedEtcd, { openForCompaction: onFreshEtcd });

describe("etcd backend over TLS as a prefix-limited user", () => {
  let etcd: EtcdProcess;
  let tenant: { cert: string; key: string };
  let prefixes = 0;

  before(async () => {
    etcd = await startEtcd({ tls: true });
    const tls = etcd.tls!;
    const root = new Etcd3({
      hosts: etcd.endpoint,
      credentials: {
        rootCertificate: Buffer.from(tls.caPem),
        certChain: Buffer.from(tls.certPem),
        privateKey: Buffer.from(tls.keyPem),
      },
    });
    try {
      await root.role("root").create();
      await root.user("root").create("unused-root-password");
      await root.user("root").addRole("root");
      await root.role("tenant-a").create();
      await root
        .role("tenant-a")
        .grant({ permission: "Readwrite", range: Range.prefix("/tenant-a/") });
      await root.user("tenant-a").create("unused-tenant-password");
      await root.user("tenant-a").addRole("tenant-a");
      await root.auth.authEnable();
    } finally {
      root.close();
    }
    const leaf = await issueLeaf(
      { certPem: tls.caPem, keyPem: tls.caKeyPem },
      { commonName: "tenant-a", usage: ["client"] },
    );
    tenant = { cert: leaf.certPem, key: leaf.keyPem };
  });
  after(async () => {
    await etcd?.stop();
  });

  const openTenant = (prefix: string) =>
    openEtcdBackend({
      endpoints: [etcd.endpoint],
      prefix,
      tls: { ca: etcd.tls!.caFile, ...tenant },
      compact: false,
    });
  const open = () => openTenant(`/tenant-a/run-${++prefixes}`);

  describe("keys", () => crudTests(open));
  describe("list and count", () => listTests(open));
  describe("watch", () => watchTests(open));

  it("cannot touch keys outside its prefix", async () => {
    await assert.rejects(openTenant("/tenant-b"), /permission denied/);
    const inside = await open();
    try {
      // A key is always under the prefix; the prefix itself cannot be escaped.
      await inside.create("/../../tenant-b/x", "v");
      assert.equal((await inside.list("")).items.length, 1);
    } finally {
      await inside.close();
    }
  });

  it("leaves compaction to etcd: compact() changes nothing", async () => {
    const b = await open();
    try {
      const one = await b.create("/a/1", "one");
      await b.update("/a/1", "two", one.modRevision);
      await b.compact(await b.currentRevision());
      assert.equal(await b.compactedRevision(), 0);
      const old = await b.list("/a/", { revision: one.modRevision });
      assert.deepEqual(old.items, [one]);
    } finally {
      await b.close();
    }
  });

  it("refuses a server certificate from another CA", async () => {
    const otherCa = await createCA("other-ca");
    await assert.rejects(
      openEtcdBackend({
        endpoints: [etcd.endpoint],
        prefix: "/tenant-a/x",
        tls: { ca: otherCa.certPem, ...tenant },
      }),
    );
  });
});

describe("two etcd backends on one etcd", () => {
  let etcd: EtcdProcess;
  let a: EtcdBackend;
  let b: EtcdBackend;

  before(async () => {
    etcd = await startEtcd();
    a = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: "/shared" });
    b = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: "/shared" });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await etcd?.stop();
  });

  it("see each other's writes, watches and conflicts", async () => {
    const rec = new Recorder();
    await b.watch("/k/", rec.options(await b.currentRevision()), rec.signal);
    const created = await a.create("/k/1", "one");
    assert.deepEqual(await b.get("/k/1"), created);
    await assert.rejects(b.create("/k/1", "again"), KeyExistsError);
    const updated = await b.update("/k/1", "two", created.modRevision);
    const stale = await a.update("/k/1", "three", created.modRevision).catch((e: unknown) => e);
    assert.ok(stale instanceof RevisionMismatchError);
    assert.deepEqual(stale.current, updated);
    const events = await rec.waitForEvents(2);
    assert.deepEqual(
      events.map((e) => e.kv),
      [created, updated],
    );
    rec.controller.abort();
  });

  it("learns a compaction made through the other one", async () => {
    const kv = await a.create("/c/1", "one");
    await a.update("/c/1", "two", kv.modRevision);
    const at = await a.currentRevision();
    await a.compact(at);
    const error = await b.list("/c/", { revision: kv.modRevision }).catch((e: unknown) => e);
    assert.ok(error instanceof Error && error.name === "CompactedError");
    assert.ok((await b.compactedRevision()) > kv.modRevision);
    // Compacting again through b (already done by a) is not an error.
    await b.compact(at);
  });

  it("refuses a watch from before a compaction it has not seen made", async () => {
    const kv = await a.create("/w/1", "one");
    await a.update("/w/1", "two", kv.modRevision);
    await a.compact(await a.currentRevision());
    const fresh = await openEtcdBackend({ endpoints: [etcd.endpoint], prefix: "/shared" });
    try {
      assert.equal(await fresh.compactedRevision(), 0, "it has not learned of the compaction");
      const rec = new Recorder();
      const error = await fresh
        .watch("/w/", rec.options(kv.modRevision), rec.signal)
        .catch((e: unknown) => e);
      assert.ok(error instanceof CompactedError, `rejected, not ${String(error)}`);
      assert.equal(error.requested, kv.modRevision);
      assert.ok(error.compacted > kv.modRevision);
      assert.deepEqual(rec.events, []);
      assert.deepEqual(rec.errors, []);
    } finally {
      await fresh.close();
    }
  });

  it("turns etcd's request size limit into 413 RequestEntityTooLarge", async () => {
    // Refused before it is sent: over 1.5 MiB, and far over it.
    for (const size of [1.6, 3]) {
      const big = "x".repeat(size * 1024 * 1024);
      await assert.rejects(a.create("/big", big), RequestEntityTooLargeError);
    }
    // Refused by etcd itself: under the client's bound, over etcd's with the key and framing.
    const lax = await openEtcdBackend({
      endpoints: [etcd.endpoint],
      prefix: "/shared",
      maxValueBytes: 1.6 * 1024 * 1024,
    });
    try {
      await assert.rejects(
        lax.create("/big", "x".repeat(1.55 * 1024 * 1024)),
        RequestEntityTooLargeError,
      );
      // The connection stays healthy after a refusal.
      assert.equal(await lax.get("/big"), undefined);
    } finally {
      await lax.close();
    }
    assert.equal(await a.get("/big"), undefined);
  });
});
