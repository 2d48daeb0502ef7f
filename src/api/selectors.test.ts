import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "./errors.js";
import { parseFieldSelector, parseLabelSelector } from "./selectors.js";

function refusedLabel(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 400);
    assert.equal(e.reason, "BadRequest");
    return e.message;
  }
  assert.fail(`label selector ${JSON.stringify(text)} was accepted`);
}

function refusedField(text: string): string {
  try {
    parseFieldSelector(text);
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.code, 400);
    return e.message;
  }
  assert.fail(`field selector ${JSON.stringify(text)} was accepted`);
}

const labels = (set: Record<string, string>) => (k: string) => set[k];

describe("label selectors, as apimachinery's labels.Parse", () => {
  it("refuses empty terms, dangling operators and bad keys with kube's messages", () => {
    assert.equal(refusedLabel(",,,"), "found ',', expected: !, identifier, or 'end of string'");
    assert.equal(refusedLabel("a=b,"), "found '', expected: identifier after ','");
    assert.equal(refusedLabel("a=b,,c"), "found ',', expected: identifier after ','");
    assert.equal(refusedLabel("=x"), "found '=', expected: !, identifier, or 'end of string'");
    assert.equal(
      refusedLabel("a in ("),
      "unable to parse requirement: found '', expected: ',', ')' or identifier",
    );
    assert.equal(
      refusedLabel("a in (b"),
      "unable to parse requirement: found '', expected: ',' or ')'",
    );
    assert.equal(refusedLabel("a in b"), "unable to parse requirement: found 'b' expected: '('");
    assert.equal(
      refusedLabel("a b"),
      "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
    );
    assert.equal(refusedLabel("a=b c"), "found 'c', expected: ',' or 'end of string'");
    assert.equal(refusedLabel("!"), "unable to parse requirement: found '', expected: identifier");
    assert.match(
      refusedLabel("bad key/"),
      /^unable to parse requirement: found 'key\/', expected: in, notin/,
    );
    assert.match(
      refusedLabel("-a=b"),
      /^unable to parse requirement: <nil>: Invalid value: "-a": name part must consist of/,
    );
    assert.match(refusedLabel("a/b/c"), /<nil>: Invalid value: "a\/b\/c": a qualified name must/);
    assert.match(refusedLabel("a=-b"), /values\[0\]\[a\]: Invalid value: "-b": a valid label must/);
    assert.match(refusedLabel(`a=${"x".repeat(64)}`), /must be no more than 63 characters/);
    assert.match(
      refusedLabel("a>b"),
      /values\[0\]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer/,
    );
  });

  it("matches equality, sets, existence and numeric comparisons", () => {
    const s = parseLabelSelector("app==web,tier!=db,env in (prod, stage),!legacy,n>3,m<10,zone");
    assert.deepEqual(s.keys, ["app", "env", "legacy", "m", "n", "tier", "zone"]);
    const base = { app: "web", env: "prod", n: "4", m: "9", zone: "a" };
    assert.equal(s.matches(labels(base)), true);
    assert.equal(s.matches(labels({ ...base, n: "3" })), false);
    assert.equal(s.matches(labels({ ...base, m: "x" })), false);
    assert.equal(s.matches(labels({ ...base, legacy: "" })), false);
    assert.equal(s.matches(labels({ ...base, tier: "db" })), false);
    const { zone: _z, ...noZone } = base;
    assert.equal(s.matches(labels(noZone)), false);
  });

  it("reads keywords as values, empty members as the empty value, and whitespace as kube", () => {
    assert.equal(parseLabelSelector("x in (in,notin)").matches(labels({ x: "notin" })), true);
    const empty = parseLabelSelector("x in (,a)");
    assert.equal(empty.matches(labels({ x: "" })), true);
    assert.equal(parseLabelSelector("x in ()").matches(labels({ x: "" })), true);
    assert.equal(parseLabelSelector("x=").matches(labels({ x: "" })), true);
    assert.equal(parseLabelSelector("  a = b ,\tc ").matches(labels({ a: "b", c: "" })), true);
    assert.equal(parseLabelSelector("x notin (a)").matches(labels({})), true);
    assert.equal(parseLabelSelector("").empty, true);
  });
});

describe("field selectors, as apimachinery's fields.ParseSelector", () => {
  it("skips empty terms and unescapes values", () => {
    assert.equal(parseFieldSelector(",,,").empty, true);
    const s = parseFieldSelector("metadata.name=a\\,b\\=c\\\\,spec.x!=y");
    assert.deepEqual(s.keys, ["metadata.name", "spec.x"]);
    const fields = (set: Record<string, string>) => (k: string) => set[k];
    assert.equal(s.matches(fields({ "metadata.name": "a,b=c\\", "spec.x": "z" })), true);
    assert.equal(s.matches(fields({ "metadata.name": "a,b=c\\", "spec.x": "y" })), false);
    assert.equal(parseFieldSelector("a==b").matches(fields({ a: "b" })), true);
    assert.equal(parseFieldSelector("a!=").matches(fields({})), false);
    // Nothing is trimmed: the label is "a " (then unknown to every kind).
    assert.deepEqual(parseFieldSelector("a =b").keys, ["a "]);
  });

  it("refuses terms without an operator and bad escapes with kube's messages", () => {
    assert.equal(refusedField("a"), "invalid selector: 'a'; can't understand 'a'");
    assert.equal(refusedField("a=b,c"), "invalid selector: 'a=b,c'; can't understand 'c'");
    assert.equal(refusedField("a=b=c"), "invalid field selector: unescaped character in value: 61");
    assert.equal(refusedField("a=b\\x"), "invalid field selector: invalid escape sequence: \\x");
    assert.equal(refusedField("a=b\\"), "invalid field selector: invalid escape sequence: \\");
  });
});
