/**
 * UDP Services in nftables and conntrack, on a real kernel: the Service rules
 * controller on a real apiserver, with a bridge of network namespaces as in
 * nft-services.test.ts (three backends answering their own name over UDP, one
 * client sending from one fixed source port, over and over, as a DNS client
 * or a game does). DNAT happens on a flow's first packet only, so without the
 * controller's conntrack cleanup:
 * - a flow that went off the node un-NATed before the rules existed (here:
 *   out of a veth into an empty namespace, standing in for the uplink) would
 *   stay so for good;
 * - a flow stuck to an endpoint would keep going to it after the endpoint left
 *   the slice (its process still answers here, as a pod that is not ready does).
 * And packets sent while a Service had no endpoints are answered once it has one.
 * Everything made (processes, namespaces, links, the table, the test's flows)
 * is removed in `after`, failed or not.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import type { KubeObject } from "../../src/api/index.js";
import { applyScript, deleteTable, registerServiceRules } from "../../src/node/index.js";
import type { EndpointSliceObject, ServiceObject } from "../../src/node/nft/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";
import {
  type BridgeNet,
  killChild,
  NET_INDEX,
  netnsHost,
  netnsSkipReason,
  startBridgeNet,
} from "../support/netns-bridge.js";

const run = promisify(execFile);

const PID = process.pid;
const N = NET_INDEX;
const NET = `10.253.${N}`;
const SVC_NET = `10.254.${N}`;
const TABLE = `hct${PID}`;
/**
 * A table standing in for another Hearth's on the machine: the kernel tracks
 * connections only once something uses conntrack, as any nat chain does.
 */
const NEIGHBOUR_TABLE = `hcn${PID}`;
/** The stand-in for the node's uplink: a veth whose other end is in an empty namespace. */
const UPLINK = `hcup${PID}`.slice(0, 15);
const UPLINK_NS = `hc${PID}uplink`;
const PORT = 5300;
const TARGET_PORT = 5353;
const BACKENDS = ["b0", "b1", "b2"].map((name, i) => netnsHost("hc", i, name, `${NET}.${10 + i}`));
const CLIENT = netnsHost("hc", 3, "client", `${NET}.20`);

/** Answers every datagram with its name. */
const ECHO = `const s = require("dgram").createSocket("udp4");
s.on("message", (m, r) => s.send(process.argv[1], r.port, r.address));
s.bind(${TARGET_PORT}, "0.0.0.0", () => console.log("ready"));`;
/** From one source port, sends a datagram to ip:port every 100 ms; prints each answer. "ready" once one is sent. */
const SENDER = `const s = require("dgram").createSocket("udp4");
const [ip, port, sport] = process.argv.slice(2).map((a, i) => (i ? Number(a) : a));
s.on("message", (m) => console.log(m.toString()));
s.on("error", () => {});
const send = (cb) => s.send("?", port, ip, cb);
s.bind(sport, () => send(() => { console.log("ready"); setInterval(send, 100); }));`;

const skip = netnsSkipReason([["conntrack", "conntrack"]]);

