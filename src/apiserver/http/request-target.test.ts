/**
 * parseRequestTarget and decodePath: the path as sent (never dot-resolved), the
 * query as Go reads it, each segment decoded once, and no target a crash.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../../api/index.js";
import { decodePath, parseRequestTarget } from "./request-target.js";

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
  "%e0%a4",
  "%41",
  "?",
  "&",
  "=",
  "+",
  "#",
  "\\",
  ":",
  "@",
  "*",
  "é",
  "watch=true",
  "http://h",
];

const badRequest = (e: unknown) => e instanceof ApiError && e.code === 400;

describe("parseRequestTarget", () => {
  it("reads a plain resource path and its query", () => {
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

  it("keeps dot segments, double slashes and escapes as sent", () => {
    for (const target of [
      "/api/v1/namespaces/default/configmaps/..",
      "/api/v1/namespaces/default/configmaps/%2e%2e",
      "/api/v1/./pods",
      "//evil/api/v1/pods",
      "/api/v1/pods/%zz",
      "/api/v1/pods#frag",
    ])
      assert.equal(parseRequestTarget(target).pathname, target.replace(/\?.*$/, ""), target);
  });

  it("reads the absolute form and the asterisk form, and refuses other targets", () => {
    const abs = parseRequestTarget("http://other/api/v1/pods?x=1");
    assert.equal(abs.pathname, "/api/v1/pods");
    assert.deepEqual([...abs.query], [["x", "1"]]);
    assert.equal(parseRequestTarget("HTTPS://h").pathname, "/");
    assert.equal(parseRequestTarget("https://h?x=1").query.get("x"), "1");
    assert.equal(parseRequestTarget("*").pathname, "*");
    for (const t of ["", "api/v1/pods", "ftp://h/x", " /api"])
      assert.throws(() => parseRequestTarget(t), badRequest, JSON.stringify(t));
  });

  it("keeps a second leading ? in the query, as Go does", () => {
    assert.deepEqual(
      [...parseRequestTarget("/api/v1/pods??watch=true").query],
      [["?watch", "true"]],
    );
  });

  it("gives a query the router may change without touching another request's", () => {
    const a = parseRequestTarget("/api/v1/pods?x=1");
    a.query.set("fieldSelector", "metadata.name=p");
    assert.deepEqual([...parseRequestTarget("/api/v1/pods?x=1").query], [["x", "1"]]);
  });
});

describe("decodePath", () => {
  it("decodes each segment once, after splitting", () => {
    assert.deepEqual(decodePath("/api/v1/namespaces/a%2Fb/pods/%252e"), {
      path: "/api/v1/namespaces/a/b/pods/%2e",
      segments: ["api", "v1", "namespaces", "a/b", "pods", "%2e"],
    });
    assert.deepEqual(decodePath("/api/v1/x/%2e%2e").segments.at(-1), "..");
  });

  it("drops trailing slashes but keeps empty inner segments in place", () => {
    assert.deepEqual(decodePath("/api/v1/pods///"), {
      path: "/api/v1/pods",
      segments: ["api", "v1", "pods"],
    });
    assert.deepEqual(decodePath("//api//v1").segments, ["", "api", "", "v1"]);
    assert.deepEqual(decodePath("/"), { path: "/", segments: [] });
    assert.deepEqual(decodePath("///"), { path: "/", segments: [] });
    assert.deepEqual(decodePath("*"), { path: "*", segments: [] });
  });

  it("refuses malformed and non-UTF-8 escapes with a 400", () => {
    for (const p of ["/api/v1/pods/%zz", "/api/v1/pods/%", "/api/v1/pods/%e0%a4", "/%C0%AF"])
      assert.throws(() => decodePath(p), badRequest, p);
  });

  it("answers every generated target with a path or a 400, never another error", () => {
    const next = random(20260101);
    for (let n = 0; n < 20000; n++) {
      let target = next() < 0.9 ? "/" : "";
      const pieces = Math.floor(next() * 12);
      for (let i = 0; i < pieces; i++) target += PIECES[Math.floor(next() * PIECES.length)];
      try {
        const t = parseRequestTarget(target);
        const d = decodePath(t.pathname);
        // Nothing was resolved: the segments are exactly the sent ones, decoded.
        if (t.pathname.startsWith("/") && !t.pathname.includes("%"))
          assert.deepEqual(d.segments.join("/"), t.pathname.replace(/\/+$/, "").slice(1));
      } catch (e) {
        assert.ok(badRequest(e), `${JSON.stringify(target)}: ${String(e)}`);
      }
    }
  });
});
