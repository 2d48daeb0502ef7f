/**
 * `hearth etcd-defrag` against a real etcd with TLS and client-certificate
 * auth, checked with etcdctl: after large values are written and deleted, a
 * rule that does not match leaves the database file as it is (the compaction
 * only frees pages inside it), a matching rule defragments and dbSize shrinks
 * (the tests run in order: the last one finds the pages the first freed);
 * a bad rule or flag is refused with a message and a non-zero exit, and an
 * unreachable member makes the run fail.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ETCDCTL_BIN, type EtcdProcess, startEtcd } from "../support/etcd-process.js";
import { HEARTH_MAIN, type RunResult, run, waitFor } from "../support/hearth-process.js";

const MiB = 1024 * 1024;

interface Sizes {
  dbSize: number;
  dbSizeInUse: number;
}

describe("hearth etcd-defrag", () => {
  let etcd: EtcdProcess;
  const etcdctl = async (args: string[], input?: string) => {
    const r = await run(ETCDCTL_BIN, [...etcd.etcdctlArgs(), ...args], input ? { input } : {});
    assert.equal(r.code, 0, `etcdctl ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  const sizes = async (): Promise<Sizes> => {
    const [status] = JSON.parse(await etcdctl(["endpoint", "status", "-w", "json"])) as {
      Status: Sizes;
    }[];
    return status!.Status;
  };
  const defrag = (args: string[]): Promise<RunResult> => {
    const tls = etcd.tls!;
    return run(process.execPath, [
      HEARTH_MAIN,
      "etcd-defrag",
      `--endpoints=${etcd.endpoint}`,
      `--cacert=${tls.caFile}`,
      `--cert=${tls.certFile}`,
      `--key=${tls.keyFile}`,
      ...args,
    ]);
  };

  before(async () => {
    etcd = await startEtcd({ tls: true });
    const value = "x".repeat(MiB);
    for (let i = 0; i < 24; i++) await etcdctl(["put", `big/${i}`], value);
    await etcdctl(["del", "--prefix", "big/"]);
  });
  after(async () => {
    await etcd?.stop();
  });

  it("leaves a member alone when the rule does not match, after compacting", async () => {
    const before = await sizes();
    assert.ok(before.dbSize > 20 * MiB, `dbSize ${before.dbSize} after writing 24 MiB`);
    const r = await defrag([
      "--cluster",
      "--compaction",
      "--defrag-rule",
      "dbSize - dbSizeInUse > 1024*1024*1024",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /compacted the keyspace at revision \d+/);
    assert.match(
      r.stdout,
      new RegExp(`${etcd.endpoint} \\(member [0-9a-f]+, leader\\): .* skipped`),
    );
    // bbolt frees the compacted pages once a later write transaction commits
    // (etcd commits its batch every 100 ms): write until it has.
    let i = 0;
    const afterRun = await waitFor("the compaction's pages to be freed", async () => {
      await etcdctl(["put", "after-compaction", String(i++)]);
      const s = await sizes();
      return s.dbSize - s.dbSizeInUse > 20 * MiB && s;
    });
    assert.ok(afterRun.dbSize >= before.dbSize, "dbSize did not shrink without a defrag");
  });

  it("--dry-run says what it would do and does nothing", async () => {
    const before = await sizes();
    const r = await defrag(["--cluster", "--dry-run", "--defrag-rule", "dbSize > 0"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /would defragment/);
    assert.equal((await sizes()).dbSize, before.dbSize);
  });

  it("defragments a member the rule matches and dbSize shrinks", async () => {
    const before = await sizes();
    const r = await defrag([
      "--cluster",
      "--compaction",
      "--etcd-storage-quota-bytes",
      String(4 * 1024 * MiB),
      "--defrag-rule",
      "dbSize - dbSizeInUse > 10*1024*1024 && dbQuota == 4*1024*1024*1024",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /dbQuota=4294967296 defragmented → dbSize=\d+/);
    const afterRun = await sizes();
    assert.ok(
      afterRun.dbSize < before.dbSize - 20 * MiB,
      `dbSize ${before.dbSize} → ${afterRun.dbSize}`,
    );
  });

  it("refuses a bad rule or flag before contacting etcd", async () => {
    const bad = await defrag(["--defrag-rule", "dbSize >"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /invalid --defrag-rule "dbSize >"/);
    const unknown = await defrag(["--defrag-rule", "dbsize > 1"]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /invalid --defrag-rule "dbsize > 1"/);
    const quota = await defrag(["--etcd-storage-quota-bytes", "4Gi"]);
    assert.notEqual(quota.code, 0);
    assert.match(quota.stderr, /--etcd-storage-quota-bytes must be a positive integer, got "4Gi"/);
    const flag = await defrag(["--clustr"]);
    assert.notEqual(flag.code, 0);
    assert.match(flag.stderr, /unknown flag --clustr/);
  });

  it("fails with a non-zero exit when a member cannot be reached", async () => {
    const tls = etcd.tls!;
    const r = await run(process.execPath, [
      HEARTH_MAIN,
      "etcd-defrag",
      `--endpoints=${etcd.endpoint},https://127.0.0.1:1`,
      `--cacert=${tls.caFile}`,
      `--cert=${tls.certFile}`,
      `--key=${tls.keyFile}`,
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.stdout, /https:\/\/127\.0\.0\.1:1: failed: status:/);
    assert.match(r.stderr, /etcd-defrag failed on https:\/\/127\.0\.0\.1:1/);
  });
});