describe("UDP Services: conntrack entries after endpoint changes", { skip }, () => {
  let net: BridgeNet | undefined;
  let env: Env | undefined;
  let started = false;
  const warnings: string[] = [];

  before(async () => {
    net = await startBridgeNet("hc", NET, [...BACKENDS, CLIENT]);
    await Promise.all(BACKENDS.map((b) => net?.spawnIn(b, ECHO)));
    env = await startEnv({ serviceCidr: `${SVC_NET}.0/24` });
    registerServiceRules(env.manager, {
      table: TABLE,
      nodeIPs: [net.gateway],
      podCIDR: `${NET}.0/24`,
      serviceCIDR: `${SVC_NET}.0/24`,
      warn: (m) => warnings.push(m),
    });
  });

  after(async () => {
    await env?.stop();
    for (const t of [TABLE, NEIGHBOUR_TABLE]) await deleteTable(t).catch(() => {});
    await run("ip", ["link", "del", UPLINK]).catch(() => {});
    await run("ip", ["netns", "del", UPLINK_NS]).catch(() => {});
    await net?.stop();
    for (const source of [CLIENT.ip, `${NET}.1`])
      await run("conntrack", ["-D", "-s", source]).catch(() => {});
  });

  const startRules = () => {
    if (!started) env?.startManager();
    started = true;
  };

  /** A sender in the client namespace from source port `sport`, and the answers it got. */
  async function sender(ip: string, sport: number) {
    assert.ok(net);
    const child = await net.spawnIn(CLIENT, SENDER, [ip, String(PORT), String(sport)]);
    assert.ok(child.stdout);
    const answers: string[] = [];
    createInterface({ input: child.stdout }).on("line", (l) => answers.push(l));
    return { answers, stop: () => killChild(child) };
  }

  const createService = async (name: string, clusterIP?: string) => {
    const created = await env?.client.create<ServiceObject>({
      apiVersion: "v1",
      kind: "Service",
      metadata: { namespace: "default", name },
      spec: {
        ...(clusterIP ? { clusterIP } : {}),
        ports: [{ name: "echo", port: PORT, protocol: "UDP" }],
      },
    } satisfies ServiceObject);
    return created?.spec?.clusterIP ?? "";
  };
  const sliceOf = (service: string, ips: string[]): EndpointSliceObject => ({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      namespace: "default",
      name: `${service}-x`,
      labels: { "kubernetes.io/service-name": service },
    },
    addressType: "IPv4",
    ports: [{ name: "echo", port: TARGET_PORT, protocol: "UDP" }],
    endpoints: ips.map((a) => ({ addresses: [a], conditions: { ready: true } })),
  });
  const setEndpoints = async (service: string, ips: string[]) => {
    const current = await env?.client.get<EndpointSliceObject>({
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      namespace: "default",
      name: `${service}-x`,
    });
    assert.ok(current);
    await env?.client.update({ ...sliceOf(service, ips), metadata: current.metadata });
  };
  /** The answers once the last `n` came from `name`. */
  const lastFrom = (answers: string[], name: string, n = 5) =>
    waitFor(`the last ${n} answers from ${name}`, () => {
      const last = answers.slice(-n);
      return last.length === n && last.every((a) => a === name) ? [...answers] : undefined;
    });

  test("a flow that left un-NATed before the rules existed is NATed once they do", async () => {
    const [, b1] = BACKENDS;
    assert.ok(b1);
    const clusterIP = `${SVC_NET}.200`;
    // Before this Hearth has any rule, a ClusterIP is just an address: routed off the
    // node (here to the uplink's other end, which drops it), un-NATed, and
    // conntrack (on for another Hearth's table) remembers the flow so.
    await applyScript(
      `add table ip ${NEIGHBOUR_TABLE}\nadd chain ip ${NEIGHBOUR_TABLE} nat-prerouting ` +
        "{ type nat hook prerouting priority dstnat; policy accept; }\n",
    );
    await run("ip", ["netns", "add", UPLINK_NS]);
    await run("ip", [
      "link",
      "add",
      UPLINK,
      "type",
      "veth",
      "peer",
      "name",
      "eth0",
      "netns",
      UPLINK_NS,
    ]);
    await run("ip", ["-n", UPLINK_NS, "link", "set", "eth0", "up"]);
    await run("ip", ["link", "set", UPLINK, "up"]);
    await run("ip", ["route", "add", `${clusterIP}/32`, "dev", UPLINK]);
    const s = await sender(clusterIP, 41_000);
    try {
      const entry = await waitFor("the un-NATed entry", async () => {
        const { stdout } = await run("conntrack", [
          "-L",
          "-p",
          "udp",
          "-s",
          CLIENT.ip,
          "-d",
          clusterIP,
        ]);
        return stdout.includes(`[UNREPLIED] src=${clusterIP} `) ? stdout : undefined;
      });
      assert.match(entry, /sport=41000 dport=5300/);

      await createService("early", clusterIP);
      await env?.client.create(sliceOf("early", [b1.ip]) as KubeObject);
      startRules();
      const got = await lastFrom(s.answers, "b1");
      assert.ok(
        got.every((a) => a === "b1"),
        got.join(" "),
      );
    } finally {
      await s.stop();
    }
  });

  test("packets sent while a Service has no endpoints are answered once it has one", async () => {
    const [, , b2] = BACKENDS;
    assert.ok(b2);
    startRules();
    const clusterIP = await createService("late");
    await env?.client.create(sliceOf("late", []) as KubeObject);
    await waitFor("the Service refused for want of endpoints", async () => {
      const { stdout } = await run("nft", ["list", "map", "ip", TABLE, "no-endpoint-services"]);
      return stdout.includes(`${clusterIP} . udp . ${PORT}`);
    });
    const s = await sender(clusterIP, 41_001);
    try {
      assert.deepEqual(s.answers, []);
      await setEndpoints("late", [b2.ip]);
      await lastFrom(s.answers, "b2");
    } finally {
      await s.stop();
    }
  });

  test("a flow stuck to an endpoint moves to another once the endpoint leaves the slice", async () => {
    const [b0, b1] = BACKENDS;
    assert.ok(b0 && b1);
    startRules();
    const clusterIP = await createService("echo");
    await env?.client.create(sliceOf("echo", [b0.ip, b1.ip]) as KubeObject);
    const s = await sender(clusterIP, 41_002);
    try {
      // The rebuild that made the Service active deletes its flows just after writing
      // the rules, so a first packet sent in between is NATed again once: the flow
      // is stuck once ten answers in a row come from one backend.
      const stuck = await waitFor("ten answers in a row from one backend", () => {
        const last = s.answers.slice(-10);
        return last.length === 10 && last.every((a) => a === last[0]) ? last[0] : undefined;
      });
      const other = stuck === "b0" ? b1 : b0;
      const removedAt = s.answers.length;
      await setEndpoints("echo", [other.ip]);
      const got = (await lastFrom(s.answers, other.name)).slice(removedAt);
      const moved = got.indexOf(other.name);
      assert.ok(
        got.slice(moved).every((a) => a === other.name),
        `never back to ${stuck}: ${got.join(" ")}`,
      );
    } finally {
      await s.stop();
    }
    assert.deepEqual(warnings, []);
  });
});
