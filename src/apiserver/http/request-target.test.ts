/** parseRequestTarget: the same path and query as the WHATWG URL parser, for any target. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRequestTarget } from "./request-target.js";

type Outcome = { pathname: string; query: [string, string][] } | { error: string };

/** What the router read before: `new URL(target, "https://hearth")`, or how it failed. */
function viaUrl(target: string): Outcome {
  try {
    const url = new URL(target, "https://hearth");
    return { pathname: url.pathname, query: [...url.searchParams] };
  } catch (e) {
    return { error: String(e) };
  }
}

function parsed(target: string): Outcome {
  try {
    const t = parseRequestTarget(target);
    return { pathname: t.pathname, query: [...t.query] };
  } catch (e) {
    return { error: String(e) };
  }
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible target. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "/",
  "/",
  "/",
  "a",
  "v1",
  ".",
  "..",
  "%2e",
  "%2E",
  "%2F",
  "%",
  "%zz",
  "%41",
  "?",
  "?",
  "&",
  "=",
  "+",
  "#",
  " ",
  "\t",
  "\n",
  "\\",
  "'",
  '"',
  "<",
  ">",
  "`",
  "{",
  "}",
  "^",
  "|",
  "[",
  "]",
  ":",
  "@",
  "~",
  "!",
  "$",
  "*",
  ",",
  ";",
  "é",
  "\u2028",
  "\u0000",
  "\u007f",
  "watch=true",
  "x=%20y",
];

describe("parseRequestTarget", () => {
  it("reads a plain resource path and its query without the URL parser's help", () => {
    const t = parseRequestTarget(
      "/api/v1/namespaces/default/configmaps?fieldManager=kubectl&x=a+b%20c",
    );
    assert.equal(t.pathname, "/api/v1/namespaces/default/configmaps");
    assert.deepEqual(
      [...t.query],
      [
        ["fieldManager", "kubectl"],
        ["x", "a b c"],
      ],
    );
    assert.deepEqual([...parseRequestTarget("/apis/apps/v1/deployments").query], []);
    assert.deepEqual([...parseRequestTarget("/api/v1/pods?").query], []);
  });

  it("agrees with the URL parser on the edge cases", () => {
    for (const target of [
      "/",
      "/api/",
      "/api//v1///pods//",
      "//evil/api/v1/pods",
      "/api/v1/../v2/pods",
      "/api/v1/./pods",
      "/api/v1/%2e%2E/pods",
      "/api/v1/.%2e/pods",
      "/api/v1/.well-known",
      "/api/v1/namespaces/a%2Fb/pods",
      "/api/v1/pods/%zz",
      "/api\\v1\\pods",
      "/api/v1/pods with space",
      "/api/v1/pödś",
      "/api/v1/pods#frag",
      "/api/v1/pods?watch=true#frag",
      "/api/v1/pods??watch=true",
      "/api/v1/pods?a=1&&b=&=c&d",
      "/api/v1/pods?q='x'&r=\"y\"&s=<z>&t=`u`&v={w}&bs=\\",
      "/api/v1/pods?labelSelector=app%3Dweb%2Ctier+in+(a,b)",
      "/api/v1/pods?x=a b",
      "/api/v1/pods?x=é",
      " /api/v1/pods",
      "/api/v1/pods ",
      "/api/\tv1/pods",
      "http://other/api/v1/pods?x=1",
      "*",
      "",
      "api/v1/pods",
      "/^/|/[x]/{y}/`z`",
      "//[::1",
    ])
      assert.deepEqual(parsed(target), viaUrl(target), JSON.stringify(target));
  });

  it("agrees with the URL parser on generated targets", () => {
    const next = random(20260101);
    for (let n = 0; n < 20000; n++) {
      let target = next() < 0.9 ? "/" : "";
      const pieces = Math.floor(next() * 12);
      for (let i = 0; i < pieces; i++) target += PIECES[Math.floor(next() * PIECES.length)];
      assert.deepEqual(parsed(target), viaUrl(target), JSON.stringify(target));
    }
  });

  it("gives a query the router may change without touching another request's", () => {
    const a = parseRequestTarget("/api/v1/pods?x=1");
    a.query.set("fieldSelector", "metadata.name=p");
    assert.deepEqual([...parseRequestTarget("/api/v1/pods?x=1").query], [["x", "1"]]);
  });
});
