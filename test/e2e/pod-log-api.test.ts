/**
 * The `pods/log` subresource over HTTP against an in-process apiserver: the
 * apiserver checks the container and the options, then proxies to the node
 * agent's log endpoint named in the Node's status, with the agent's token
 * (plain, tail, previous, follow streaming, and the errors of each).
 */
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { LogServer } from "../../src/node/index.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const PODS = "/api/v1/namespaces/default/pods";

describe("pods/log", () => {
  let s: InProcessServer;
  const logDir = mkdtempSync(join(tmpdir(), "hearth-podlog-"));
  const agentStop = new AbortController();
  const json = (o: unknown) => JSON.stringify(o);
  const pod = (name: string, spec: Record<string, unknown> = {}) =>
    json({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
    });
  async function ok(method: string, path: string, body?: string) {
    const r = await s.request(method, path, body);
    assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: ${r.status} ${r.text}`);
    return r.body as KubeObject;
  }

  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    agentStop.abort();
    await s?.stop();
    rmSync(logDir, { recursive: true, force: true });
  });

  it("serves pods/log by proxying to the node agent's log endpoint", async () => {
    const file = join(logDir, "0.log");
    mkdirSync(logDir, { recursive: true });
    // The CRI logging format, as containerd writes a container's log.
    const cri = (lines: string[]) =>
      lines.map((l) => `2026-12-03T10:00:00.000000000Z stdout F ${l}\n`).join("");
    writeFileSync(file, cri(["one", "two", "three"]));
    let done = false;
    const logs = new LogServer(
      (ns, name, container, previous) => {
        if (previous)
          return {
            ok: false,
            code: 400,
            message: `previous terminated container "${container}" in pod "${name}" not found`,
          };
        return ns === "default" && name === "logs"
          ? { ok: true, file, done: () => done }
          : { ok: false, code: 404, message: "no" };
      },
      "secret-token",
      { followPollMs: 20 },
    );
    const port = await logs.start(agentStop.signal);
    await ok(
      "POST",
      "/api/v1/nodes",
      json({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: "n2", annotations: { "node.hearth.dev/log-token": "secret-token" } },
      }),
    );
    await ok(
      "PUT",
      "/api/v1/nodes/n2/status",
      json({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: "n2" },
        status: {
          addresses: [{ type: "InternalIP", address: "127.0.0.1" }],
          daemonEndpoints: { kubeletEndpoint: { Port: port } },
        },
      }),
    );

    await ok("POST", PODS, pod("nolog"));
    const none = await s.request("GET", `${PODS}/nolog/log`);
    assert.equal(none.status, 200);
    assert.equal(none.text, "", "a pod not on a node has no log yet");

    await ok(
      "POST",
      PODS,
      pod("logs", {
        nodeName: "n2",
        containers: [
          { name: "a", image: "x" },
          { name: "b", image: "x" },
        ],
      }),
    );
    const pick = await s.request("GET", `${PODS}/logs/log`);
    assert.equal(pick.status, 400);
    assert.match(
      pick.text,
      /a container name must be specified for pod logs, choose one of: \[a b\]/,
    );
    assert.match(
      (await s.request("GET", `${PODS}/logs/log?container=z`)).text,
      /container z is not valid for pod logs/,
    );
    assert.equal(
      (await s.request("GET", `${PODS}/logs/log?container=a`)).text,
      "one\ntwo\nthree\n",
    );
    assert.equal(
      (await s.request("GET", `${PODS}/logs/log?container=a&tailLines=1`)).text,
      "three\n",
    );
    // kubectl --request-timeout sends `timeout`; kube reads only PodLogOptions' fields.
    assert.equal(
      (await s.request("GET", `${PODS}/logs/log?container=a&timeout=20s`)).text,
      "one\ntwo\nthree\n",
    );
    const prev = await s.request("GET", `${PODS}/logs/log?container=a&previous=true`);
    assert.equal(prev.status, 400);
    assert.equal(
      (prev.body as { message: string }).message,
      'previous terminated container "a" in pod "logs" not found',
    );
    assert.equal((await s.request("GET", `${PODS}/logs/log?container=a&tailLines=-1`)).status, 422);

    const res = await fetch(`${s.url}${PODS}/logs/log?container=a&follow=true&tailLines=0`);
    const reader = res.body!.getReader();
    appendFileSync(file, cri(["four"]));
    const first = await reader.read();
    assert.equal(Buffer.from(first.value!).toString(), "four\n");
    done = true;
    while (!(await reader.read()).done);

    await ok(
      "PUT",
      "/api/v1/nodes/n2",
      json({
        apiVersion: "v1",
        kind: "Node",
        metadata: { name: "n2", annotations: { "node.hearth.dev/log-token": "wrong" } },
      }),
    );
    assert.equal(
      (await s.request("GET", `${PODS}/logs/log?container=a`)).status,
      401,
      "the agent wants its token",
    );
  });
});
