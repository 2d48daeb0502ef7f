import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { signedBy } from "../pki/index.js";
import { ensurePki } from "./data-dir.js";

const run = promisify(execFile);
const HOSTS = { dns: ["localhost"], ips: ["127.0.0.1"] };
const MODULE = fileURLToPath(new URL("./data-dir.js", import.meta.url));

/** ensurePki in a process of its own; prints the CA certificate and admin token it got. */
async function ensureInChild(dataDir: string): Promise<{ ca: string; token: string }> {
  const script = `
    const { ensurePki } = await import(${JSON.stringify(MODULE)});
    const pki = await ensurePki(${JSON.stringify(dataDir)}, ${JSON.stringify(HOSTS)});
    console.log(JSON.stringify({ ca: pki.ca.certPem, token: pki.adminToken }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return JSON.parse(stdout) as { ca: string; token: string };
}

describe("ensurePki", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), "hearth-pki-"));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("makes one CA and one admin token when several processes start on an empty directory at once", async () => {
    const dir = fresh();
    const got = await Promise.all(Array.from({ length: 4 }, () => ensureInChild(dir)));
    for (const g of got) {
      assert.equal(g.ca, got[0]!.ca);
      assert.equal(g.token, got[0]!.token);
    }
    assert.equal(readFileSync(join(dir, "pki", "ca.crt"), "utf8"), got[0]!.ca);
    const again = await ensurePki(dir, HOSTS);
    assert.equal(again.ca.certPem, got[0]!.ca);
    assert.ok(await signedBy(again.serving.certPem, again.ca.certPem));
  });

  it("takes over a lock its holder left behind when it was killed", async () => {
    const dir = fresh();
    const lock = join(dir, "pki", ".init.lock");
    mkdirSync(lock, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    const pki = await ensurePki(dir, HOSTS);
    assert.ok(await signedBy(pki.serving.certPem, pki.ca.certPem));
  });

  it("makes the pair again when a kill left a key without its certificate", async () => {
    const dir = fresh();
    mkdirSync(join(dir, "pki"), { recursive: true });
    writeFileSync(join(dir, "pki", "ca.key"), "half a CA\n");
    writeFileSync(join(dir, "pki", "ca.crt.4242.tmp"), "half a file");
    const pki = await ensurePki(dir, HOSTS);
    assert.notEqual(pki.ca.keyPem, "half a CA\n");
    assert.ok(await signedBy(pki.serving.certPem, pki.ca.certPem));
    assert.equal(readFileSync(join(dir, "pki", "ca.key"), "utf8"), pki.ca.keyPem);
    assert.deepEqual(
      readdirSync(join(dir, "pki")).filter((f) => f.endsWith(".tmp")),
      [],
    );
  });
});
