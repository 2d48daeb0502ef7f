/**
 * apimachinery's name rules, table-driven: each value with the messages kube
 * gives for it (empty when valid), so a name kube refuses is refused here with
 * kube's words, and one kube accepts is accepted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  configMapKey,
  dns1123Label,
  dns1123Subdomain,
  labelValue,
  pathSegmentName,
  qualifiedName,
} from "./names.js";

type Check = (value: string) => string[];

/** Runs `check` over values that must pass and values that must fail with messages matching `want`. */
function table(check: Check, valid: string[], invalid: [value: string, want: RegExp[]][]): void {
  for (const v of valid) {
    it(`accepts ${JSON.stringify(v.length > 40 ? `${v.slice(0, 20)}…(${v.length})` : v)}`, () => {
      assert.deepEqual(check(v), []);
    });
  }
  for (const [v, want] of invalid) {
    it(`refuses ${JSON.stringify(v.length > 40 ? `${v.slice(0, 20)}…(${v.length})` : v)}`, () => {
      const got = check(v);
      assert.equal(got.length, want.length, `messages: ${JSON.stringify(got)}`);
      for (const [i, re] of want.entries()) assert.match(got[i]!, re);
    });
  }
}

const LABEL_RULE =
  /^a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'/;
const SUBDOMAIN_RULE =
  /^a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'/;
const TOO_LONG = (n: number) => new RegExp(`^must be no more than ${n} characters$`);

describe("dns1123Label", () => {
  table(
    dns1123Label,
    ["a", "0", "my-name", "123-abc", "a".repeat(63)],
    [
      ["", [LABEL_RULE]],
      ["A", [LABEL_RULE]],
      ["-a", [LABEL_RULE]],
      ["a-", [LABEL_RULE]],
      ["a.b", [LABEL_RULE]],
      ["a_b", [LABEL_RULE]],
      ["a".repeat(64), [TOO_LONG(63)]],
      [`-${"a".repeat(63)}`, [TOO_LONG(63), LABEL_RULE]],
    ],
  );
});

describe("dns1123Subdomain", () => {
  table(
    dns1123Subdomain,
    ["example.com", "a", "a-b.c-d", "1.2.3", "a".repeat(253)],
    [
      ["", [SUBDOMAIN_RULE]],
      ["Example.com", [SUBDOMAIN_RULE]],
      ["a..b", [SUBDOMAIN_RULE]],
      [".a", [SUBDOMAIN_RULE]],
      ["a.", [SUBDOMAIN_RULE]],
      ["a.-b", [SUBDOMAIN_RULE]],
      ["a".repeat(254), [TOO_LONG(253)]],
    ],
  );
});

describe("pathSegmentName", () => {
  table(
    pathSegmentName,
    ["a", "A_b", "...", "a.b", "with space"],
    [
      [".", [/^may not be '\.'$/]],
      ["..", [/^may not be '\.\.'$/]],
      ["a/b", [/^may not contain '\/'$/]],
      ["a%b", [/^may not contain '%'$/]],
    ],
  );
});

const NAME_PART = /^name part must consist of alphanumeric characters, '-', '_' or '.'/;

describe("qualifiedName", () => {
  table(
    qualifiedName,
    [
      "app",
      "MyName",
      "my.name",
      "123-abc",
      "example.com/MyName",
      "a_b",
      "k8s.io/x",
      `p/${"n".repeat(63)}`,
    ],
    [
      ["", [/^name part must be non-empty$/, NAME_PART]],
      ["-a", [NAME_PART]],
      ["a-", [NAME_PART]],
      ["a b", [NAME_PART]],
      ["/a", [/^prefix part must be non-empty$/]],
      ["a/", [/^name part must be non-empty$/, NAME_PART]],
      ["Example.com/a", [/^prefix part a lowercase RFC 1123 subdomain/]],
      [
        "a/b/c",
        [
          /^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/,
        ],
      ],
      ["n".repeat(64), [/^name part must be no more than 63 characters$/]],
      [`${"p".repeat(254)}/n`, [/^prefix part must be no more than 253 characters$/]],
    ],
  );
});

const VALUE_RULE = /^a valid label must be an empty string or consist of alphanumeric characters/;

describe("labelValue", () => {
  table(
    labelValue,
    ["", "MyValue", "my_value", "12345", "a.b-c_d", "v".repeat(63)],
    [
      ["-a", [VALUE_RULE]],
      ["a_", [VALUE_RULE]],
      ["a/b", [VALUE_RULE]],
      ["a b", [VALUE_RULE]],
      ["v".repeat(64), [TOO_LONG(63)]],
    ],
  );
});

const KEY_RULE = /^a valid config key must consist of alphanumeric characters, '-', '_' or '\.'/;

describe("configMapKey", () => {
  table(
    configMapKey,
    ["key.name", "KEY_NAME", "key-name", ".hidden", "a..b", "k".repeat(253)],
    [
      ["", [KEY_RULE]],
      ["a/b", [KEY_RULE]],
      ["a b", [KEY_RULE]],
      [".", [/^must not be '\.'$/]],
      ["..", [/^must not be '\.\.'$/]],
      ["..a", [/^must not start with '\.\.'$/]],
      ["k".repeat(254), [TOO_LONG(253)]],
      // Go's len() counts bytes: 127 two-byte letters are 254 bytes.
      ["é".repeat(127), [TOO_LONG(253), KEY_RULE]],
    ],
  );
});
