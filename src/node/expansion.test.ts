import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { expand } from "./expansion.js";

describe("expand", () => {
  const env = new Map([
    ["POD_IP", "127.1.0.1"],
    ["EMPTY", ""],
  ]);
  it("substitutes known references and keeps unknown ones", () => {
    assert.equal(expand("http://$(POD_IP):2379", env), "http://127.1.0.1:2379");
    assert.equal(expand("$(NOPE)/x", env), "$(NOPE)/x");
    assert.equal(expand("a$(EMPTY)b", env), "ab");
  });
  it("treats $$ as an escape and leaves other dollars alone", () => {
    assert.equal(expand("$$(POD_IP)", env), "$(POD_IP)");
    assert.equal(expand("$HOME and $", env), "$HOME and $");
    assert.equal(expand("$(POD_IP", env), "$(POD_IP");
    assert.equal(expand("$$$$", env), "$$");
  });
});
