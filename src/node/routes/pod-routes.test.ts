import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Node } from "../../api/index.js";
import { parseRoutes } from "./ip-route.js";
import { clashingRoutes } from "./pod-route-controller.js";
import { podRoutes, routingChanged } from "./pod-routes.js";

const node = (
  name: string,
  podCIDR: string | undefined,
  ip: string | undefined,
  age = 0,
): Node => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name, creationTimestamp: `2026-12-01T00:00:${String(age).padStart(2, "0")}Z` },
  ...(podCIDR ? { spec: { podCIDR } } : {}),
  status: {
    addresses: [
      ...(ip ? [{ type: "InternalIP", address: ip }] : []),
      { type: "Hostname", address: name },
    ],
  },
});

const SELF = { name: "a", podCIDR: "10.248.0.0/24" };

describe("podRoutes: which other nodes' pod CIDRs this node routes", () => {
  it("routes every other node's pod CIDR via its InternalIP, never its own", () => {
    const plan = podRoutes(
      [
        node("a", "10.248.0.0/24", "10.250.0.1"),
        node("b", "10.249.0.0/24", "10.250.0.2"),
        node("c", "10.247.0.0/24", "10.250.0.3"),
      ],
      SELF,
    );
    assert.deepEqual(plan.routes, [
      { cidr: "10.249.0.0/24", via: "10.250.0.2", node: "b" },
      { cidr: "10.247.0.0/24", via: "10.250.0.3", node: "c" },
    ]);
    assert.deepEqual(plan.skipped, []);
  });

  it("normalises a CIDR with host bits set", () => {
    const plan = podRoutes([node("b", "10.249.0.7/24", "10.250.0.2")], SELF);
    assert.equal(plan.routes[0]?.cidr, "10.249.0.0/24");
  });

  it("never routes a CIDR overlapping its own, or one an older Node has", () => {
    const plan = podRoutes(
      [
        node("wide", "10.248.0.0/16", "10.250.0.5", 1),
        node("inner", "10.248.0.128/25", "10.250.0.6", 2),
        node("young", "10.249.0.0/16", "10.250.0.7", 9),
        node("old", "10.249.3.0/24", "10.250.0.8", 3),
      ],
      SELF,
    );
    assert.deepEqual(
      plan.routes.map((r) => r.node),
      ["old"],
    );
    assert.equal(plan.skipped.length, 3);
    assert.match(plan.skipped.join("\n"), /Node wide: .*overlaps this node's 10\.248\.0\.0\/24/);
    assert.match(plan.skipped.join("\n"), /Node young: .*overlaps an older Node's/);
  });

  it("refuses what cannot be a route: default, loopback, short prefixes, bad or loopback gateways", () => {
    const plan = podRoutes(
      [
        node("dflt", "0.0.0.0/0", "10.250.0.2"),
        node("lo", "127.1.0.0/16", "127.0.0.1"),
        node("short", "12.0.0.0/7", "10.250.0.2"),
        node("nonsense", "10.249.0.0/24; rm", "10.250.0.2"),
        node("noip", "10.246.0.0/24", undefined),
        node("loip", "10.245.0.0/24", "127.0.0.1"),
        node("podip", "10.244.0.0/24", "10.248.0.9"),
        node("cidrip", "10.243.0.0/24", "10.250.0.0/30"),
        node("host-runtime", undefined, "127.0.0.1"),
      ],
      SELF,
    );
    assert.deepEqual(plan.routes, []);
    const said = plan.skipped.join("\n");
    for (const name of ["dflt", "lo", "short", "nonsense", "noip", "loip", "podip", "cidrip"])
      assert.match(said, new RegExp(`Node ${name}:`));
    assert.doesNotMatch(said, /host-runtime/, "a Node without a pod CIDR is not routed, silently");
  });

  it("refuses an invalid own CIDR", () => {
    assert.throws(() => podRoutes([], { name: "a", podCIDR: "nope" }), /invalid pod CIDR/);
  });
});

describe("routingChanged: which Node updates matter to routing", () => {
  it("passes a changed pod CIDR or InternalIP, not a heartbeat", () => {
    const b = node("b", "10.249.0.0/24", "10.250.0.2");
    const beat: Node = {
      ...b,
      status: { ...b.status, conditions: [{ type: "Ready", status: "True" }] },
    };
    assert.equal(routingChanged.update?.(b, beat), false);
    assert.equal(routingChanged.update?.(b, node("b", "10.249.1.0/24", "10.250.0.2")), true);
    assert.equal(routingChanged.update?.(b, node("b", "10.249.0.0/24", "10.250.0.6")), true);
    assert.equal(routingChanged.create, undefined, "creates and deletes always pass");
  });
});

describe("routes of the machine", () => {
  const table = parseRoutes(
    [
      "default via 192.0.2.1 dev eth0 ",
      "192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2 ",
      "10.249.0.0/24 via 10.250.0.2 dev veth0 proto 77 ",
      "blackhole 10.30.0.0/16 ",
      "10.40.0.7 dev tun0 scope link ",
    ].join("\n"),
  );

  it("reads each line's destination and whether Hearth added it", () => {
    assert.deepEqual(
      table.map((r) => [r.dst, r.hearth]),
      [
        ["default", false],
        ["192.0.2.0/24", false],
        ["10.249.0.0/24", true],
        ["10.30.0.0/16", false],
        ["10.40.0.7", false],
      ],
    );
  });

  it("finds what a route would take over, never Hearth's own or the default", () => {
    assert.deepEqual(clashingRoutes(table, "10.249.0.0/24"), []);
    assert.deepEqual(clashingRoutes(table, "192.0.2.128/25"), [
      "192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2",
    ]);
    assert.deepEqual(clashingRoutes(table, "10.30.5.0/24"), ["blackhole 10.30.0.0/16"]);
    assert.deepEqual(clashingRoutes(table, "10.40.0.0/24"), ["10.40.0.7 dev tun0 scope link"]);
  });
});
