/**
 * The node API over HTTPS: only a client certificate from the cluster CA with
 * the apiserver's name gets in, for plain requests and for upgrades (exec,
 * attach, port-forward) alike; an upgrade to a route the agent does not serve is a 404.
 */
import assert from "node:assert/strict";
import https from "node:https";
import { after, before, describe, it } from "node:test";
import { LogServer, StreamServer } from "../../src/node/index.js";
import { createCA, issueLeaf, type KeyPair } from "../../src/pki/index.js";

const USER = "hearth-apiserver-kubelet-client";

function request(
  port: number,
  path: string,
  ca: string,
  client?: KeyPair,
  upgrade = false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get({
      host: "127.0.0.1",
      port,
      path,
      ca,
      agent: false,
      ...(client ? { cert: client.certPem, key: client.keyPem } : {}),
      headers: upgrade ? { Connection: "Upgrade", Upgrade: "SPDY/3.1" } : {},
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, text: "" });
    });
    req.on("error", reject);
  });
}

describe("node API over HTTPS", () => {
  const stop = new AbortController();
  let port = 0;
  let ca: KeyPair;
  let apiserver: KeyPair;
  let someone: KeyPair;
  let stranger: KeyPair;
  const lookups: string[] = [];

  before(async () => {
    ca = await createCA("test-ca");
    const other = await createCA("other-ca");
    const serving = await issueLeaf(ca, {
      commonName: "node",
      ipAddresses: ["127.0.0.1"],
      usage: ["server"],
    });
    apiserver = await issueLeaf(ca, { commonName: USER, usage: ["client"] });
    someone = await issueLeaf(ca, { commonName: "alice", usage: ["client"] });
    stranger = await issueLeaf(other, { commonName: USER, usage: ["client"] });
    const refuse = async () => {
      throw new Error("not reached");
    };
    const streams = new StreamServer(
      (ns, pod, container) => {
        lookups.push(`${ns}/${pod}/${container}`);
        return {
          ok: false,
          code: 404,
          message: `container not found (${JSON.stringify(container)})`,
        };
      },
      { exec: refuse, attach: refuse, portForward: refuse },
      stop.signal,
    );
    const server = new LogServer(() => ({ ok: false, code: 404, message: "no such pod" }), "", {
      streams,
      tls: { ...serving, clientCAPem: ca.certPem, allowedUsers: [USER] },
    });
    port = await server.start(stop.signal, 0, "127.0.0.1");
  });
  after(() => stop.abort());

  it("refuses a caller without a certificate, with another name, or from another CA", async () => {
    const path = "/containerLogs/default/p/c";
    assert.equal((await request(port, path, ca.certPem)).status, 401);
    assert.equal((await request(port, path, ca.certPem, someone)).status, 401);
    assert.equal((await request(port, path, ca.certPem, stranger)).status, 401);
    assert.equal((await request(port, path, ca.certPem, apiserver)).status, 404);
  });

  it("refuses an upgrade without the apiserver's certificate before looking anything up", async () => {
    const path = "/exec/default/p/c?command=true&stdout=true";
    assert.equal((await request(port, path, ca.certPem, undefined, true)).status, 401);
    assert.equal((await request(port, path, ca.certPem, someone, true)).status, 401);
    assert.deepEqual(lookups, []);
    const found = await request(port, path, ca.certPem, apiserver, true);
    assert.deepEqual(found, { status: 404, text: 'container not found ("c")' });
    assert.deepEqual(lookups, ["default/p/c"]);
    assert.equal(
      (await request(port, "/run/default/p/c", ca.certPem, apiserver, true)).status,
      404,
    );
  });
});
