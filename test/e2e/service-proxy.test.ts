/**
 * The node's service proxy against an in-process apiserver: it listens on the
 * Service's ClusterIP:port, forwards round-robin to the ready endpoints of its
 * EndpointSlices (small TCP echo servers on their own 127.x addresses), follows
 * endpoint changes, skips a backend that refuses, closes the listener when the
 * Service goes, and leaves nothing open when stopped.
 */
import assert from "node:assert/strict";
import { connect, createServer, type Server } from "node:net";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { startServiceProxy } from "../../src/node/service-proxy.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const NS = "default";
const rand = (n: number) => 1 + Math.floor(Math.random() * n);
// Addresses unlikely to collide with another test running at the same time.
const CLUSTER_IP = `127.2.${rand(250)}.${rand(250)}`;
const SERVICE_PORT = 20_000 + rand(30_000);
const BACKEND_NET = `127.3.${rand(250)}`;

/** A TCP server on `host` that answers each connection with `<id>:<what it read>`. */
async function echoServer(host: string, id: string): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => {
    s.once("data", (d) => s.end(`${id}:${d.toString()}`));
    s.on("error", () => s.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : 0 };
}

/** Sends `text` to host:port and returns the whole answer; rejects when refused or reset. */
function ask(host: string, port: number, text = "hi"): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect({ host, port });
    let out = "";
    s.on("connect", () => s.write(text));
    s.on("data", (d) => (out += d.toString()));
    s.on("end", () => resolve(out));
    s.on("error", reject);
  });
}

describe("service proxy", () => {
  let s: InProcessServer;
  let client: HttpClient;
  const echoes: { server: Server; port: number }[] = [];

  const slice = (endpoints: { ip: string; ready: boolean }[], port: number): KubeObject => ({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: { name: "echo-abc", namespace: NS, labels: { "kubernetes.io/service-name": "echo" } },
    addressType: "IPv4",
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready, serving: e.ready, terminating: false },
    })),
    ports: [{ name: "tcp", port, protocol: "TCP" }],
  });

  async function putSlice(obj: KubeObject): Promise<void> {
    const old = await client
      .get({
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        name: "echo-abc",
        namespace: NS,
      })
      .catch(() => undefined);
    if (old)
      await client.update({
        ...obj,
        metadata: { ...obj.metadata, resourceVersion: old.metadata.resourceVersion },
      });
    else await client.create(obj);
  }

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
    echoes.push(await echoServer(`${BACKEND_NET}.1`, "a"));
    // The second backend listens on the same port number on another address, as pods do.
    const b = createServer((c) => {
      c.once("data", (d) => c.end(`b:${d.toString()}`));
      c.on("error", () => c.destroy());
    });
    await new Promise<void>((resolve) => b.listen(echoes[0]!.port, `${BACKEND_NET}.2`, resolve));
    echoes.push({ server: b, port: echoes[0]!.port });
  });
  after(async () => {
    for (const e of echoes) e.server.close();
    client?.close();
    await s?.stop();
  });

  it("forwards ClusterIP connections round-robin and follows endpoints", async () => {
    const port = echoes[0]!.port;
    await client.create({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "echo", namespace: NS },
      spec: {
        clusterIP: CLUSTER_IP,
        selector: { app: "echo" },
        ports: [{ name: "tcp", port: SERVICE_PORT, targetPort: port }],
      },
    });
    await putSlice(
      slice(
        [
          { ip: `${BACKEND_NET}.1`, ready: true },
          { ip: `${BACKEND_NET}.2`, ready: true },
        ],
        port,
      ),
    );
    const stop = new AbortController();
    const proxy = startServiceProxy(client, stop.signal);
    try {
      await waitFor("the proxy to forward", () =>
        ask(CLUSTER_IP, SERVICE_PORT).catch(() => undefined),
      );
      assert.deepEqual(proxy.addresses(), [`${CLUSTER_IP}:${SERVICE_PORT}`]);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await ask(CLUSTER_IP, SERVICE_PORT, `m${i}`));
      assert.deepEqual(
        answers.map((a) => a.split(":")[0]).sort(),
        ["a", "a", "b", "b"],
        "round-robin over both backends",
      );
      assert.ok(answers.every((a, i) => a.endsWith(`:m${i}`)));

      // b goes not-ready, and a third endpoint that refuses joins: only a answers.
      await putSlice(
        slice(
          [
            { ip: `${BACKEND_NET}.1`, ready: true },
            { ip: `${BACKEND_NET}.2`, ready: false },
            { ip: `${BACKEND_NET}.3`, ready: true },
          ],
          port,
        ),
      );
      await waitFor("b to leave", async () => {
        const seen = [];
        for (let i = 0; i < 4; i++) seen.push((await ask(CLUSTER_IP, SERVICE_PORT)).split(":")[0]);
        return seen.every((x) => x === "a");
      });

      // No ready endpoint: the connection is reset.
      await putSlice(slice([{ ip: `${BACKEND_NET}.2`, ready: false }], port));
      await waitFor("a reset", () =>
        ask(CLUSTER_IP, SERVICE_PORT).then(
          () => false,
          () => true,
        ),
      );

      await client.delete({ apiVersion: "v1", kind: "Service", name: "echo", namespace: NS });
      await waitFor("the listener to close", () => proxy.addresses().length === 0);
      await assert.rejects(ask(CLUSTER_IP, SERVICE_PORT), /ECONNREFUSED/);
    } finally {
      stop.abort();
      await proxy.done;
    }
    assert.deepEqual(proxy.addresses(), []);
  });
});
