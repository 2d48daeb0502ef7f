/**
 * The `hearth` executable's exit codes: an unknown command exits 2 with the
 * usage on stderr, a bad flag exits 1 with one `hearth: …` line (the messages
 * themselves are src/cli/cli-errors.test.ts), and `help` prints the usage on
 * stdout and exits 0. Each runs in a temporary directory with a temporary HOME
 * and no KUBECONFIG, and makes nothing there.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { HEARTH_MAIN, type RunResult, run } from "../support/hearth-process.js";

describe("hearth exit codes", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hearth-cli-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const hearth = (args: string[]): Promise<RunResult> => {
    const { KUBECONFIG: _, ...env } = process.env;
    return run("sh", ["-c", 'cd "$0" && exec "$@"', dir, process.execPath, HEARTH_MAIN, ...args], {
      env: { ...env, HOME: dir },
      timeoutMs: 60_000,
    });
  };

  it("exits 2 on an unknown command and 1 on a bad flag, saying why on stderr", async () => {
    const unknown = await hearth(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^hearth: unknown command "frobnicate"\nusage: hearth <command>/);
    assert.equal(unknown.stdout, "");
    const bad = await hearth(["node", "--kubeconfig"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, "hearth: flag --kubeconfig needs a value\n");
    assert.equal(bad.stdout, "");
    assert.deepEqual(readdirSync(dir), []);
  });

  it("prints the usage for help and exits 0", async () => {
    const r = await hearth(["help"]);
    assert.equal(r.code, 0);
    assert.equal(r.stderr, "");
    assert.match(r.stdout, /^usage: hearth <command> \[flags\]\n/);
    for (const command of ["up", "apiserver", "node", "etcd-defrag"])
      assert.match(r.stdout, new RegExp(`^  ${command} `, "m"));
  });
});
