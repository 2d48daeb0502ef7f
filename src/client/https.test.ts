/**
 * The client over TLS against a fake server with throwaway self-signed
 * certificates (made with the openssl CLI; skipped where it is missing): CA
 * verification, insecure mode, client certificates, and kubectl using a
 * kubeconfig we wrote.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { TLSSocket } from "node:tls";
import { promisify } from "node:util";
import { FakeApiServer, sendJson, shutdown } from "../../test/support/fixtures/fake-apiserver.js";
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

/** A self-signed certificate and key for `cn`, valid for 127.0.0.1. */
async function selfSigned(dir: string, cn: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, `${cn}.crt`);
  const key = join(dir, `${cn}.key`);
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "1",
    "-subj",
    `/CN=${cn}`,
    "-addext",
    "subjectAltName=IP:127.0.0.1,DNS:localhost",
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  return { cert: await readFile(cert, "utf8"), key: await readFile(key, "utf8") };
}

const hasOpenssl = await available("openssl", "version");

describe("HttpClient over HTTPS", { skip: hasOpenssl ? false : "openssl is not installed" }, () => {
  let dir: string;
  let serverCert: { cert: string; key: string };
  let clientCert: { cert: string; key: string };
  let server: FakeApiServer;
  const clients: HttpClient[] = [];
  const client = (c: HttpClient) => {
    clients.push(c);
    return c;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "hearth-https-"));
    serverCert = await selfSigned(dir, "server");
    clientCert = await selfSigned(dir, "hearth-admin");
    server = await FakeApiServer.start({
      ...serverCert,
      ca: clientCert.cert,
      requestCert: true,
      rejectUnauthorized: false,
    });
    server.handler = (req, res) => {
      const peer = (res.socket as TLSSocket).getPeerCertificate();
      sendJson(res, 200, { path: req.url, auth: req.headers.authorization, cn: peer.subject?.CN });
    };
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await shutdown(server, ...clients);
  });

  it("verifies the server against the given CA and sends the token", async () => {
    const c = client(createHttpClient({ server: server.url, caPem: serverCert.cert, token: "tk" }));
    const res = await c.request("GET", "/version");
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body), { path: "/version", auth: "Bearer tk" });
  });

  it("refuses a server its CA did not sign, unless insecure", async () => {
    const strict = client(createHttpClient({ server: server.url }));
    await assert.rejects(strict.request("GET", "/version"), /self[- ]signed certificate/);
    const insecure = client(createHttpClient({ server: server.url, insecure: true }));
    assert.equal((await insecure.request("GET", "/version")).status, 200);
  });

  it("presents a client certificate", async () => {
    const c = client(
      createHttpClient({
        server: server.url,
        caPem: serverCert.cert,
        certPem: clientCert.cert,
        keyPem: clientCert.key,
      }),
    );
    const res = await c.request("GET", "/whoami");
    assert.equal(JSON.parse(res.body).cn, "hearth-admin");
  });

  it("connects from a kubeconfig we wrote, as kubectl does", async (t) => {
    const path = join(dir, "admin.kubeconfig");
    await writeKubeconfig(path, { server: server.url, caPem: serverCert.cert, token: "kc" });
    const c = client(await clientFromKubeconfig(path));
    assert.equal(JSON.parse((await c.request("GET", "/x")).body).auth, "Bearer kc");
    if (!(await available("kubectl", "version", "--client"))) {
      t.skip("kubectl is not installed");
      return;
    }
    const { stdout } = await run("kubectl", ["--kubeconfig", path, "get", "--raw", "/api/v1/x"]);
    assert.deepEqual(JSON.parse(stdout), { path: "/api/v1/x", auth: "Bearer kc" });
  });
});
