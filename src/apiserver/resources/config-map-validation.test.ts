import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { configMapKey } from "../../api/index.js";
import { validateConfigMap } from "./config-map-validation.js";
import { validateSecret } from "./secret-validation.js";

const cm = (extra: Record<string, unknown>): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "c" },
  ...extra,
});
const secret = (extra: Record<string, unknown>): KubeObject => ({
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name: "s" },
  type: "Opaque",
  ...extra,
});
const b64 = (s: string) => Buffer.from(s).toString("base64");
const fields = (errs: { field: string }[]) => errs.map((e) => e.field);

describe("config keys (IsConfigMapKey)", () => {
  it("accepts kube's examples and refuses what could leave a volume", () => {
    for (const ok of ["key.name", "KEY_NAME", "key-name", ".hidden", "a..b"])
      assert.deepEqual(configMapKey(ok), [], ok);
    assert.deepEqual(configMapKey(".."), ["must not be '..'"]);
    assert.ok(configMapKey("bad key/")[0]!.startsWith("a valid config key must consist"));
    assert.deepEqual(configMapKey("..x"), ["must not start with '..'"]);
    assert.deepEqual(configMapKey("."), ["must not be '.'"]);
    assert.equal(configMapKey("").length, 1);
    assert.deepEqual(configMapKey("a".repeat(254)), ["must be no more than 253 characters"]);
    assert.equal(configMapKey("../x").length, 2);
  });
});

describe("ConfigMap validation", () => {
  it("names each bad key by its bag", () => {
    const errs = validateConfigMap(
      cm({ data: { "a/b": "" }, binaryData: { "c d": b64("") } }),
      undefined,
    );
    assert.deepEqual(fields(errs), ["data[a/b]", "binaryData[c d]"]);
    assert.equal(errs[0]!.reason, "FieldValueInvalid");
  });

  it("refuses a key in both data and binaryData", () => {
    const errs = validateConfigMap(
      cm({ data: { a: "1" }, binaryData: { a: b64("1") } }),
      undefined,
    );
    assert.deepEqual(
      errs.map((e) => e.detail),
      ['Invalid value: "a": duplicate of key present in binaryData'],
    );
  });

  it("counts data bytes (UTF-8) and decoded binaryData against 1 MiB", () => {
    const under = "é".repeat(512 * 1024); // 1 MiB of UTF-8 exactly
    assert.deepEqual(validateConfigMap(cm({ data: { a: under } }), undefined), []);
    const errs = validateConfigMap(
      cm({ data: { a: under }, binaryData: { b: b64("x") } }),
      undefined,
    );
    assert.deepEqual(errs, [
      {
        reason: "FieldValueTooLong",
        field: "[]",
        detail: "Too long: must have at most 1048576 bytes",
      },
    ]);
  });

  it("keeps an immutable ConfigMap's data and its immutability", () => {
    const old = cm({ data: { a: "1" }, immutable: true });
    assert.deepEqual(validateConfigMap(cm({ data: { a: "1" }, immutable: true }), old), []);
    assert.deepEqual(fields(validateConfigMap(cm({ data: { a: "2" }, immutable: true }), old)), [
      "data",
    ]);
    assert.deepEqual(fields(validateConfigMap(cm({ data: { a: "1" } }), old)), ["immutable"]);
    assert.deepEqual(
      fields(
        validateConfigMap(cm({ data: { a: "1" }, binaryData: { b: "" }, immutable: true }), old),
      ),
      ["binaryData"],
    );
    // A mutable one may become immutable and change on the way.
    assert.deepEqual(
      validateConfigMap(cm({ data: { a: "9" }, immutable: true }), cm({ data: {} })),
      [],
    );
  });
});

describe("Secret validation", () => {
  it("checks keys and the decoded total", () => {
    assert.deepEqual(fields(validateSecret(secret({ data: { "x y": b64("") } }), undefined)), [
      "data[x y]",
    ]);
    const big = Buffer.alloc(1024 * 1024 + 1).toString("base64");
    assert.deepEqual(fields(validateSecret(secret({ data: { a: big } }), undefined)), ["data"]);
    const fits = Buffer.alloc(1024 * 1024).toString("base64");
    assert.deepEqual(validateSecret(secret({ data: { a: fits } }), undefined), []);
  });

  it("requires each type's keys", () => {
    const check = (type: string, data: Record<string, string> = {}, annotations = {}) =>
      fields(
        validateSecret(secret({ type, data, metadata: { name: "s", annotations } }), undefined),
      );
    assert.deepEqual(check("kubernetes.io/tls"), ["data[tls.crt]", "data[tls.key]"]);
    assert.deepEqual(check("kubernetes.io/tls", { "tls.crt": "" }), ["data[tls.key]"]);
    assert.deepEqual(check("kubernetes.io/service-account-token"), [
      "metadata.annotations[kubernetes.io/service-account.name]",
    ]);
    assert.deepEqual(
      check(
        "kubernetes.io/service-account-token",
        {},
        { "kubernetes.io/service-account.name": "sa" },
      ),
      [],
    );
    assert.deepEqual(check("kubernetes.io/basic-auth"), ["data[username]", "data[password]"]);
    assert.deepEqual(check("kubernetes.io/basic-auth", { password: "" }), []);
    assert.deepEqual(check("kubernetes.io/ssh-auth", { "ssh-privatekey": "" }), [
      "data[ssh-privatekey]",
    ]);
    assert.deepEqual(check("kubernetes.io/dockercfg"), ["data[.dockercfg]"]);
    assert.deepEqual(check("kubernetes.io/dockerconfigjson", { ".dockerconfigjson": b64("[1]") }), [
      "data[.dockerconfigjson]",
    ]);
    assert.deepEqual(
      check("kubernetes.io/dockerconfigjson", { ".dockerconfigjson": b64("{}") }),
      [],
    );
    assert.deepEqual(check("bootstrap.kubernetes.io/token"), []);
    assert.deepEqual(check("example.com/custom"), []);
  });

  it("redacts docker config contents in its message", () => {
    const [e] = validateSecret(
      secret({ type: "kubernetes.io/dockercfg", data: { ".dockercfg": b64('"s3cret"') } }),
      undefined,
    );
    assert.equal(
      e!.detail,
      'Invalid value: "<secret contents redacted>": json: cannot unmarshal string into Go value of type map[string]interface {}',
    );
  });

  it("keeps the type, and an immutable Secret's data", () => {
    const old = secret({ data: { a: b64("1") }, immutable: true });
    const errs = validateSecret(
      secret({ type: "kubernetes.io/tls", data: { a: b64("1") }, immutable: true }),
      old,
    );
    assert.deepEqual(fields(errs), ["type", "data[tls.crt]", "data[tls.key]"]);
    assert.equal(errs[0]!.detail, 'Invalid value: "kubernetes.io/tls": field is immutable');
    assert.deepEqual(
      fields(validateSecret(secret({ data: { a: b64("2") }, immutable: true }), old)),
      ["data"],
    );
    assert.deepEqual(fields(validateSecret(secret({ data: { a: b64("1") } }), old)), ["immutable"]);
  });
});
