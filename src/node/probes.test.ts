import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Container } from "../api/index.js";
import { type ProbeResult, type ProbeTarget, resolvePort, runProbe } from "./probes.js";

describe("probes", () => {
  let server: http.Server;
  let port = 0;
  before(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(req.url === "/healthz" ? 200 : 503);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  const target = (c: Partial<Container> = {}): ProbeTarget => ({
    container: { name: "c", ports: [{ name: "web", containerPort: port }], ...c },
    podIP: "127.0.0.1",
    exec: async (command, timeoutMs) => {
      execs.push({ command, timeoutMs });
      return execReply;
    },
  });
  /** What the runtime's exec was asked to run (the CRI runtime's ExecSync: cri-runtime.ts). */
  const execs: { command: string[]; timeoutMs: number }[] = [];
  let execReply: ProbeResult = { ok: true, message: "" };

  it("resolves named and numeric ports", () => {
    assert.equal(resolvePort(target().container, "web"), port);
    assert.equal(resolvePort(target().container, "8080"), 8080);
    assert.equal(resolvePort(target().container, "nope"), undefined);
  });

  it("connects over tcp to the pod IP, with Go's wording on refusal", async () => {
    assert.deepEqual(await runProbe({ tcpSocket: { port: "web" } }, target()), {
      ok: true,
      message: "",
    });
    const closed = await runProbe({ tcpSocket: { port: 1 } }, target());
    assert.equal(closed.ok, false);
    assert.equal(closed.message, "dial tcp 127.0.0.1:1: connect: connection refused");
    const unknown = await runProbe({ tcpSocket: { port: "db" } }, target());
    assert.match(unknown.message, /unknown port name "db"/);
  });

  it("expects 200-399 from an http GET", async () => {
    assert.equal(
      (await runProbe({ httpGet: { port: "web", path: "/healthz" } }, target())).ok,
      true,
    );
    const bad = await runProbe({ httpGet: { port, path: "/other" } }, target());
    assert.deepEqual(bad, { ok: false, message: "HTTP probe failed with statuscode: 503" });
  });

  it("runs exec probes through the runtime with the probe's timeout (default 1s)", async () => {
    execReply = { ok: true, message: "" };
    const cmd = ["sh", "-c", 'test "$X" = 7'];
    assert.equal((await runProbe({ exec: { command: cmd } }, target())).ok, true);
    execReply = { ok: false, message: "not yet" };
    const failed = await runProbe({ exec: { command: ["false"] }, timeoutSeconds: 3 }, target());
    assert.deepEqual(failed, { ok: false, message: "not yet" });
    assert.deepEqual(execs, [
      { command: cmd, timeoutMs: 1000 },
      { command: ["false"], timeoutMs: 3000 },
    ]);
  });
});
