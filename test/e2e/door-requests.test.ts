/**
 * The HTTP door refuses what kube-apiserver refuses, writes nothing when it does,
 * and never answers bad input with a 5xx kube would not give: request targets
 * read as sent (dot segments, `//`, bad escapes, absolute form, `*`), bodies
 * nested too deep or with bad YAML aliases, and list/get/watch query parameters
 * (limit, continue, resourceVersion, resourceVersionMatch, timeoutSeconds, booleans).
 * Requests go out over raw `node:http`, which sends a target exactly as written
 * (fetch would resolve its dot segments first).
 */
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { openCrd } from "../support/open-crd.js";
import { expectRefused, type Refusal, type StatusBody } from "../support/refusal.js";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: unknown;
}

const NS_PATH = "/api/v1/namespaces/default";
const CM_PATH = `${NS_PATH}/configmaps`;
const BLOBS = "/apis/door.example.com/v1/namespaces/default/blobs";

/** A request with the target sent byte for byte as given. */
function raw(
  port: number,
  method: string,
  target: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path: target,
        headers: {
          "Content-Type": "application/json",
          ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** `{"a":{"a":…1…}}` nested `depth` levels, built as text (JSON.stringify would overflow). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
}

describe("the HTTP door", () => {
  let s: InProcessServer;
  let port: number;

  before(async () => {
    s = await startInProcess();
    port = s.server.port;
    const crd = openCrd("door.example.com", "Blob", "blobs");
    const r = await s.request(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      JSON.stringify(crd),
    );
    assert.equal(r.status, 201, r.text);
    const deadline = Date.now() + 10_000;
    while ((await s.request("GET", BLOBS)).status !== 200)
      assert.ok(Date.now() < deadline, "the CRD is served");
    for (const name of ["keep", "other"]) {
      const c = await s.request(
        "POST",
        CM_PATH,
        JSON.stringify({
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name },
          data: { k: "v" },
        }),
      );
      assert.equal(c.status, 201, c.text);
    }
  });
  after(async () => {
    await s?.stop();
  });

  /** Sends a bad request and checks the Status, that nothing was written and that the server answers. */
  function refused(
    method: string,
    target: string,
    expect: Refusal,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<StatusBody> {
    const live = {
      backend: s.backend,
      health: async () => (await raw(port, "GET", "/healthz")).status,
    };
    return expectRefused(
      live,
      `${method} ${target}`,
      () => raw(port, method, target, body, headers),
      expect,
    );
  }

  async function bothConfigMapsAndTheNamespaceRemain(): Promise<void> {
    assert.equal((await raw(port, "GET", NS_PATH)).status, 200);
    assert.equal((await raw(port, "GET", `${CM_PATH}/keep`)).status, 200);
    assert.equal((await raw(port, "GET", `${CM_PATH}/other`)).status, 200);
  }

  describe("paths", () => {
    it("refuses . and .. as names, encoded or not, and deletes nothing", async () => {
      for (const [seg, name] of [
        ["%2e%2e", ".."],
        ["%2E%2e", ".."],
        ["..", ".."],
        ["%2e", "."],
        [".", "."],
        [".%2e", ".."],
      ] as const) {
        for (const method of ["DELETE", "GET", "PUT", "PATCH"]) {
          await refused(
            method,
            `${CM_PATH}/${seg}`,
            {
              code: 400,
              reason: "BadRequest",
              message: new RegExp(
                `^Name parameter invalid: "${name.replace(/\./g, "\\.")}": may not be '`,
              ),
            },
            method === "PUT" || method === "PATCH" ? "{}" : undefined,
            method === "PATCH" ? { "Content-Type": "application/merge-patch+json" } : {},
          );
        }
      }
      await bothConfigMapsAndTheNamespaceRemain();
    });

    it("refuses a name or namespace holding / or % once decoded", async () => {
      await refused("DELETE", `${CM_PATH}/keep%2Fx`, {
        code: 400,
        reason: "BadRequest",
        message: /^Name parameter invalid: "keep\/x": may not contain '\/'$/,
      });
      await refused("GET", `${CM_PATH}/%252e%252e`, {
        code: 400,
        reason: "BadRequest",
        message: /may not contain '%'/,
      });
      await refused("DELETE", "/api/v1/namespaces/%2e%2e/configmaps", {
        code: 400,
        reason: "BadRequest",
        message: /^Namespace parameter invalid: "\.\."/,
      });
      await refused("DELETE", "/api/v1/namespaces/default%2Fconfigmaps/configmaps", {
        code: 400,
        reason: "BadRequest",
      });
      await bothConfigMapsAndTheNamespaceRemain();
    });

    it("never lets an empty segment shift a path", async () => {
      for (const target of [
        `${NS_PATH}//configmaps`,
        `/api/v1/namespaces//configmaps`,
        `${CM_PATH}//keep`,
        `//api/v1/namespaces/default/configmaps`,
        `/api//v1/namespaces/default`,
      ])
        await refused("DELETE", target, { code: 404, reason: "NotFound" });
      await bothConfigMapsAndTheNamespaceRemain();
    });

    it("answers malformed percent-encoding with a 400", async () => {
      for (const seg of ["%zz", "%", "%e0%a4", "%C0%AF", "a%2"])
        for (const method of ["GET", "DELETE"])
          await refused(method, `${CM_PATH}/${seg}`, { code: 400, reason: "BadRequest" });
      await refused("GET", "/api/v1/namespaces/%zz/configmaps", {
        code: 400,
        reason: "BadRequest",
      });
      await refused("GET", "/%zz", { code: 400, reason: "BadRequest" });
    });

    it("answers odd request targets with kube's 404, as paths no route matches", async () => {
      // Go reads each as a path ("//[::1" too, and "#x" is part of the path, not a fragment).
      for (const target of ["//", "//[::1", "//evil/api/v1/namespaces", "*", "/api/v1/pods#x"])
        for (const method of ["GET", "DELETE"])
          await refused(method, target, {
            code: 404,
            reason: "NotFound",
            message: "the server could not find the requested resource",
          });
      // The absolute form names the same path as the origin form.
      const abs = await raw(port, "GET", `http://elsewhere${CM_PATH}/keep`);
      assert.equal(abs.status, 200, abs.text);
      assert.equal((abs.body as { metadata: { name: string } }).metadata.name, "keep");
      await bothConfigMapsAndTheNamespaceRemain();
    });

    it("keeps an Impersonate-Extra key that does not decode, as kube does", async () => {
      for (const key of ["%zz", "%e0%a4", "a%2"]) {
        const r = await raw(
          port,
          "POST",
          "/apis/authentication.k8s.io/v1/selfsubjectreviews",
          JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }),
          { "Impersonate-User": "bob", [`Impersonate-Extra-${key}`]: "v" },
        );
        assert.equal(r.status, 201, `${key}: ${r.text}`);
        const info = (r.body as { status: { userInfo: { extra?: Record<string, string[]> } } })
          .status.userInfo;
        assert.deepEqual(info.extra, { [key.toLowerCase()]: ["v"] });
      }
      const ok = await raw(
        port,
        "POST",
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" }),
        { "Impersonate-User": "bob", "Impersonate-Extra-Scope%2Fx": "v" },
      );
      assert.deepEqual(
        (ok.body as { status: { userInfo: { extra?: Record<string, string[]> } } }).status.userInfo
          .extra,
        { "scope/x": ["v"] },
      );
    });
  });

  describe("bodies", () => {
    const TOO_DEEP = /exceeded max depth/;

    it("refuses JSON nested 10,000 deep on every path that reads a body", async () => {
      const deep = nested(10_000);
      const cases: [string, string, string, Record<string, string>][] = [
        [
          "POST",
          CM_PATH,
          `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"},"x":${deep}}`,
          {},
        ],
        [
          "PUT",
          `${CM_PATH}/keep`,
          `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"keep"},"x":${deep}}`,
          {},
        ],
        [
          "PATCH",
          `${CM_PATH}/keep`,
          `{"x":${deep}}`,
          { "Content-Type": "application/merge-patch+json" },
        ],
        [
          "PATCH",
          `${CM_PATH}/keep`,
          `{"x":${deep}}`,
          { "Content-Type": "application/strategic-merge-patch+json" },
        ],
        [
          "PATCH",
          `${CM_PATH}/keep`,
          `[{"op":"add","path":"/x","value":${deep}}]`,
          { "Content-Type": "application/json-patch+json" },
        ],
        [
          "PATCH",
          `${CM_PATH}/keep?fieldManager=t`,
          `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"keep"},"x":${deep}}`,
          { "Content-Type": "application/apply-patch+yaml" },
        ],
        [
          "POST",
          BLOBS,
          `{"apiVersion":"door.example.com/v1","kind":"Blob","metadata":{"name":"d"},"spec":${deep}}`,
          {},
        ],
        [
          "POST",
          "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
          `{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"get"},"x":${deep}}}`,
          {},
        ],
        [
          "POST",
          "/apis/authorization.k8s.io/v1/subjectaccessreviews",
          `{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"user":"u","x":${deep}}}`,
          {},
        ],
        ["DELETE", `${CM_PATH}/keep`, `{"kind":"DeleteOptions","apiVersion":"v1","x":${deep}}`, {}],
        [
          "POST",
          CM_PATH,
          `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\nx: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`,
          { "Content-Type": "application/yaml" },
        ],
        [
          "POST",
          CM_PATH,
          `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\nx:\n${Array.from({ length: 400 }, (_, i) => `${" ".repeat(i + 1)}k${i}:`).join("\n")} 1\n`,
          { "Content-Type": "application/yaml" },
        ],
        [
          "POST",
          CM_PATH,
          `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\nx:\n  ${"- ".repeat(5000)}x\n`,
          { "Content-Type": "application/yaml" },
        ],
      ];
      for (const [method, target, body, headers] of cases)
        await refused(
          method,
          target,
          { code: 400, reason: "BadRequest", message: TOO_DEEP },
          body,
          headers,
        );
      await bothConfigMapsAndTheNamespaceRemain();
    });

    it("takes an object just under the limit through create, patch, apply and reads", async () => {
      const spec = nested(490);
      const create = await raw(
        port,
        "POST",
        BLOBS,
        `{"apiVersion":"door.example.com/v1","kind":"Blob","metadata":{"name":"deep"},"spec":${spec}}`,
      );
      assert.equal(create.status, 201, create.text.slice(0, 300));
      for (const [type, body] of [
        ["application/merge-patch+json", `{"spec":{"b":${nested(480)}}}`],
        ["application/json-patch+json", `[{"op":"add","path":"/spec/c","value":${nested(480)}}]`],
      ] as const) {
        const r = await raw(port, "PATCH", `${BLOBS}/deep`, body, { "Content-Type": type });
        assert.equal(r.status, 200, `${type}: ${r.text.slice(0, 300)}`);
      }
      const apply = await raw(
        port,
        "PATCH",
        `${BLOBS}/applied?fieldManager=door`,
        `{"apiVersion":"door.example.com/v1","kind":"Blob","metadata":{"name":"applied"},"spec":${spec}}`,
        { "Content-Type": "application/apply-patch+yaml" },
      );
      assert.equal(apply.status, 201, apply.text.slice(0, 300));
      assert.equal((await raw(port, "GET", `${BLOBS}/deep`)).status, 200);
      const table = await raw(port, "GET", BLOBS, undefined, {
        Accept: "application/json;as=Table;v=v1;g=meta.k8s.io",
      });
      assert.equal(table.status, 200);
    });

    it("refuses a patch that would nest a stored object past the limit", async () => {
      const path = `/spec${"/a".repeat(480)}/x`;
      await refused(
        "PATCH",
        `${BLOBS}/deep`,
        { code: 400, reason: "BadRequest", message: TOO_DEEP },
        `[{"op":"add","path":${JSON.stringify(path)},"value":${nested(100)}}]`,
        { "Content-Type": "application/json-patch+json" },
      );
    });

    it("refuses YAML with unresolved or circular aliases and alias bombs", async () => {
      const head = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\n";
      const laughs = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
      for (const n of ["b", "c", "d", "e", "f", "g", "h", "i"]) {
        const prev = String.fromCharCode(n.charCodeAt(0) - 1);
        laughs.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(", ")}]`);
      }
      for (const [body, message] of [
        [`${head}data: *nothing\n`, /unknown anchor 'nothing'/],
        [`${head}x: &loop [*loop]\n`, /anchor 'loop' value contains itself/],
        [`${head}x: &m {k: *m}\n`, /anchor 'm' value contains itself/],
        [`${head}x:\n  ${laughs.join("\n  ")}\n`, /alias/i],
      ] as const) {
        for (const [method, target, type] of [
          ["POST", CM_PATH, "application/yaml"],
          ["PATCH", `${CM_PATH}/y?fieldManager=t`, "application/apply-patch+yaml"],
        ] as const)
          await refused(method, target, { code: 400, reason: "BadRequest", message }, body, {
            "Content-Type": type,
          });
      }
    });
  });

  describe("query parameters", () => {
    it("refuses a limit, timeoutSeconds or resourceVersion that does not parse", async () => {
      for (const [param, value, message] of [
        ["limit", "1e100", /^strconv\.ParseInt: parsing "1e100": invalid syntax$/],
        ["limit", "abc", /invalid syntax/],
        ["limit", "", /invalid syntax/],
        ["limit", "1.5", /invalid syntax/],
        ["limit", "99999999999999999999", /value out of range/],
        ["timeoutSeconds", "abc", /invalid syntax/],
        ["resourceVersion", "abc", /^invalid resource version: .*"abc".*invalid syntax$/],
        ["resourceVersion", "-1", /invalid resource version/],
      ] as const) {
        await refused("GET", `${CM_PATH}?${param}=${encodeURIComponent(value)}`, {
          code: 400,
          reason: "BadRequest",
          message,
        });
      }
      for (const value of ["-1x", "NaN", "1e999", "abc"])
        await refused("GET", `${CM_PATH}?watch=true&timeoutSeconds=${value}`, {
          code: 400,
          reason: "BadRequest",
          message: /strconv\.ParseInt/,
        });
      await refused("GET", `${CM_PATH}/keep?resourceVersion=abc`, {
        code: 400,
        reason: "BadRequest",
        message: /invalid resource version/,
      });
      await refused("GET", `${CM_PATH}?watch=1&resourceVersion=x`, {
        code: 400,
        reason: "BadRequest",
        message: /invalid resource version/,
      });
    });

    it("reads a negative limit as no limit, as kube does", async () => {
      const r = await raw(port, "GET", `${CM_PATH}?limit=-1`);
      assert.equal(r.status, 200, r.text);
      const list = r.body as { items: unknown[]; metadata: { continue?: string } };
      assert.ok(list.items.length >= 2);
      assert.equal(list.metadata.continue, undefined);
    });

    it("refuses continue tokens that do not decode to a token", async () => {
      const b64 = (v: string) => Buffer.from(v).toString("base64url");
      for (const token of [
        b64("null"),
        b64("[]"),
        b64('"x"'),
        b64("1"),
        b64("{}"),
        b64('{"v":"meta.k8s.io/v1","rv":0,"start":"/registry/core/configmaps/default/a"}'),
        b64('{"v":"meta.k8s.io/v1","rv":1.5,"start":"/registry/core/configmaps/default/a"}'),
        b64('{"v":"meta.k8s.io/v1","rv":"1","start":"/registry/core/configmaps/default/a"}'),
        b64('{"v":"meta.k8s.io/v1","rv":1,"start":""}'),
        b64('{"v":"meta.k8s.io/v1","rv":1,"start":"/registry/core/secrets/default/a"}'),
        "!!!",
        "e30=x",
      ])
        await refused("GET", `${CM_PATH}?limit=1&continue=${encodeURIComponent(token)}`, {
          code: 400,
          reason: "BadRequest",
          message: /^invalid continue token: continue key is not valid/,
        });
      const first = (await raw(port, "GET", `${CM_PATH}?limit=1`)).body as {
        metadata: { continue: string; resourceVersion: string };
      };
      await refused(
        "GET",
        `${CM_PATH}?limit=1&continue=${first.metadata.continue}&resourceVersion=${first.metadata.resourceVersion}`,
        {
          code: 400,
          reason: "BadRequest",
          message: /^specifying resource version is not allowed when using continue$/,
        },
      );
    });

    it("validates resourceVersionMatch and sendInitialEvents as ValidateListOptions", async () => {
      const invalid = {
        code: 422,
        reason: "Invalid",
        message: /^ListOptions\.meta\.k8s\.io "" is invalid: /,
      };
      const cases: [string, string, string][] = [
        [
          "resourceVersionMatch=Bogus&resourceVersion=1",
          "resourceVersionMatch",
          "FieldValueNotSupported",
        ],
        ["resourceVersionMatch=Exact", "resourceVersionMatch", "FieldValueForbidden"],
        [
          "resourceVersionMatch=Exact&resourceVersion=0",
          "resourceVersionMatch",
          "FieldValueForbidden",
        ],
        ["sendInitialEvents=true", "sendInitialEvents", "FieldValueForbidden"],
        [
          "watch=true&resourceVersionMatch=NotOlderThan",
          "resourceVersionMatch",
          "FieldValueForbidden",
        ],
        [
          "watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
          "sendInitialEvents",
          "FieldValueForbidden",
        ],
      ];
      for (const [query, field, reason] of cases) {
        const status = await refused("GET", `${CM_PATH}?${query}`, invalid);
        assert.ok(
          status.details?.causes?.some((c) => c.field === field && c.reason === reason),
          `${query}: ${JSON.stringify(status.details)}`,
        );
      }
      const exact = await raw(
        port,
        "GET",
        `${CM_PATH}?resourceVersionMatch=NotOlderThan&resourceVersion=1`,
      );
      assert.equal(exact.status, 200, exact.text);
    });

    it("answers a resourceVersion beyond the current one with 504 TooLarge after waiting, for get and list", async () => {
      const current = await s.backend.currentRevision();
      const future = current + 1000;
      for (const target of [
        `${CM_PATH}/keep?resourceVersion=${future}`,
        `${CM_PATH}?resourceVersion=${future}`,
        `${CM_PATH}?resourceVersion=${future}&limit=1`,
        `${CM_PATH}?resourceVersion=${future}&resourceVersionMatch=Exact`,
        `${CM_PATH}?resourceVersion=18446744073709551615`,
      ]) {
        const started = Date.now();
        const r = await raw(port, "GET", target);
        assert.equal(r.status, 504, `${target}: ${r.text}`);
        const status = r.body as StatusBody;
        assert.equal(status.reason, "Timeout");
        assert.match(status.message, /^Timeout: Too large resource version: \d+, current: \d+$/);
        assert.deepEqual(status.details?.causes, [
          { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
        ]);
        assert.equal(status.details?.retryAfterSeconds, 1);
        assert.equal(r.headers["retry-after"], "1");
        assert.ok(Date.now() - started >= 2900, "it waited for the revision first");
      }
      assert.equal(await s.backend.currentRevision(), current);
    });

    it("answers a resourceVersion that arrives while waiting", async () => {
      const current = await s.backend.currentRevision();
      const pending = raw(port, "GET", `${CM_PATH}/keep?resourceVersion=${current + 1}`);
      const w = await s.request(
        "POST",
        CM_PATH,
        JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "later" } }),
      );
      assert.equal(w.status, 201);
      const r = await pending;
      assert.equal(r.status, 200, r.text);
    });

    it("watches from a future resourceVersion, ends at once for a negative timeout, and reads booleans as kube", async () => {
      const current = await s.backend.currentRevision();
      // kube's watch cache starts a watch from a revision it has not reached: its events come when they happen.
      const future = await raw(
        port,
        "GET",
        `${CM_PATH}?watch=true&resourceVersion=${current + 5}&timeoutSeconds=1`,
      );
      assert.equal(future.status, 200, future.text);
      assert.equal(future.text, "");
      const negative = await raw(port, "GET", `${CM_PATH}?watch=true&timeoutSeconds=-1`);
      assert.equal(negative.status, 200);
      // allowWatchBookmarks, like watch, is true for any value but "0"/"false".
      const events = await raw(
        port,
        "GET",
        `${CM_PATH}?watch=yes&allowWatchBookmarks=abc&timeoutSeconds=-1&resourceVersion=0`,
      );
      assert.equal(events.status, 200);
      const list = await raw(port, "GET", `${CM_PATH}?watch=false`);
      assert.equal((list.body as { kind: string }).kind, "ConfigMapList");
      const named = await raw(port, "GET", `${CM_PATH}/keep?watch=true`);
      assert.equal((named.body as { kind: string }).kind, "ConfigMap", "a named GET ignores watch");
    });
  });
});
