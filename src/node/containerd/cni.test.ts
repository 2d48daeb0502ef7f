import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  bridgeName,
  CNI_CONFLIST_NAME,
  conflictingRoutes,
  linkExists,
  parsePodCidr,
  podNetworkConfig,
  removePodNetwork,
  writePodNetwork,
} from "./cni.js";
import { containerdLayout } from "./layout.js";

test("a pod CIDR is normalised, its first address is the gateway; loopback and odd ones are refused", () => {
  assert.deepEqual(parsePodCidr("10.88.0.0/24"), {
    subnet: "10.88.0.0/24",
    gateway: "10.88.0.1",
    prefix: 24,
  });
  assert.deepEqual(parsePodCidr("10.200.7.9/16"), {
    subnet: "10.200.0.0/16",
    gateway: "10.200.0.1",
    prefix: 16,
  });
  assert.equal(parsePodCidr("192.168.255.200/29").subnet, "192.168.255.200/29");
  assert.throws(() => parsePodCidr("127.1.0.0/16"), /is loopback/);
  for (const bad of [
    "10.88.0.0",
    "10.88.0/24",
    "10.88.0.256/24",
    "10.88.0.0/30",
    "10.0.0.0/7",
    "x/24",
    "10.0.0.0/24/1",
  ])
    assert.throws(() => parsePodCidr(bad), /is not an IPv4 network/, bad);
});

test("the bridge name is per data directory, stable, and fits IFNAMSIZ", () => {
  const a = bridgeName("/var/lib/hearth-a");
  assert.match(a, /^hth[0-9a-f]{8}$/);
  assert.ok(a.length <= 15);
  assert.equal(bridgeName("/var/lib/hearth-a/"), a, "the same DIR, however written");
  assert.notEqual(bridgeName("/var/lib/hearth-b"), a);
});

test("the conflist: bridge as gateway, no masquerade, hairpin, host-local under DIR, default route", () => {
  const config = podNetworkConfig({ dataDir: "/srv/h", podCIDR: "10.88.0.0/24" });
  const bridge = bridgeName("/srv/h");
  assert.equal(config.cniVersion, "1.0.0");
  assert.equal(config.name, `hearth-${bridge.slice(3)}`);
  assert.deepEqual(config.plugins, [
    {
      type: "bridge",
      bridge,
      isGateway: true,
      ipMasq: false,
      hairpinMode: true,
      ipam: {
        type: "host-local",
        ranges: [[{ subnet: "10.88.0.0/24", gateway: "10.88.0.1" }]],
        routes: [{ dst: "0.0.0.0/0", gw: "10.88.0.1" }],
        dataDir: "/srv/h/containerd/cni/ipam",
      },
    },
  ]);
  assert.ok(!JSON.stringify(config).includes("portmap"), "no plugin writes shared iptables chains");
});

test("a pod CIDR that a route on another device covers is a conflict; its own bridge's is not", () => {
  const routes = [
    "default via 192.0.2.1 dev eth0 ",
    "192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2 ",
    "10.88.0.0/24 dev hth11111111 proto kernel scope link src 10.88.0.1 ",
    "10.96.0.0/16 dev hth22222222 proto kernel scope link src 10.96.0.1 ",
    "blackhole 10.200.0.0/16 ",
    "10.50.0.7 dev eth0 scope link ",
  ].join("\n");
  const on = (cidr: string, bridge = "hth00000000") =>
    conflictingRoutes(routes, parsePodCidr(cidr), bridge).map((l) => l.split(" ")[0]);
  assert.deepEqual(on("10.88.0.0/24"), ["10.88.0.0/24"], "another Hearth's bridge");
  assert.deepEqual(on("10.88.0.0/24", "hth11111111"), [], "its own bridge, from a previous start");
  assert.deepEqual(on("10.88.0.0/16"), ["10.88.0.0/24"], "a wider CIDR covering it");
  assert.deepEqual(on("10.96.5.0/24"), ["10.96.0.0/16"], "inside a wider route");
  assert.deepEqual(on("192.0.2.0/25"), ["192.0.2.0/24"], "the host's own network");
  assert.deepEqual(on("10.200.1.0/24"), ["blackhole"]);
  assert.deepEqual(on("10.50.0.0/24"), ["10.50.0.7"], "a host route inside it");
  assert.deepEqual(on("10.89.0.0/24"), [], "free");
});

test("writePodNetwork leaves exactly one conflist in the conf dir", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-cni-"));
  try {
    const l = containerdLayout(dir);
    mkdirSync(l.cniConfDir, { recursive: true });
    writeFileSync(join(l.cniConfDir, "05-stale.conf"), "{}");
    const file = writePodNetwork({ dataDir: dir, podCIDR: "10.99.0.0/24" });
    assert.equal(file, join(l.cniConfDir, CNI_CONFLIST_NAME));
    assert.equal(existsSync(join(l.cniConfDir, "05-stale.conf")), false);
    const written = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(written, podNetworkConfig({ dataDir: dir, podCIDR: "10.99.0.0/24" }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("removePodNetwork deletes DIR's bridge and IPAM leases, and is idempotent", {
  skip: process.getuid?.() !== 0 && "needs root (ip link add)",
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-cni-"));
  const bridge = bridgeName(dir);
  try {
    const ipam = containerdLayout(dir).cniIpamDir;
    mkdirSync(ipam, { recursive: true });
    writeFileSync(join(ipam, "10.88.0.2"), "lease");
    execFileSync("ip", ["link", "add", "name", bridge, "type", "bridge"]);
    assert.equal(await linkExists(bridge), true);
    await removePodNetwork(dir);
    assert.equal(await linkExists(bridge), false);
    assert.equal(existsSync(ipam), false);
    await removePodNetwork(dir);
  } finally {
    if (await linkExists(bridge)) execFileSync("ip", ["link", "del", "dev", bridge]);
    rmSync(dir, { recursive: true, force: true });
  }
});
