/**
 * The HTTP client through a gateway: a small reverse proxy (node:http, inline)
 * serving a real apiserver under a path prefix, as an ingress would, and
 * answering 502 in plain text once that apiserver is gone.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { it } from "node:test";
import { startLoopbackApiServer, waitForNoSockets } from "../../test/support/loopback-apiserver.js";
import type { KubeObject } from "../api/index.js";
import { createHttpClient } from "./http-client.js";

/** Serves `upstream` under `/prefix`, recording the paths it was asked for. */
async function gateway(upstream: string) {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? "");
    const forward = http.request(
      `${upstream}${(req.url ?? "").replace(/^\/prefix/, "")}`,
      { method: req.method, headers: req.headers, agent: false },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.on("error", () => {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end("upstream down");
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

it("puts the server URL's path in front of every request, and reads a 502 that is no Status", async () => {
  const api = await startLoopbackApiServer();
  const gw = await gateway(api.directUrl);
  const client = createHttpClient({ server: `${gw.url}/prefix/` });
  try {
    const ns = await client.create<KubeObject>({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "a" },
    });
    const got = await client.get({ apiVersion: "v1", kind: "Namespace", name: "a" });
    assert.equal(got.metadata.uid, ns.metadata.uid);
    assert.deepEqual(gw.paths, [
      "/prefix/api/v1",
      "/prefix/api/v1/namespaces",
      "/prefix/api/v1/namespaces/a",
    ]);
    await api.stop();
    await assert.rejects(client.update(got), {
      code: 502,
      message: 'cannot update Namespace "a": the server responded with status 502: upstream down',
    });
  } finally {
    client.close();
    await gw.close();
    await api.stop();
  }
  await waitForNoSockets();
});
