/**
 * The node's service proxy on the controller test tier: a real apiserver in
 * this process, Services and EndpointSlices written by the test, backends that
 * are TCP servers of the test naming themselves. The proxy listens on each
 * Service's ClusterIP:port, forwards round-robin to the ready endpoints of the
 * slice port named as the service port, skips a backend that refuses, resets a
 * connection with no backend, follows slice and Service changes, and closes
 * every listener when its Manager stops.
 */
import assert from "node:assert/strict";
import { createServer, type Server, connect as tcpConnect } from "node:net";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/index.js";
import { type ServiceProxy, startServiceProxy } from "../../src/node/index.js";
import { uniqueName } from "../support/core-objects.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";
import { testClusterIp } from "../support/node-pods.js";

const NS = "default";
const SERVICE = { apiVersion: "v1", kind: "Service" };
const SLICE = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" };

/** A TCP server on `host` that answers every connection with `name` and closes. */
async function backend(
  host: string,
  name: string,
  port = 0,
): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.end(name));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port }, resolve);
  });
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no address");
  return { server, port: address.port };
}

/** What one connection to `address` reads: the text, or the error code it ended with. */
function dial(address: string): Promise<string> {
  const i = address.lastIndexOf(":");
  return new Promise((resolve) => {
    const s = tcpConnect({ host: address.slice(0, i), port: Number(address.slice(i + 1)) });
    let text = "";
    s.setEncoding("utf8");
    s.on("data", (d: string) => {
      text += d;
    });
    s.once("end", () => resolve(text));
    s.once("error", (e: NodeJS.ErrnoException) => resolve(`error:${e.code}`));
  });
}

function service(
  name: string,
  clusterIP: string,
  ports: { name?: string; port: number; protocol?: string }[],
) {
  return {
    ...SERVICE,
    metadata: { name, namespace: NS },
    spec: { clusterIP, selector: { app: name }, ports },
  };
}

interface Endpoint {
  ip: string;
  ready?: boolean;
}

function slice(
  svc: string,
  name: string,
  ports: { name: string; port: number }[],
  endpoints: Endpoint[],
): KubeObject {
  return {
    ...SLICE,
    metadata: { name, namespace: NS, labels: { "kubernetes.io/service-name": svc } },
    addressType: "IPv4",
    ports: ports.map((p) => ({ ...p, protocol: "TCP" })),
    endpoints: endpoints.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready ?? true },
    })),
  } as KubeObject;
}

