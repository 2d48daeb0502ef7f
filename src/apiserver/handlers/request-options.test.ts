/**
 * The writing verbs' query options as apimachinery validates them: dryRun,
 * fieldManager (length, printable characters, byte offsets), fieldValidation,
 * force and apply's required manager; and the field manager taken from the
 * user agent when the query names none.
 */
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { describe, it } from "node:test";
import { InvalidError } from "../../api/index.js";
import type { RequestContext } from "./context.js";
import {
  checkWriteOptions,
  dryRunErrors,
  fieldManager,
  fieldManagerErrors,
  goStringSlice,
  isDryRun,
  type WriteOptionsKind,
} from "./request-options.js";

function refusal(query: string, kind: WriteOptionsKind, patchType?: string): InvalidError {
  try {
    checkWriteOptions(new URLSearchParams(query), kind, patchType);
  } catch (e) {
    assert.ok(e instanceof InvalidError, `not an InvalidError: ${String(e)}`);
    return e;
  }
  assert.fail(`${query} was accepted for ${kind}`);
}

describe("checkWriteOptions", () => {
  const accepted: { query: string; kind: WriteOptionsKind; patchType?: string }[] = [
    { query: "", kind: "CreateOptions" },
    { query: "dryRun=All&dryRun=All", kind: "UpdateOptions" },
    {
      query: "fieldManager=kubectl-client-side-apply&fieldValidation=Strict",
      kind: "CreateOptions",
    },
    { query: "fieldValidation=", kind: "CreateOptions" },
    { query: "fieldManager=me&force=true", kind: "PatchOptions", patchType: "apply" },
    { query: "fieldManager=m%C3%A9", kind: "PatchOptions", patchType: "merge" },
  ];
  for (const c of accepted) {
    it(`accepts ${c.kind} "${c.query}"${c.patchType ? ` (${c.patchType})` : ""}`, () => {
      assert.doesNotThrow(() =>
        checkWriteOptions(new URLSearchParams(c.query), c.kind, c.patchType),
      );
    });
  }

  const refused: {
    query: string;
    kind: WriteOptionsKind;
    patchType?: string;
    causes: [reason: string, field: string, detail: string][];
  }[] = [
    {
      query: "dryRun=Some",
      kind: "CreateOptions",
      causes: [
        [
          "FieldValueNotSupported",
          "dryRun",
          'Unsupported value: []string{"Some"}: supported values: "All"',
        ],
      ],
    },
    {
      query: "dryRun=All&dryRun=",
      kind: "UpdateOptions",
      causes: [
        [
          "FieldValueNotSupported",
          "dryRun",
          'Unsupported value: []string{"All", ""}: supported values: "All"',
        ],
      ],
    },
    {
      query: "fieldValidation=strict",
      kind: "CreateOptions",
      causes: [
        [
          "FieldValueNotSupported",
          "fieldValidation",
          'Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
        ],
      ],
    },
    {
      query: "force=true",
      kind: "PatchOptions",
      patchType: "merge",
      causes: [
        ["FieldValueForbidden", "force", "Forbidden: may not be specified for non-apply patch"],
      ],
    },
    {
      query: "",
      kind: "PatchOptions",
      patchType: "apply",
      causes: [
        ["FieldValueRequired", "fieldManager", "Required value: is required for apply patch"],
      ],
    },
    {
      query: `fieldManager=${"m".repeat(129)}`,
      kind: "UpdateOptions",
      causes: [["FieldValueTooLong", "fieldManager", "Too long: must have at most 128 bytes"]],
    },
    {
      query: "fieldManager=a%07b&dryRun=x",
      kind: "CreateOptions",
      causes: [
        [
          "FieldValueInvalid",
          "fieldManager",
          'Invalid value: "a\\u0007b": invalid character U+0007 (at position 1)',
        ],
        [
          "FieldValueNotSupported",
          "dryRun",
          'Unsupported value: []string{"x"}: supported values: "All"',
        ],
      ],
    },
  ];
  for (const c of refused) {
    it(`refuses ${c.kind} "${c.query.slice(0, 40)}" naming ${c.causes.map((x) => x[1]).join(", ")}`, () => {
      const e = refusal(c.query, c.kind, c.patchType);
      assert.equal(e.code, 422);
      assert.equal(e.details.kind, c.kind);
      assert.equal(e.details.group, "meta.k8s.io");
      assert.deepEqual(
        e.errors.map((f) => [f.reason, f.field, f.detail]),
        c.causes,
      );
      assert.ok(e.message.startsWith(`${c.kind}.meta.k8s.io "" is invalid: `), e.message);
    });
  }

  it("reads the first of repeated fieldManager values, as kube's parameter codec", () => {
    assert.doesNotThrow(() =>
      checkWriteOptions(
        new URLSearchParams(`fieldManager=ok&fieldManager=${"x".repeat(200)}`),
        "CreateOptions",
      ),
    );
  });
});

describe("fieldManagerErrors", () => {
  it("counts positions in bytes, as Go ranges over a string", () => {
    const errs = fieldManagerErrors("é\tx\n", "m");
    assert.deepEqual(
      errs.map((e) => e.detail.replace(/^.*invalid character /, "")),
      ["U+0009 (at position 2)", "U+000A (at position 4)"],
    );
  });

  it("measures length in bytes: 64 two-byte letters are at the limit, 65 over it", () => {
    assert.deepEqual(fieldManagerErrors("é".repeat(64), "m"), []);
    assert.equal(fieldManagerErrors("é".repeat(65), "m")[0]?.reason, "FieldValueTooLong");
  });
});

describe("dryRunErrors and goStringSlice", () => {
  it("accepts no values and only All", () => {
    assert.deepEqual(dryRunErrors([]), []);
    assert.deepEqual(dryRunErrors(["All"]), []);
    assert.equal(dryRunErrors(["all"], "options.dryRun")[0]?.field, "options.dryRun");
  });

  it("prints a slice as Go's %#v", () => {
    assert.equal(goStringSlice([]), "[]string{}");
    assert.equal(goStringSlice(["a", 'b"c']), '[]string{"a", "b\\"c"}');
  });
});

describe("fieldManager and isDryRun", () => {
  const ctx = (query: string, userAgent?: string) =>
    ({
      query: new URLSearchParams(query),
      req: {
        headers: userAgent === undefined ? {} : { "user-agent": userAgent },
      } as IncomingMessage,
    }) as unknown as RequestContext;

  const managers = [
    { query: "fieldManager=helm", agent: "kubectl/v1.31.0 (linux/amd64)", want: "helm" },
    { query: "", agent: "kubectl/v1.31.0 (linux/amd64) kubernetes/abc", want: "kubectl" },
    { query: "", agent: "envtest", want: "envtest" },
    { query: "", agent: undefined, want: "unknown" },
    { query: "", agent: "/v1", want: "unknown" },
    { query: "", agent: "a\u0007b/1", want: "ab" },
    { query: "", agent: `${"é".repeat(70)}/1`, want: "é".repeat(64) },
    { query: "fieldManager=", agent: "curl/8", want: "curl" },
  ];
  for (const m of managers) {
    it(`names the manager "${m.want.slice(0, 12)}" for ${m.query || "no query"} and agent ${JSON.stringify(m.agent?.slice(0, 20))}`, () => {
      assert.equal(fieldManager(ctx(m.query, m.agent)), m.want);
    });
  }

  it("is a dry run when any dryRun value is given", () => {
    assert.equal(isDryRun(ctx("")), false);
    assert.equal(isDryRun(ctx("dryRun=All")), true);
  });
});
