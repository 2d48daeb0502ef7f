/** kube's static token file: CSV records, quoted group lists, and its errors. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCsv, parseTokenFile } from "./token-file.js";

describe("parseCsv", () => {
  it("splits records and fields, with quotes, doubled quotes and CRLF", () => {
    assert.deepEqual(parseCsv('a,b,"c,d"\r\n"say ""hi""",,x\n\nlast'), [
      ["a", "b", "c,d"],
      ['say "hi"', "", "x"],
      ["last"],
    ]);
  });

  it("refuses an unterminated quote", () => {
    assert.throws(() => parseCsv('a,"b'), /extraneous or missing "/);
  });
});

describe("parseTokenFile", () => {
  it("reads token, user, uid and the optional quoted group list", () => {
    const tokens = parseTokenFile('t1,bob,u-1,"dev,qa"\nt2,alice,u-2\nt3,carol,,ops\n');
    assert.deepEqual(tokens.get("t1"), { username: "bob", uid: "u-1", groups: ["dev", "qa"] });
    assert.deepEqual(tokens.get("t2"), { username: "alice", uid: "u-2", groups: [] });
    assert.deepEqual(tokens.get("t3"), { username: "carol", groups: ["ops"] });
  });

  it("skips empty tokens and lets a later duplicate win", () => {
    const tokens = parseTokenFile(",nobody,0\nt,first,1\nt,second,2\n");
    assert.deepEqual([...tokens.keys()], ["t"]);
    assert.equal(tokens.get("t")?.username, "second");
  });

  it("refuses lines with fewer than three columns, in kube's words", () => {
    assert.throws(
      () => parseTokenFile("t,bob\n", "/etc/tokens.csv"),
      /token file '\/etc\/tokens.csv' must have at least 3 columns \(token, user name, user uid\), found 2/,
    );
  });
});
