/**
 * The query options of LIST and WATCH, table-driven against kube-apiserver's
 * answers: strconv's 400s for numbers, ValidateListOptions' 422 on
 * ListOptions.meta.k8s.io (each cause naming its field), the storage's 400s
 * for resourceVersion and continue, and what a valid query parses to.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError, InvalidError } from "../../api/index.js";
import { parseInt64, parseListOptions, parseResourceVersion } from "./list-options.js";

const q = (s: string) => new URLSearchParams(s);

/** The ApiError `fn` throws. */
function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, `not an ApiError: ${String(e)}`);
    return e;
  }
  assert.fail("nothing was thrown");
}

describe("parseInt64 (strconv.ParseInt)", () => {
  const ok = [
    ["0", 0],
    ["+5", 5],
    ["-7", -7],
    ["9223372036854775807", Number.MAX_SAFE_INTEGER],
    ["-9223372036854775808", Number.MIN_SAFE_INTEGER],
  ] as const;
  for (const [raw, want] of ok) it(`reads ${raw}`, () => assert.equal(parseInt64(raw), want));

  const bad = [
    ["", "invalid syntax"],
    ["1.5", "invalid syntax"],
    ["ten", "invalid syntax"],
    [" 1", "invalid syntax"],
    ["9223372036854775808", "value out of range"],
    ["-9223372036854775809", "value out of range"],
  ] as const;
  for (const [raw, why] of bad) {
    it(`refuses ${JSON.stringify(raw)}: ${why}`, () => {
      const e = thrown(() => parseInt64(raw));
      assert.equal(e.code, 400);
      assert.equal(e.message, `strconv.ParseInt: parsing ${JSON.stringify(raw)}: ${why}`);
    });
  }
});

describe("parseResourceVersion (strconv.ParseUint)", () => {
  it("reads absent and empty as unset, digits as the revision, and caps past 2^53", () => {
    assert.equal(parseResourceVersion(null), undefined);
    assert.equal(parseResourceVersion(""), undefined);
    assert.equal(parseResourceVersion("0"), 0);
    assert.equal(parseResourceVersion("42"), 42);
    assert.equal(parseResourceVersion("18446744073709551615"), Number.MAX_SAFE_INTEGER);
  });

  const bad = [
    ["-1", "invalid syntax"],
    ["abc", "invalid syntax"],
    ["1e3", "invalid syntax"],
    ["18446744073709551616", "value out of range"],
  ] as const;
  for (const [raw, why] of bad) {
    it(`refuses ${raw} with a 400 naming resourceVersion`, () => {
      const e = thrown(() => parseResourceVersion(raw));
      assert.equal(e.code, 400);
      assert.equal(
        e.message,
        `invalid resource version: resourceVersion: Invalid value: "${raw}": strconv.ParseUint: parsing "${raw}": ${why}`,
      );
    });
  }
});

