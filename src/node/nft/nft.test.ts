import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { applyScript, deleteTable, NftError, tableContents, tableExists } from "./nft.js";
import { tableNameFor } from "./service-rules.js";

const TABLE = `hnu${process.pid}`;
const skip = process.getuid?.() === 0 ? false : "needs root (nftables)";

describe("the nft command", { skip }, () => {
  after(() => deleteTable(TABLE));

  it("applies a script, lists what the table holds, and deletes it; a missing table is no error", async () => {
    assert.equal(await tableExists(TABLE), false);
    assert.deepEqual(await tableContents(TABLE), { chains: [], sets: [], maps: [] });
    await applyScript(
      `add table ip ${TABLE}\nadd chain ip ${TABLE} c\nadd set ip ${TABLE} s { type ipv4_addr; }\n` +
        `add map ip ${TABLE} m { type ipv4_addr : verdict; }\n`,
    );
    assert.equal(await tableExists(TABLE), true);
    assert.deepEqual(await tableContents(TABLE), { chains: ["c"], sets: ["s"], maps: ["m"] });
    await deleteTable(TABLE);
    assert.equal(await tableExists(TABLE), false);
    await deleteTable(TABLE);
  });

  it("fails with nft's message and applies nothing of a script with an error", async () => {
    const script = `add table ip ${TABLE}\nadd chain ip ${TABLE} c\nadd rule ip ${TABLE} c goto nowhere\n`;
    const err = await applyScript(script).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof NftError, String(err));
    assert.match(err.stderr, /nowhere/);
    assert.equal(err.notFound, true);
    assert.equal(await tableExists(TABLE), false, "one transaction: the table was not made either");
    await assert.rejects(applyScript("add table ip bad name\n", { check: true }), NftError);
  });

  it("refuses a table name that is not one of ours before running nft", async () => {
    await assert.rejects(deleteTable("x; flush ruleset"), /invalid nftables table name/);
  });
});

describe("the table of a Hearth", () => {
  it("is hearth- and 8 hex digits of its data directory, the same for the same directory", () => {
    assert.match(tableNameFor("/var/lib/hearth"), /^hearth-[0-9a-f]{8}$/);
    assert.equal(tableNameFor("/var/lib/hearth"), tableNameFor("/var/lib/hearth/"));
    assert.notEqual(tableNameFor("/var/lib/hearth"), tableNameFor("/var/lib/hearth2"));
  });
});
