/**
 * Bad input gets the right 4xx Status, the server stays up, and nothing is
 * written: malformed JSON and YAML, wrong types, unknown fields under strict
 * validation, bad names, oversized bodies, unsupported media types, and watches or
 * lists from a compacted revision.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import YAML from "yaml";
import { REPO_ROOT } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { expectRefused, type Refusal, type StatusBody } from "../support/refusal.js";

const CM_PATH = "/api/v1/namespaces/default/configmaps";
const CT_PATH = "/apis/stable.example.com/v1/namespaces/default/crontabs";

describe("bad input", () => {
  let s: InProcessServer;

  before(async () => {
    s = await startInProcess();
    const crd = YAML.parse(readFileSync(join(REPO_ROOT, "test/fixtures/crontab-crd.yaml"), "utf8"));
    const r = await s.request(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      JSON.stringify(crd),
    );
    assert.equal(r.status, 201, r.text);
  });
  after(async () => {
    await s?.stop();
  });

  /** Sends a bad request and checks the Status, that the server answers, and that no revision was written. */
  function refused(
    method: string,
    path: string,
    body: string | Buffer | undefined,
    expect: Refusal,
    headers: Record<string, string> = {},
  ): Promise<StatusBody> {
    return expectRefused(
      s,
      `${method} ${path}`,
      () => s.request(method, path, body, headers),
      expect,
    );
  }

  it("refuses malformed JSON and YAML", async () => {
    await refused("POST", CM_PATH, '{"apiVersion":"v1","kind":"ConfigMap",', {
      code: 400,
      reason: "BadRequest",
    });
    await refused(
      "POST",
      CM_PATH,
      "apiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n",
      { code: 400, reason: "BadRequest" },
      { "Content-Type": "application/yaml" },
    );
    await refused("POST", CM_PATH, "", { code: 400, reason: "BadRequest" });
    await refused("POST", CM_PATH, '"just a string"', { code: 400, reason: "BadRequest" });
  });

  it("refuses wrong types", async () => {
    const cm = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "typed" }, data: 5 };
    await refused("POST", CM_PATH, JSON.stringify(cm), {
      code: 400,
      reason: "BadRequest",
      message: /ConfigMap in version "v1" cannot be handled as a ConfigMap/,
    });
    const ct = {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "typed" },
      spec: { replicas: "three" },
    };
    const status = await refused("POST", CT_PATH, JSON.stringify(ct), {
      code: 422,
      reason: "Invalid",
      message:
        /spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer/,
    });
    assert.equal(status.details?.causes?.[0]?.field, "spec.replicas");
    const wrongKind = { apiVersion: "v1", kind: "Secret", metadata: { name: "x" } };
    await refused("POST", CM_PATH, JSON.stringify(wrongKind), {
      code: 400,
      reason: "BadRequest",
      message: /does not match the expected/,
    });
  });

  it("refuses unknown fields under strict validation, and warns otherwise", async () => {
    const ct = {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { name: "strict" },
      spec: { cronSpec: "x", bogus: 1 },
    };
    await refused("POST", `${CT_PATH}?fieldValidation=Strict`, JSON.stringify(ct), {
      code: 400,
      reason: "BadRequest",
      message:
        /CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogus"/,
    });
    const warned = await s.request("POST", CT_PATH, JSON.stringify(ct));
    assert.equal(warned.status, 201);
    assert.match(warned.headers.get("warning") ?? "", /unknown field \\"spec.bogus\\"/);
    assert.equal(
      (warned.body as { spec: Record<string, unknown> }).spec.bogus,
      undefined,
      "unknown fields are pruned",
    );
  });

  it("refuses bad names with the field and the rule", async () => {
    const ns = (name: string) =>
      JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
    const long = await refused("POST", "/api/v1/namespaces", ns("a".repeat(64)), {
      code: 422,
      reason: "Invalid",
      message: /metadata.name: Invalid value: "a{64}": must be no more than 63 characters/,
    });
    assert.equal(long.details?.causes?.[0]?.field, "metadata.name");
    await refused("POST", "/api/v1/namespaces", ns("Bad_Name"), {
      code: 422,
      reason: "Invalid",
      message: /a lowercase RFC 1123 label must consist of/,
    });
    const cm = (name: string) =>
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });
    await refused("POST", CM_PATH, cm("a".repeat(254)), {
      code: 422,
      reason: "Invalid",
      message: /must be no more than 253 characters/,
    });
    await refused("POST", CM_PATH, cm("has space"), {
      code: 422,
      reason: "Invalid",
      message: /RFC 1123 subdomain/,
    });
    await refused(
      "POST",
      CM_PATH,
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: {} }),
      {
        code: 422,
        reason: "Invalid",
        message: /metadata.name: Required value: name or generateName is required/,
      },
    );
    const label = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "ok", labels: { "bad key!": "v" } },
    });
    await refused("POST", CM_PATH, label, {
      code: 422,
      reason: "Invalid",
      message: /metadata.labels: Invalid value: "bad key!"/,
    });
    const created = await s.request("POST", CM_PATH, cm("a".repeat(253)));
    assert.equal(created.status, 201, "253 characters is the limit, not over it");
  });

  it("refuses bodies over 3 MiB", async () => {
    const big = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "big" },
      data: { k: "x".repeat(3 * 1024 * 1024) },
    });
    await refused("POST", CM_PATH, big, { code: 413, reason: "RequestEntityTooLarge" });
  });

  it("refuses unsupported media types and patch types", async () => {
    await refused(
      "POST",
      CM_PATH,
      "<xml/>",
      { code: 415, reason: "UnsupportedMediaType" },
      { "Content-Type": "application/xml" },
    );
    await s.request(
      "POST",
      CM_PATH,
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patchme" } }),
    );
    await refused(
      "PATCH",
      `${CM_PATH}/patchme`,
      "{}",
      { code: 415, reason: "UnsupportedMediaType" },
      { "Content-Type": "text/plain" },
    );
    await refused(
      "PATCH",
      `${CM_PATH}/patchme`,
      '{"not":"a list"}',
      { code: 400, reason: "BadRequest" },
      { "Content-Type": "application/json-patch+json" },
    );
  });

  it("returns NotFound and Conflict as kube-apiserver does", async () => {
    const nf = await refused("GET", `${CM_PATH}/missing`, undefined, {
      code: 404,
      reason: "NotFound",
      message: /^configmaps "missing" not found$/,
    });
    assert.equal(nf.details?.causes, undefined);
    await refused(
      "POST",
      CM_PATH,
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patchme" } }),
      { code: 409, reason: "AlreadyExists", message: /^configmaps "patchme" already exists$/ },
    );
    await refused(
      "POST",
      "/api/v1/namespaces/nowhere/configmaps",
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } }),
      { code: 404, reason: "NotFound", message: /namespaces "nowhere" not found/ },
    );
    const stale = {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "patchme", resourceVersion: "1" },
    };
    await refused("PUT", `${CM_PATH}/patchme`, JSON.stringify(stale), {
      code: 409,
      reason: "Conflict",
      message: /the object has been modified/,
    });
    await refused("GET", "/api/v1/namespaces/default/widgets", undefined, {
      code: 404,
      reason: "NotFound",
    });
  });

  it("ends a watch from a compacted revision with 410 Expired", async () => {
    const first = await s.request(
      "POST",
      CM_PATH,
      JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "old" } }),
    );
    const oldRv = Number(
      (first.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion,
    );
    for (let i = 0; i < 5; i++) {
      await s.request(
        "PUT",
        `${CM_PATH}/old`,
        JSON.stringify({
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "old" },
          data: { i: String(i) },
        }),
      );
    }
    await s.backend.compact(await s.backend.currentRevision());
    const before = await s.backend.currentRevision();
    const r = await s.request("GET", `${CM_PATH}?watch=true&resourceVersion=${oldRv}`);
    assert.equal(r.status, 200);
    const event = JSON.parse(r.text.trim().split("\n")[0]!) as { type: string; object: StatusBody };
    assert.equal(event.type, "ERROR");
    assert.equal(event.object.code, 410);
    assert.equal(event.object.reason, "Expired");
    assert.match(event.object.message, /too old resource version/);
    const page = await s.request("GET", `${CM_PATH}?limit=1`);
    const token = (page.body as { metadata: { continue?: string } }).metadata.continue;
    assert.ok(token);
    await s.request(
      "PUT",
      `${CM_PATH}/old`,
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "old" },
        data: { i: "x" },
      }),
    );
    await s.backend.compact(await s.backend.currentRevision());
    const after = await s.backend.currentRevision();
    assert.equal(after, before + 1);
    await refused("GET", `${CM_PATH}?limit=1&continue=${token}`, undefined, {
      code: 410,
      reason: "Expired",
    });
  });
});
