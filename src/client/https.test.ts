/**
 * The client over TLS against a real Hearth apiserver serving HTTPS with a CA
 * made for the test (src/pki): CA verification, insecure mode, client
 * certificates and bearer tokens as the server authenticates them (its
 * SelfSubjectReview says who we are), and kubectl using a kubeconfig we wrote.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import {
  type LoopbackApiServer,
  loopbackPki,
  shutdown,
  startLoopbackApiServer,
} from "../../test/support/loopback-apiserver.js";
import { clientFromKubeconfig, createHttpClient, type HttpClient } from "./http-client.js";
import { writeKubeconfig } from "./kubeconfig.js";

const run = promisify(execFile);

async function available(cmd: string, ...args: string[]): Promise<boolean> {
  try {
    await run(cmd, args);
    return true;
  } catch {
    return false;
  }
}

/** Who the server says the client is. */
async function whoami(c: HttpClient): Promise<{ username: string; groups: string[] }> {
  const body = JSON.stringify({
    apiVersion: "authentication.k8s.io/v1",
    kind: "SelfSubjectReview",
  });
  const res = await c.request("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", body);
  assert.equal(res.status, 201, res.body);
  return JSON.parse(res.body).status.userInfo;
}

describe("HttpClient over HTTPS", () => {
  let dir: string;
  let pki: Awaited<ReturnType<typeof loopbackPki>>;
  let server: LoopbackApiServer;
  const clients: HttpClient[] = [];
  const client = (c: HttpClient) => {
    clients.push(c);
    return c;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "hearth-https-"));
    pki = await loopbackPki("hearth-admin");
    server = await startLoopbackApiServer({
      tls: pki.serving,
      clientCAs: [pki.ca.certPem],
      tokens: new Map([
        ["tk", "token-user"],
        ["kc", "kubeconfig-user"],
      ]),
    });
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await shutdown(server, ...clients);
  });

  it("verifies the server against the given CA and sends the token", async () => {
    const c = client(createHttpClient({ server: server.url, caPem: pki.ca.certPem, token: "tk" }));
    assert.equal((await whoami(c)).username, "token-user");
    const anonymous = client(createHttpClient({ server: server.url, caPem: pki.ca.certPem }));
    assert.equal((await anonymous.request("GET", "/api/v1/namespaces")).status, 401);
  });

  it("refuses a server its CA did not sign, unless insecure", async () => {
    const other = await loopbackPki("nobody");
    const wrongCa = client(createHttpClient({ server: server.url, caPem: other.ca.certPem }));
    await assert.rejects(wrongCa.request("GET", "/version"), /certificate/);
    const systemRoots = client(createHttpClient({ server: server.url }));
    await assert.rejects(systemRoots.request("GET", "/version"), /certificate/);
    const insecure = client(createHttpClient({ server: server.url, insecure: true, token: "tk" }));
    assert.equal((await insecure.request("GET", "/version")).status, 200);
    assert.equal((await whoami(insecure)).username, "token-user");
  });

  it("presents a client certificate", async () => {
    const c = client(
      createHttpClient({
        server: server.url,
        caPem: pki.ca.certPem,
        certPem: pki.client.certPem,
        keyPem: pki.client.keyPem,
      }),
    );
    const me = await whoami(c);
    assert.equal(me.username, "hearth-admin");
    assert.ok(me.groups.includes("system:masters"), String(me.groups));
  });

  it("connects from a kubeconfig we wrote, as kubectl does", async (t) => {
    const path = join(dir, "admin.kubeconfig");
    await writeKubeconfig(path, { server: server.url, caPem: pki.ca.certPem, token: "kc" });
    const c = client(await clientFromKubeconfig(path));
    assert.equal((await whoami(c)).username, "kubeconfig-user");
    if (!(await available("kubectl", "version", "--client"))) {
      t.skip("kubectl is not installed");
      return;
    }
    const { stdout } = await run("kubectl", [
      "--kubeconfig",
      path,
      "get",
      "--raw",
      "/api/v1/namespaces/default",
    ]);
    assert.equal(JSON.parse(stdout).metadata.name, "default");
  });
});