describe("parseListOptions", () => {
  const parsed = [
    { query: "", watch: false, want: { allowWatchBookmarks: false } },
    { query: "limit=0", watch: false, want: { allowWatchBookmarks: false } },
    { query: "limit=-3", watch: false, want: { allowWatchBookmarks: false } },
    {
      query: "limit=2&continue=abc",
      watch: false,
      want: { limit: 2, continue: "abc", allowWatchBookmarks: false },
    },
    {
      query: "continue=abc&resourceVersion=0",
      watch: false,
      want: { continue: "abc", resourceVersion: 0, allowWatchBookmarks: false },
    },
    {
      query: "resourceVersion=12&resourceVersionMatch=Exact",
      watch: false,
      want: { resourceVersion: 12, resourceVersionMatch: "Exact", allowWatchBookmarks: false },
    },
    {
      query: "resourceVersion=0&resourceVersionMatch=NotOlderThan",
      watch: false,
      want: {
        resourceVersion: 0,
        resourceVersionMatch: "NotOlderThan",
        allowWatchBookmarks: false,
      },
    },
    { query: "timeoutSeconds=0", watch: true, want: { allowWatchBookmarks: false } },
    {
      query: "timeoutSeconds=-1",
      watch: true,
      want: { timeoutSeconds: -1, allowWatchBookmarks: false },
    },
    {
      query: "timeoutSeconds=30&allowWatchBookmarks=true",
      watch: true,
      want: { timeoutSeconds: 30, allowWatchBookmarks: true },
    },
    { query: "allowWatchBookmarks=1", watch: true, want: { allowWatchBookmarks: true } },
    { query: "allowWatchBookmarks=0", watch: true, want: { allowWatchBookmarks: false } },
    { query: "allowWatchBookmarks=False", watch: true, want: { allowWatchBookmarks: false } },
    { query: "allowWatchBookmarks=", watch: true, want: { allowWatchBookmarks: true } },
  ];
  for (const c of parsed) {
    it(`${c.watch ? "watch" : "list"} "${c.query}" parses`, () => {
      assert.deepEqual(parseListOptions(q(c.query), c.watch), c.want);
    });
  }

  const invalid: { query: string; watch: boolean; causes: [string, string][] }[] = [
    {
      query: "resourceVersionMatch=Exact",
      watch: false,
      causes: [
        [
          "resourceVersionMatch",
          "Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided",
        ],
      ],
    },
    {
      query: "resourceVersion=0&resourceVersionMatch=Exact",
      watch: false,
      causes: [
        [
          "resourceVersionMatch",
          'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ],
      ],
    },
    {
      query: "resourceVersion=5&resourceVersionMatch=Newest",
      watch: false,
      causes: [
        [
          "resourceVersionMatch",
          'Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
        ],
      ],
    },
    {
      query: "resourceVersion=5&resourceVersionMatch=Exact&continue=x",
      watch: false,
      causes: [
        [
          "resourceVersionMatch",
          "Forbidden: resourceVersionMatch is forbidden when continue is provided",
        ],
      ],
    },
    {
      query: "sendInitialEvents=true",
      watch: false,
      causes: [["sendInitialEvents", "Forbidden: sendInitialEvents is forbidden for list"]],
    },
    {
      query: "resourceVersionMatch=NotOlderThan",
      watch: true,
      causes: [
        [
          "resourceVersionMatch",
          "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        ],
      ],
    },
    {
      query: "resourceVersionMatch=Exact&resourceVersion=3",
      watch: true,
      causes: [
        [
          "resourceVersionMatch",
          "Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
        ],
        ["resourceVersionMatch", 'Unsupported value: "Exact": supported values: "NotOlderThan"'],
      ],
    },
    {
      query: "sendInitialEvents=true",
      watch: true,
      causes: [
        [
          "resourceVersionMatch",
          "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
        ],
        [
          "sendInitialEvents",
          "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
        ],
      ],
    },
    {
      query: "sendInitialEvents=true&resourceVersionMatch=NotOlderThan",
      watch: true,
      causes: [
        [
          "sendInitialEvents",
          "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
        ],
      ],
    },
  ];
  for (const c of invalid) {
    it(`${c.watch ? "watch" : "list"} "${c.query}" is a 422 on ListOptions`, () => {
      const e = thrown(() => parseListOptions(q(c.query), c.watch));
      assert.ok(e instanceof InvalidError);
      assert.equal(e.code, 422);
      assert.equal(e.details?.kind, "ListOptions");
      assert.equal(e.details?.group, "meta.k8s.io");
      assert.deepEqual(
        e.errors.map((f) => [f.field, f.detail]),
        c.causes,
      );
      assert.match(e.message, /^ListOptions\.meta\.k8s\.io "" is invalid: /);
    });
  }

  const badRequests = [
    { query: "limit=x", message: 'strconv.ParseInt: parsing "x": invalid syntax' },
    { query: "timeoutSeconds=1.5", message: 'strconv.ParseInt: parsing "1.5": invalid syntax' },
    {
      query: "resourceVersion=-1",
      message: /^invalid resource version: resourceVersion: Invalid value: "-1"/,
    },
    {
      query: "continue=abc&resourceVersion=7",
      message: "specifying resource version is not allowed when using continue",
    },
  ];
  for (const c of badRequests) {
    it(`list "${c.query}" is a 400`, () => {
      const e = thrown(() => parseListOptions(q(c.query), false));
      assert.equal(e.code, 400);
      if (typeof c.message === "string") assert.equal(e.message, c.message);
      else assert.match(e.message, c.message);
    });
  }

  it("checks ListOptions before the numbers' syntax is trusted: a bad limit is a 400 even with a 422 pending", () => {
    const e = thrown(() => parseListOptions(q("limit=x&resourceVersionMatch=Exact"), false));
    assert.equal(e.code, 400, "conversion runs first, as kube decodes the query before validating");
  });
});
