/**
 * Issue 12 against a real `hearth up` and the real kubectl: the health
 * endpoints in kube-apiserver's format (`/readyz` with the platform's checks,
 * `/livez` without them), the `timeout` query parameter (a Go duration; a bad
 * one is a 400 Status, a request past it a 504 Status), watches bounded as
 * kube bounds them, and every kubectl command family the e2e tests use
 * passing with `--request-timeout=20s`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, REPO_ROOT, run, startHearth } from "../support/hearth-process.js";

const RT = "--request-timeout=20s";

interface Answer {
  status: number;
  text: string;
}

describe("readiness and request timeouts under hearth up", () => {
  let h: Hearth;
  let ca: string;
  let token: string;
  const editorHome = mkdtempSync(join(tmpdir(), "hearth-edit-home-"));

  /** One HTTPS request; `body` sends only part of a declared body when `contentLength` is larger. */
  function raw(
    method: string,
    path: string,
    opts: { auth?: boolean; body?: string; contentLength?: number } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { Accept: "application/json" };
      if (opts.auth !== false) headers.Authorization = `Bearer ${token}`;
      if (opts.body !== undefined) {
        headers["Content-Type"] = "application/json";
        headers["Content-Length"] = opts.contentLength ?? Buffer.byteLength(opts.body);
      }
      const req = request({ host: "127.0.0.1", port: h.port, path, method, ca, headers }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, text });
          req.destroy();
        });
      });
      // The test's own bound: a server that never answers fails the test instead of hanging it.
      req.setTimeout(20_000, () =>
        req.destroy(new Error(`no answer to ${method} ${path} in 20 s`)),
      );
      req.on("error", reject);
      if (opts.body !== undefined) req.write(opts.body);
      if (opts.contentLength === undefined) req.end();
    });
  }

  before(async () => {
    h = await startHearth({ extraArgs: ["--no-node-agent"] });
    ca = readFileSync(join(h.dataDir, "pki", "ca.crt"), "utf8");
    token = readFileSync(join(h.dataDir, "pki", "admin.token"), "utf8").trim();
  });
  after(async () => {
    await h?.cleanup();
    rmSync(editorHome, { recursive: true, force: true });
  });

  it("answers /readyz?verbose with every check by name once the ready line is out", async () => {
    const r = await raw("GET", "/readyz?verbose", { auth: false });
    assert.equal(r.status, 200);
    assert.equal(
      r.text,
      [
        "[+]ping ok",
        "[+]storage ok",
        "[+]shutdown ok",
        "[+]platform-kinds ok",
        "[+]bootstrap-objects ok",
        "readyz check passed",
        "",
      ].join("\n"),
    );
    assert.equal((await raw("GET", "/readyz", { auth: false })).text, "ok");
    assert.equal(
      (await raw("GET", "/readyz?verbose&exclude=platform-kinds", { auth: false })).text.split(
        "\n",
      )[3],
      "[+]platform-kinds excluded: ok",
    );
  });

  it("answers one check at /readyz/<name> for an authenticated caller", async () => {
    assert.equal(await h.kubectlOk(["get", "--raw", "/readyz/platform-kinds"]), "ok");
    assert.equal(await h.kubectlOk(["get", "--raw", "/readyz/bootstrap-objects"]), "ok");
    assert.equal((await raw("GET", "/readyz/platform-kinds", { auth: false })).status, 401);
    assert.equal((await raw("GET", "/readyz/nonesuch")).status, 404);
  });

  it("keeps /livez independent of the platform's readiness", async () => {
    const r = await raw("GET", "/livez?verbose", { auth: false });
    assert.equal(r.text, "[+]ping ok\n[+]storage ok\nlivez check passed\n");
    assert.equal((await raw("GET", "/livez/platform-kinds")).status, 404);
  });

  it("refuses a timeout that is not a Go duration with a 400 Status naming it", async () => {
    for (const path of [
      "/api/v1/namespaces?timeout=abc",
      "/api/v1/namespaces/default?timeout=1d",
    ]) {
      const r = await raw("GET", path);
      assert.equal(r.status, 400, path);
      const status = JSON.parse(r.text);
      assert.equal(status.kind, "Status");
      assert.equal(status.reason, "BadRequest");
      assert.match(status.message, /^invalid timeout specified in the request URL - time: /);
    }
    const k = await h.kubectl(["get", "--raw", "/api/v1/namespaces?timeout=abc"]);
    assert.notEqual(k.code, 0);
    assert.match(
      k.stderr,
      /invalid timeout specified in the request URL - time: invalid duration "abc"/,
    );
    assert.equal((await raw("GET", "/api/v1/namespaces?timeout=20s")).status, 200);
  });

  it("answers 504 Timeout to a request still running at its timeout", async () => {
    const started = Date.now();
    // Half a body that never comes: the create cannot finish, its deadline can.
    const r = await raw("POST", "/api/v1/namespaces/default/configmaps?timeout=1s", {
      body: '{"apiVersion":"v1",',
      contentLength: 100,
    });
    const took = Date.now() - started;
    assert.equal(r.status, 504, r.text);
    const status = JSON.parse(r.text);
    assert.equal(status.reason, "Timeout");
    assert.equal(
      status.message,
      "Timeout: request did not complete within requested timeout - context deadline exceeded",
    );
    assert.ok(took >= 900 && took < 10_000, `answered after ${took} ms`);
  });

  it("ends kubectl's watch with --request-timeout=2s after about two seconds", async () => {
    const started = Date.now();
    const r = await h.kubectl(["get", "configmaps", "-w", "--request-timeout=2s"], {
      timeoutMs: 30_000,
    });
    const took = Date.now() - started;
    assert.ok(took >= 1_500 && took < 10_000, `the watch ended after ${took} ms: ${r.stderr}`);
  });

  it("bounds a watch by timeoutSeconds and, as kube, not by timeout", async () => {
    const started = Date.now();
    const r = await raw("GET", "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=2");
    const took = Date.now() - started;
    assert.equal(r.status, 200);
    assert.ok(took >= 1_500 && took < 10_000, `the watch ended after ${took} ms`);
    // kube-apiserver reads only timeoutSeconds for a watch, so `timeout` is neither checked nor applied.
    const ignored = await raw(
      "GET",
      "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&timeout=abc",
    );
    assert.equal(ignored.status, 200);
  });

  it("runs every kubectl command family with --request-timeout=20s", async () => {
    const ok = (args: string[], input?: string) =>
      h.kubectlOk([...args, RT], input === undefined ? {} : { input });
    assert.match(
      await ok(["api-resources"]),
      /tenants\s+apps\.cozystack\.io\/v1alpha1\s+true\s+Tenant/,
    );
    assert.match(await ok(["explain", "tenants.spec"]), /resourceQuotas/);
    await ok(["apply", "-f", join(REPO_ROOT, "test/fixtures/widget-crd.yaml")]);
    await ok([
      "wait",
      "--for=condition=Established",
      "crd/widgets.rules.example.com",
      "--timeout=20s",
    ]);
    await ok(["create", "namespace", "rt"]);
    await ok(["create", "configmap", "cm", "-n", "rt", "--from-literal=k=one"]);
    const tenant =
      "apiVersion: apps.cozystack.io/v1alpha1\nkind: Tenant\nmetadata:\n  name: rt\n  namespace: tenant-root\n";
    assert.match(await ok(["apply", "-f", "-"], tenant), /tenant\.apps\.cozystack\.io\/rt created/);
    await ok([
      "wait",
      "--for=condition=Ready",
      "tenants.apps.cozystack.io/rt",
      "-n",
      "tenant-root",
      "--timeout=20s",
    ]);
    assert.match(await ok(["get", "configmaps", "-n", "rt"]), /^cm\s+1\s+/m);
    assert.equal(JSON.parse(await ok(["get", "cm", "cm", "-n", "rt", "-o", "json"])).data.k, "one");
    assert.match(await ok(["describe", "configmap", "cm", "-n", "rt"]), /Name:\s+cm/);
    await ok(["label", "cm", "cm", "-n", "rt", "team=ops"]);
    await ok(["annotate", "cm", "cm", "-n", "rt", "note=yes"]);
    await ok(["patch", "cm", "cm", "-n", "rt", "--type=merge", "-p", '{"data":{"k":"two"}}']);
    const widget =
      "apiVersion: rules.example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: rt\nspec:\n  image: x\n  replicas: 1\n";
    await ok(["apply", "-f", "-"], widget);
    assert.match(await ok(["scale", "widget", "w", "-n", "rt", "--replicas=3"]), /scaled/);
    const pod = JSON.stringify({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "rt" },
      spec: { containers: [{ name: "c", image: "busybox" }] },
    });
    await ok(["apply", "-f", "-"], pod);
    // Not on a node yet (no node agent here): an empty log, not a refusal of `timeout`.
    assert.equal(await ok(["logs", "p", "-n", "rt"]), "");
    const edited = await run(
      "kubectl",
      ["--kubeconfig", h.kubeconfig, "edit", "cm", "cm", "-n", "rt", RT],
      { env: { ...process.env, HOME: editorHome, KUBE_EDITOR: "sed -i s/two/three/" } },
    );
    assert.equal(edited.code, 0, edited.stderr);
    assert.equal(await ok(["get", "cm", "cm", "-n", "rt", "-o", "jsonpath={.data.k}"]), "three");
    assert.match(await ok(["auth", "can-i", "get", "pods", "-n", "rt"]), /yes/);
    await ok(["delete", "cm", "cm", "-n", "rt"]);
    await ok(["delete", "namespace", "rt", "--wait=false"]);
  });
});
