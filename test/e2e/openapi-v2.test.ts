/**
 * `/openapi/v2` against the real `hearth up` and kubectl: the JSON document
 * holds built-in, app and CRD kinds (a CRD created later appears), the
 * protobuf encoding client-go's `OpenAPISchema()` asks for is answered in
 * protobuf and read by kubectl's own v2 models (`explain
 * --output=plaintext-openapiv2`), ETag/`If-None-Match` give a 304, and an app
 * kind with an ApplicationDefinition but no module gets kube's `no matches for
 * kind` instead of an OpenAPI download error.
 */
import assert from "node:assert/strict";
import https from "node:https";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadKubeconfig } from "../../src/client/index.js";
import { type Hearth, REPO_ROOT, startHearth, waitFor } from "../support/hearth-process.js";

const PROTOBUF_ACCEPT = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GETs a path with the admin token and the given headers. */
async function rawGet(
  kubeconfig: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawResponse> {
  const config = await loadKubeconfig(kubeconfig);
  return new Promise((resolve, reject) => {
    const req = https.request(new URL(path, config.server), {
      method: "GET",
      ca: config.caPem,
      headers: { authorization: `Bearer ${config.token}`, ...headers },
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

interface Swagger {
  swagger: string;
  paths: Record<string, unknown>;
  definitions: Record<string, { "x-kubernetes-group-version-kind"?: unknown[] } & object>;
}

describe("/openapi/v2 (hearth up, kubectl)", () => {
  let h: Hearth;
  before(async () => {
    h = await startHearth({ extraArgs: ["--no-node-agent"] });
  });
  after(async () => {
    await h?.cleanup();
  });

  it("kubectl get --raw /openapi/v2 is Swagger 2.0 with built-in, app and (once created) CRD kinds", async () => {
    const before = JSON.parse(await h.kubectlOk(["get", "--raw", "/openapi/v2"])) as Swagger;
    assert.equal(before.swagger, "2.0");
    assert.ok(before.definitions["io.k8s.api.core.v1.Pod"], "Pod");
    const tenant = before.definitions["io.cozystack.apps.v1alpha1.Tenant"];
    assert.ok(tenant, "Tenant");
    assert.deepEqual(tenant["x-kubernetes-group-version-kind"], [
      { group: "apps.cozystack.io", kind: "Tenant", version: "v1alpha1" },
    ]);
    assert.ok(before.paths["/apis/apps.cozystack.io/v1alpha1/namespaces/{namespace}/tenants"]);
    assert.doesNotMatch(JSON.stringify(before), /#\/components\/schemas\/|"nullable"/);
    assert.equal(before.definitions["com.example.stable.v1.CronTab"], undefined);

    await h.kubectlOk(["apply", "-f", join(REPO_ROOT, "test/fixtures/crontab-crd.yaml")]);
    const after = await waitFor("CronTab in /openapi/v2", async () => {
      const doc = JSON.parse(await h.kubectlOk(["get", "--raw", "/openapi/v2"])) as Swagger;
      return doc.definitions["com.example.stable.v1.CronTab"] ? doc : undefined;
    });
    assert.ok(after.paths["/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}"]);
    // kubectl's v2 validation, strict, of a custom object.
    await h.kubectlOk([
      "apply",
      "--validate=strict",
      "-f",
      join(REPO_ROOT, "test/fixtures/crontab.yaml"),
    ]);
  });

  it("answers client-go's protobuf request in protobuf, which kubectl's v2 models read", async () => {
    const res = await rawGet(h.kubeconfig, "/openapi/v2", { accept: PROTOBUF_ACCEPT });
    assert.equal(res.status, 200);
    assert.equal(
      res.headers["content-type"],
      "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
    );
    // Document.swagger (field 1, length-delimited) comes first: 0x0a, 3, "2.0".
    assert.deepEqual([...res.body.subarray(0, 5)], [0x0a, 3, ...Buffer.from("2.0")]);
    await h.kubectlOk(["apply", "-f", join(REPO_ROOT, "test/fixtures/crontab-crd.yaml")]);
    const explained = await h.kubectlOk([
      "explain",
      "crontabs.spec",
      "--output=plaintext-openapiv2",
    ]);
    assert.match(explained, /KIND:\s+CronTab/);
    assert.match(explained, /cronSpec\s+<string>/);
    const tenant = await h.kubectlOk(["explain", "tenants", "--output=plaintext-openapiv2"]);
    assert.match(tenant, /VERSION:\s+apps\.cozystack\.io\/v1alpha1/);
  });

  it("sends an ETag per encoding and 304 for If-None-Match; 406 for an encoding it does not serve", async () => {
    const json = await rawGet(h.kubeconfig, "/openapi/v2", { accept: "application/json" });
    const pb = await rawGet(h.kubeconfig, "/openapi/v2", { accept: PROTOBUF_ACCEPT });
    const etag = json.headers.etag;
    assert.equal(typeof etag, "string");
    assert.match(String(etag), /^"[0-9A-F]{128}"$/);
    assert.notEqual(pb.headers.etag, etag);
    const again = await rawGet(h.kubeconfig, "/openapi/v2", {
      accept: "application/json",
      "if-none-match": String(etag),
    });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const refused = await rawGet(h.kubeconfig, "/openapi/v2", { accept: "application/test" });
    assert.equal(refused.status, 406);
    assert.equal(JSON.parse(refused.body.toString()).reason, "NotAcceptable");
  });

  it("an app kind with a definition but no module gets kube's `no matches for kind`", async () => {
    const manifest = [
      "apiVersion: apps.cozystack.io/v1alpha1",
      "kind: Postgres",
      "metadata:",
      "  name: db",
      "  namespace: tenant-root",
      "spec: {}",
      "",
    ].join("\n");
    const res = await h.kubectl(["apply", "-f", "-"], { input: manifest });
    assert.notEqual(res.code, 0);
    assert.match(
      res.stderr,
      /no matches for kind "Postgres" in version "apps\.cozystack\.io\/v1alpha1"/,
    );
    assert.doesNotMatch(res.stderr, /failed to download openapi/);
  });
});
