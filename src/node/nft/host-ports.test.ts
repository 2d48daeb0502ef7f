import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hasHostPorts, hostPortRules, type PodObject } from "./host-ports.js";

type Port = NonNullable<
  NonNullable<NonNullable<PodObject["spec"]>["containers"]>[number]["ports"]
>[number];

const pod = (
  name: string,
  ports: Port[],
  opts: { ip?: string; phase?: string; created?: string; hostNetwork?: boolean } = {},
): PodObject => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    namespace: "default",
    name,
    creationTimestamp: opts.created ?? "2026-12-03T10:00:00Z",
  },
  spec: { ...(opts.hostNetwork ? { hostNetwork: true } : {}), containers: [{ ports }] },
  status: {
    phase: opts.phase ?? "Running",
    ...(opts.ip !== null ? { podIP: opts.ip ?? "10.244.0.5" } : {}),
  },
});

describe("host ports of a node's pods", () => {
  it("maps each hostPort to the pod's address and containerPort", () => {
    const { rules, skipped } = hostPortRules([
      pod("web", [
        { containerPort: 80, hostPort: 8080 },
        { containerPort: 53, hostPort: 5353, protocol: "UDP", hostIP: "192.0.2.1" },
        { containerPort: 9000 },
      ]),
    ]);
    assert.deepEqual(skipped, []);
    assert.deepEqual(rules, [
      {
        pod: "default/web",
        protocol: "tcp",
        hostPort: 8080,
        podIP: "10.244.0.5",
        containerPort: 80,
      },
      {
        pod: "default/web",
        hostIP: "192.0.2.1",
        protocol: "udp",
        hostPort: 5353,
        podIP: "10.244.0.5",
        containerPort: 53,
      },
    ]);
  });

  it("skips pods without an address, finished pods and host-network pods", () => {
    const ports = [{ containerPort: 80, hostPort: 8080 }];
    const { rules } = hostPortRules([
      pod("pending", ports, { ip: "" }),
      pod("done", ports, { phase: "Succeeded" }),
      pod("failed", ports, { phase: "Failed" }),
      pod("host", ports, { hostNetwork: true }),
    ]);
    assert.deepEqual(rules, []);
    assert.equal(hasHostPorts(pod("x", [{ containerPort: 80 }])), false);
    assert.equal(hasHostPorts(pod("x", ports)), true);
  });

  it("gives a port two pods claim to the older, naming the other", () => {
    const { rules, skipped } = hostPortRules([
      pod("young", [{ containerPort: 80, hostPort: 8080, hostIP: "192.0.2.1" }], {
        ip: "10.244.0.9",
        created: "2026-12-03T11:00:00Z",
      }),
      pod("old", [{ containerPort: 80, hostPort: 8080 }], { created: "2026-12-03T09:00:00Z" }),
      pod("udp", [{ containerPort: 80, hostPort: 8080, protocol: "UDP" }], { ip: "10.244.0.6" }),
    ]);
    assert.deepEqual(
      rules.map((r) => `${r.pod} ${r.protocol}`),
      ["default/old tcp", "default/udp udp"],
    );
    assert.deepEqual(skipped, [
      "pod default/young: host port tcp/8080 is taken by pod default/old",
    ]);
  });

  it("never passes on what is not an address or port", () => {
    const { rules, skipped } = hostPortRules([
      pod("a", [{ containerPort: 80, hostPort: 70000 }]),
      pod("b", [{ containerPort: 80, hostPort: 81, hostIP: "127.0.0.1" }]),
      pod("c", [{ containerPort: 80, hostPort: 82, hostIP: "1.2.3.4; drop" }]),
      pod("d", [{ containerPort: 80, hostPort: 83, protocol: "ICMP" }]),
      pod("e", [{ containerPort: 80, hostPort: 84 }], { ip: "10.0.0.1; accept" }),
    ]);
    assert.deepEqual(rules, []);
    assert.equal(skipped.length, 4);
  });
});