describe("service proxy on the apiserver tier", () => {
  let env: Env;
  let proxy: ServiceProxy;
  const stop = new AbortController();
  const servers: Server[] = [];
  /** Backend hosts: a /24 of loopback of this file's own. */
  const net = `127.${60 + Math.floor(Math.random() * 30)}.${1 + Math.floor(Math.random() * 250)}`;

  before(async () => {
    env = await startEnv();
    proxy = startServiceProxy(env.client, stop.signal);
  });
  after(async () => {
    stop.abort();
    await proxy.done;
    for (const s of servers) s.close();
    await env.stop();
  });

  let hosts = 0;
  async function backends(
    names: string[],
    port = 0,
  ): Promise<{ ip: string; port: number; name: string }[]> {
    return Promise.all(
      names.map(async (name) => {
        const ip = `${net}.${++hosts}`;
        const b = await backend(ip, name, port);
        servers.push(b.server);
        return { ip, port: b.port, name };
      }),
    );
  }

  /** The set of answers to `n` connections. */
  async function answers(address: string, n: number): Promise<string[]> {
    const out = new Set<string>();
    for (let i = 0; i < n; i++) out.add(await dial(address));
    return [...out].sort();
  }

  const listening = (address: string) =>
    waitFor(`the proxy listening on ${address}`, () => proxy.addresses().includes(address));

  it("forwards round-robin to the ready endpoints of the port named as the service's", async () => {
    const name = uniqueName("rr");
    const ip = testClusterIp();
    // A slice port is one number for all its endpoints: a and b listen on the same one.
    const [a] = await backends(["a"]);
    const [b, c] = await backends(["b", "c"], a!.port);
    await env.client.create(service(name, ip, [{ name: "http", port: 80 }]));
    const made = await env.client.create(
      slice(
        name,
        `${name}-1`,
        [{ name: "http", port: a!.port }],
        [{ ip: a!.ip }, { ip: b!.ip, ready: false }],
      ),
    );
    await listening(`${ip}:80`);
    await waitFor("traffic reaching a", async () => (await dial(`${ip}:80`)) === "a");
    assert.deepEqual(await answers(`${ip}:80`, 4), ["a"]);

    // b turns ready: both share the traffic. A slice of another port name adds nothing.
    await env.client.update({
      ...made,
      endpoints: [a!, b!].map((e) => ({ addresses: [e.ip], conditions: { ready: true } })),
    } as KubeObject);
    await env.client.create(
      slice(name, `${name}-2`, [{ name: "metrics", port: c!.port }], [{ ip: c!.ip }]),
    );
    await waitFor("a and b answering", async () =>
      (await answers(`${ip}:80`, 4)).join() === "a,b" ? true : undefined,
    );
    // Strictly alternating, never c.
    const seq: string[] = [];
    for (let i = 0; i < 4; i++) seq.push(await dial(`${ip}:80`));
    assert.equal(new Set(seq).size, 2, seq.join());
    assert.notEqual(seq[0], seq[1]);
    assert.equal(seq[0], seq[2]);
  });

  it("resets a connection when there is no ready backend, and skips one that refuses", async () => {
    const name = uniqueName("none");
    const ip = testClusterIp();
    await env.client.create(service(name, ip, [{ name: "", port: 81 }]));
    await listening(`${ip}:81`);
    assert.equal(await dial(`${ip}:81`), "error:ECONNRESET");

    const [live] = await backends(["live"]);
    const dead = `${net}.250`; // nothing listens there
    await env.client.create(
      slice(name, `${name}-1`, [{ name: "", port: live!.port }], [{ ip: dead }, { ip: live!.ip }]),
    );
    await waitFor("traffic reaching live", async () => (await dial(`${ip}:81`)) === "live");
    // Round-robin lands on the dead one every other time; each of those falls through to live.
    assert.deepEqual(await answers(`${ip}:81`, 6), ["live"]);
  });

  it("follows readiness in its slices and closes listeners the Service no longer has", async () => {
    const name = uniqueName("change");
    const ip = testClusterIp();
    const [x] = await backends(["x"]);
    const svc = await env.client.create(
      service(name, ip, [
        { name: "one", port: 82 },
        { name: "two", port: 83 },
        { name: "dns", port: 84, protocol: "UDP" },
      ]),
    );
    const made = await env.client.create(
      slice(name, `${name}-1`, [{ name: "one", port: x!.port }], [{ ip: x!.ip }]),
    );
    await listening(`${ip}:82`);
    await listening(`${ip}:83`);
    // UDP is not proxied.
    assert.equal(proxy.addresses().includes(`${ip}:84`), false);
    await waitFor("x answering", async () => (await dial(`${ip}:82`)) === "x");
    // Port "two" has no slice port: no backend.
    assert.equal(await dial(`${ip}:83`), "error:ECONNRESET");

    await env.client.update({
      ...made,
      endpoints: [{ addresses: [x!.ip], conditions: { ready: false } }],
    } as KubeObject);
    await waitFor("x unready: reset", async () => (await dial(`${ip}:82`)) === "error:ECONNRESET");

    await env.client.update({
      ...svc,
      spec: { ...(svc.spec as object), ports: [{ name: "one", port: 82, protocol: "TCP" }] },
    } as KubeObject);
    await waitFor("port 83 closed", () => !proxy.addresses().includes(`${ip}:83`));
    assert.equal(await dial(`${ip}:83`), "error:ECONNREFUSED");
    assert.ok(proxy.addresses().includes(`${ip}:82`));

    await env.client.delete({ ...SERVICE, namespace: NS, name });
    await waitFor(
      "every listener closed",
      () => !proxy.addresses().some((a) => a.startsWith(`${ip}:`)),
    );
    assert.equal(await dial(`${ip}:82`), "error:ECONNREFUSED");
  });

  it("a Service without a ClusterIP (headless) gets no listener", async () => {
    const name = uniqueName("headless");
    await env.client.create({
      ...SERVICE,
      metadata: { name, namespace: NS },
      spec: { clusterIP: "None", selector: { app: name }, ports: [{ port: 85 }] },
    });
    // A later Service proves the proxy has seen this one.
    const ip = testClusterIp();
    const probe = uniqueName("after");
    await env.client.create(service(probe, ip, [{ port: 86 }]));
    await listening(`${ip}:86`);
    assert.equal(
      proxy.addresses().some((a) => a.endsWith(":85")),
      false,
    );
  });
});

describe("service proxy shutdown", () => {
  it("closes every listener when its Manager stops", async () => {
    const env = await startEnv();
    const stop = new AbortController();
    const proxy = startServiceProxy(env.client, stop.signal);
    try {
      const ip = testClusterIp();
      await env.client.create(service("down", ip, [{ port: 87 }]));
      await waitFor("listening", () => proxy.addresses().includes(`${ip}:87`));
      stop.abort();
      await proxy.done;
      assert.deepEqual(proxy.addresses(), []);
      assert.equal(await dial(`${ip}:87`), "error:ECONNREFUSED");
    } finally {
      stop.abort();
      await env.stop();
    }
  });
});
