import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { ConntrackError, deleteFlows } from "./conntrack.js";

const run = promisify(execFile);
const onPath = (bin: string) =>
  (process.env.PATH ?? "").split(":").some((dir) => existsSync(`${dir}/${bin}`));
const skip =
  process.getuid?.() !== 0
    ? "needs root (conntrack)"
    : !onPath("conntrack")
      ? "conntrack is not installed (Debian package conntrack)"
      : false;

/** Addresses of this test only (TEST-NET-2, never routed): a flow made up with `conntrack -I`. */
const N = (process.pid % 200) + 20;
const CLIENT = `198.51.100.${N}`;
const CLUSTER_IP = `198.51.100.${N + 1}`;
const ENDPOINT = `198.51.100.${N + 2}`;
const PORT = 40_000 + N;

async function insertFlow(): Promise<void> {
  await run("conntrack", [
    ...["-I", "-p", "udp", "-s", CLIENT, "-d", CLUSTER_IP, "--sport", "41000"],
    ...["--dport", String(PORT), "-r", ENDPOINT, "-q", CLIENT],
    ...["--reply-port-src", "5353", "--reply-port-dst", "41000", "-t", "60"],
  ]);
}

describe("the conntrack command", { skip }, () => {
  it("deletes the flows a filter matches, and says how many; none matched is no error", async () => {
    await insertFlow();
    const flow = { protocol: "udp" as const, destination: CLUSTER_IP, port: PORT, why: "test" };
    try {
      assert.equal(await deleteFlows({ ...flow, endpoint: { ip: ENDPOINT, port: 5354 } }), 0);
      assert.equal(await deleteFlows({ ...flow, protocol: "sctp" }), 0);
      assert.equal(await deleteFlows({ ...flow, endpoint: { ip: ENDPOINT, port: 5353 } }), 1);
      assert.equal(await deleteFlows(flow), 0, "already gone");
      await insertFlow();
      assert.equal(await deleteFlows({ protocol: "udp", port: PORT, why: "a node port" }), 1);
    } finally {
      await deleteFlows(flow);
    }
  });
});

describe("conntrack failures", () => {
  it("is a ConntrackError when the binary is missing or fails; exit 1 alone is no 'nothing matched'", async () => {
    const flow = { protocol: "udp" as const, port: 9, why: "test" };
    const missing = await deleteFlows(flow, { conntrack: "/nonexistent/conntrack" }).catch(
      (e: unknown) => e,
    );
    assert.ok(missing instanceof ConntrackError, String(missing));
    assert.match(missing.message, /ENOENT/);
    const failed = await deleteFlows(flow, { conntrack: "false" }).catch((e: unknown) => e);
    assert.ok(failed instanceof ConntrackError, String(failed));
    assert.equal(failed.code, 1);
    assert.deepEqual(failed.args, ["-D", "-f", "ipv4", "-p", "udp", "--orig-port-dst", "9"]);
  });
});
