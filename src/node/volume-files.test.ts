import assert from "node:assert/strict";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { projectedPathError, syncFiles } from "./volume-files.js";

const file = (text: string, mode = 0o644) => ({ data: Buffer.from(text), mode });

describe("projected volume files", () => {
  let base: string;
  let vol: string;
  let outside: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "hearth-volfiles-"));
    vol = join(base, "pods", "uid", "volumes", "cfg");
    outside = join(base, "outside");
    mkdirSync(vol, { recursive: true });
    mkdirSync(outside);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("refuses the paths kubelet refuses", () => {
    assert.match(projectedPathError("../x") ?? "", /must not contain '\.\.'/);
    assert.match(projectedPathError("a/../../x") ?? "", /must not contain '\.\.'/);
    assert.match(projectedPathError("/etc/passwd") ?? "", /must be relative path/);
    assert.match(projectedPathError("") ?? "", /must not be empty/);
    assert.match(projectedPathError("..data") ?? "", /must not start with '\.\.'/);
    assert.match(projectedPathError(`${"a".repeat(256)}`) ?? "", /filenames must be less/);
    assert.equal(projectedPathError("a/b/c.txt"), undefined);
    assert.match(projectedPathError("...") ?? "", /must not start with '\.\.'/);
  });

  it("writes nothing when one path would leave the volume", () => {
    assert.throws(
      () =>
        syncFiles(
          vol,
          new Map([
            ["ok", file("fine")],
            ["../../../../outside/x", file("escaped")],
          ]),
        ),
      /must not contain '\.\.'/,
    );
    assert.equal(existsSync(join(vol, "ok")), false);
    assert.equal(existsSync(join(outside, "x")), false);
  });

  it("writes files and nested paths with their modes, and removes what went away", () => {
    syncFiles(
      vol,
      new Map([
        ["a", file("1", 0o600)],
        ["d/e/f", file("2")],
        ["old", file("3")],
      ]),
    );
    assert.equal(readFileSync(join(vol, "a"), "utf8"), "1");
    assert.equal(lstatSync(join(vol, "a")).mode & 0o777, 0o600);
    assert.equal(readFileSync(join(vol, "d/e/f"), "utf8"), "2");
    syncFiles(
      vol,
      new Map([
        ["a", file("1", 0o640)],
        ["d/e/f", file("2b")],
      ]),
    );
    assert.equal(lstatSync(join(vol, "a")).mode & 0o777, 0o640, "a mode change is applied");
    assert.equal(readFileSync(join(vol, "d/e/f"), "utf8"), "2b");
    assert.equal(existsSync(join(vol, "old")), false);
  });

  it("never writes through a symlink planted as the file", () => {
    writeFileSync(join(outside, "victim"), "keep me");
    symlinkSync(join(outside, "victim"), join(vol, "key"));
    syncFiles(vol, new Map([["key", file("new")]]));
    assert.equal(readFileSync(join(outside, "victim"), "utf8"), "keep me");
    assert.equal(lstatSync(join(vol, "key")).isSymbolicLink(), false);
    assert.equal(readFileSync(join(vol, "key"), "utf8"), "new");
  });

  it("never enters a symlink planted as a parent directory", () => {
    symlinkSync(outside, join(vol, "dir"));
    syncFiles(vol, new Map([["dir/key", file("new")]]));
    assert.equal(existsSync(join(outside, "key")), false, "nothing is written outside");
    assert.equal(lstatSync(join(vol, "dir")).isDirectory(), true);
    assert.equal(readFileSync(join(vol, "dir/key"), "utf8"), "new");
  });

  it("removes a planted symlink without touching its target", () => {
    writeFileSync(join(outside, "victim"), "keep me");
    symlinkSync(outside, join(vol, "link"));
    syncFiles(vol, new Map([["a", file("1")]]));
    assert.equal(existsSync(join(vol, "link")), false);
    assert.equal(readFileSync(join(outside, "victim"), "utf8"), "keep me");
  });

  it("refuses a volume directory that is a symlink", () => {
    const linked = join(base, "linked");
    symlinkSync(outside, linked);
    assert.throws(() => syncFiles(linked, new Map([["a", file("1")]])), /not a directory/);
    assert.equal(existsSync(join(outside, "a")), false);
  });
});
