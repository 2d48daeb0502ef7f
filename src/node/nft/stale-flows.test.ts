import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deleteArgs } from "./conntrack.js";
import { servicePorts } from "./service-ports.js";
import { staleFlows } from "./stale-flows.js";
import type { EndpointSliceObject, ServiceObject } from "./types.js";

const FACTS = { nodeIPs: [], podCIDR: "10.244.0.0/24" };

interface Shape {
  clusterIP?: string;
  nodePort?: number;
  protocol?: string;
  /** Ready endpoints of the slice; none: no slice at all. */
  endpoints?: string[];
  targetPort?: number;
}

/** The service ports of one Service `dns` (port 5300) of the given shape, as the ruleset gets them. */
function dns(shape: Shape = {}) {
  const protocol = shape.protocol ?? "UDP";
  const service: ServiceObject = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "kube-system", name: "dns" },
    spec: {
      clusterIP: shape.clusterIP ?? "10.96.0.10",
      ...(shape.nodePort !== undefined ? { type: "NodePort" } : {}),
      ports: [
        {
          name: "dns",
          port: 5300,
          protocol,
          ...(shape.nodePort !== undefined ? { nodePort: shape.nodePort } : {}),
        },
      ],
    },
  };
  const slices: EndpointSliceObject[] = shape.endpoints
    ? [
        {
          apiVersion: "discovery.k8s.io/v1",
          kind: "EndpointSlice",
          metadata: {
            namespace: "kube-system",
            name: "dns-x",
            labels: { "kubernetes.io/service-name": "dns" },
          },
          ports: [{ name: "dns", port: shape.targetPort ?? 53, protocol }],
          endpoints: shape.endpoints.map((ip) => ({ addresses: [ip] })),
        },
      ]
    : [];
  return servicePorts([service], slices, FACTS).ports;
}

/** The filters without their reasons, as `conntrack -D` arguments after `-D -f ipv4`. */
const args = (before: ReturnType<typeof dns>, after: ReturnType<typeof dns>) =>
  staleFlows(before, after).map((f) => deleteArgs(f).slice(3).join(" "));

const A = "10.244.0.5";
const B = "10.244.0.6";

describe("stale conntrack flows of a rebuild", () => {
  it("a UDP port that gets its first endpoints: every flow to its ClusterIP:port", () => {
    assert.deepEqual(args(dns(), dns({ endpoints: [A] })), [
      "-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300",
    ]);
    assert.deepEqual(args(dns({ endpoints: [] }), dns({ endpoints: [A, B] })), [
      "-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300",
    ]);
    assert.deepEqual(args([], dns({ endpoints: [A] })), [
      "-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300",
    ]);
    const [flow] = staleFlows([], dns({ endpoints: [A] }));
    assert.equal(flow?.why, "kube-system/dns:dns/udp: has endpoints now");
  });

  it("an endpoint removed: the flows NATed from the ClusterIP:port to it, and only those", () => {
    assert.deepEqual(args(dns({ endpoints: [A, B] }), dns({ endpoints: [B] })), [
      `-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300 --reply-src ${A} --reply-port-src 53`,
    ]);
    assert.deepEqual(args(dns({ endpoints: [A, B] }), dns({ endpoints: [] })), [
      `-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300 --reply-src ${A} --reply-port-src 53`,
      `-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300 --reply-src ${B} --reply-port-src 53`,
    ]);
    assert.deepEqual(
      args(dns({ endpoints: [A], targetPort: 53 }), dns({ endpoints: [A], targetPort: 5353 })),
      [`-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300 --reply-src ${A} --reply-port-src 53`],
      "an endpoint whose port changed is a removed endpoint",
    );
  });

  it("NodePort: its flows too, by port on any local address", () => {
    const np = (endpoints?: string[]) =>
      dns({ nodePort: 30053, ...(endpoints ? { endpoints } : {}) });
    assert.deepEqual(args(np(), np([A, B])), [
      "-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300",
      "-p udp --orig-port-dst 30053",
    ]);
    assert.deepEqual(args(np([A, B]), np([A])), [
      `-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300 --reply-src ${B} --reply-port-src 53`,
      `-p udp --orig-port-dst 30053 --reply-src ${B} --reply-port-src 53`,
    ]);
    assert.deepEqual(args(dns({ endpoints: [A] }), np([A])), ["-p udp --orig-port-dst 30053"]);
  });

  it("a port gone, or its ClusterIP changed: every flow to the old one", () => {
    assert.deepEqual(args(dns({ endpoints: [A], nodePort: 30053 }), []), [
      "-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300",
      "-p udp --orig-port-dst 30053",
    ]);
    assert.deepEqual(
      args(dns({ endpoints: [A] }), dns({ clusterIP: "10.96.0.11", endpoints: [A] })),
      [
        "-p udp --orig-dst 10.96.0.11 --orig-port-dst 5300",
        "-p udp --orig-dst 10.96.0.10 --orig-port-dst 5300",
      ],
    );
  });

  it("SCTP as UDP; TCP never", () => {
    assert.deepEqual(
      args(dns({ protocol: "SCTP", endpoints: [A, B] }), dns({ protocol: "SCTP", endpoints: [B] })),
      [`-p sctp --orig-dst 10.96.0.10 --orig-port-dst 5300 --reply-src ${A} --reply-port-src 53`],
    );
    const tcp = (endpoints?: string[]) =>
      dns({ protocol: "TCP", nodePort: 30053, ...(endpoints ? { endpoints } : {}) });
    assert.deepEqual(args(tcp(), tcp([A, B])), []);
    assert.deepEqual(args(tcp([A, B]), tcp([B])), []);
    assert.deepEqual(args(tcp([A]), []), []);
  });

  it("nothing on an unchanged rebuild, nor for a port that stays without endpoints", () => {
    const np = dns({ endpoints: [A, B], nodePort: 30053 });
    assert.deepEqual(args(np, dns({ endpoints: [B, A], nodePort: 30053 })), []);
    assert.deepEqual(args(dns(), dns({ endpoints: [] })), []);
    assert.deepEqual(args([], []), []);
  });

  it("refuses to build arguments from a value that is no address or port", () => {
    const bad = { protocol: "udp" as const, port: 5300, why: "" };
    assert.throws(() => deleteArgs({ ...bad, destination: "10.96.0.10 -D" }), /invalid address/);
    assert.throws(() => deleteArgs({ ...bad, port: 0 }), /invalid port/);
    assert.throws(() => deleteArgs({ ...bad, endpoint: { ip: A, port: 70_000 } }), /invalid port/);
    assert.deepEqual(deleteArgs({ ...bad, destination: "10.96.0.10" }).slice(0, 3), [
      "-D",
      "-f",
      "ipv4",
    ]);
  });
});
