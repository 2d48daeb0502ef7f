import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileDefragRule, DEFAULT_DEFRAG_RULE, ETCD_DEFAULT_QUOTA_BYTES } from "./defrag-rule.js";

const MiB = 1024n * 1024n;
const quota = ETCD_DEFAULT_QUOTA_BYTES;

describe("compileDefragRule", () => {
  const rule = compileDefragRule(DEFAULT_DEFRAG_RULE);

  it("matches when over 80 % of the quota is used", () => {
    assert.equal(
      rule.matches({
        dbSize: (quota * 81n) / 100n,
        dbSizeInUse: (quota * 81n) / 100n,
        dbQuota: quota,
      }),
      true,
    );
    assert.equal(
      rule.matches({
        dbSize: (quota * 79n) / 100n,
        dbSizeInUse: (quota * 79n) / 100n,
        dbQuota: quota,
      }),
      false,
    );
  });

  it("matches when more than 200 MiB could be freed", () => {
    assert.equal(
      rule.matches({ dbSize: 300n * MiB, dbSizeInUse: 99n * MiB, dbQuota: quota }),
      true,
    );
    assert.equal(
      rule.matches({ dbSize: 300n * MiB, dbSizeInUse: 100n * MiB, dbQuota: quota }),
      false,
    );
  });

  it("computes dbQuotaUsage from the quota it is given", () => {
    const usage = compileDefragRule("dbQuotaUsage >= 0.5");
    assert.equal(usage.matches({ dbSize: 50n, dbSizeInUse: 50n, dbQuota: 100n }), true);
    assert.equal(usage.matches({ dbSize: 50n, dbSizeInUse: 50n, dbQuota: 101n }), false);
  });

  it("refuses a rule that does not parse, names unknown variables or is not a bool", () => {
    assert.throws(
      () => compileDefragRule("dbSize >"),
      /invalid --defrag-rule "dbSize >": .*variables: dbSize/,
    );
    assert.throws(() => compileDefragRule("dbsize > 1"), /invalid --defrag-rule "dbsize > 1"/);
    assert.throws(() => compileDefragRule("dbSize - dbSizeInUse"), /yields an int, not a bool/);
  });
});
