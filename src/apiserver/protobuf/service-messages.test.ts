/**
 * A v1 Service with every ServiceSpec and ServiceStatus field, hand-assembled from
 * core/v1/generated.proto numbers; the expected JSON is written from the json tags
 * in core/v1/types.go. kubectl's own Service bodies are in kubectl-workload-vectors.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelope, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeKubeProtobuf } from "./index.js";

/** 2023-11-14T22:13:20Z as a metav1.Time. */
const TIME = lField(4, vField(1, 1_700_000_000));

describe("decodeKubeProtobuf on a hand-built Service", () => {
  it("decodes every spec and status field", () => {
    const spec = lField(
      2,
      lField(
        1,
        lField(1, "http"),
        lField(2, "TCP"),
        lField(6, "kubernetes.io/h2c"),
        vField(3, 80),
        lField(4, vField(1, 1), lField(3, "web")),
        vField(5, 30080),
      ),
      lField(1, lField(2, "UDP"), vField(3, 53), lField(4, vField(1, 0), vField(2, 5353))),
      lField(1, vField(3, 8080)),
      lField(2, lField(1, "app"), lField(2, "web")),
      lField(3, "10.96.0.10"),
      lField(18, "10.96.0.10"),
      lField(18, "fd00::a"),
      lField(4, "LoadBalancer"),
      lField(5, "192.0.2.1"),
      lField(7, "ClientIP"),
      lField(8, "198.51.100.7"),
      lField(9, "10.0.0.0/8"),
      lField(10, "web.example.com"),
      lField(11, "Local"),
      vField(12, 32000),
      vField(13, 1),
      lField(14, lField(1, vField(1, 10800))),
      lField(19, "IPv4"),
      lField(19, "IPv6"),
      lField(17, "PreferDualStack"),
      vField(20, 0),
      lField(21, "example.com/lb"),
      lField(22, "Cluster"),
      lField(23, "PreferClose"),
    );
    const status = lField(
      3,
      lField(
        1,
        lField(
          1,
          lField(1, "198.51.100.7"),
          lField(2, "lb.example.com"),
          lField(3, "VIP"),
          lField(4, vField(1, 80), lField(2, "TCP"), lField(3, "")),
        ),
      ),
      lField(
        2,
        lField(1, "Ready"),
        lField(2, "True"),
        vField(3, 2),
        TIME,
        lField(5, "Provisioned"),
      ),
    );
    const body = envelope(
      "v1",
      "Service",
      lField(1, lField(1, "web"), lField(3, "default")),
      spec,
      status,
    );
    assert.deepEqual(decodeKubeProtobuf(body).object, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "web", namespace: "default", creationTimestamp: null },
      spec: {
        ports: [
          {
            name: "http",
            protocol: "TCP",
            appProtocol: "kubernetes.io/h2c",
            port: 80,
            targetPort: "web",
            nodePort: 30080,
          },
          { protocol: "UDP", port: 53, targetPort: 5353 },
          { port: 8080, targetPort: 0 },
        ],
        selector: { app: "web" },
        clusterIP: "10.96.0.10",
        clusterIPs: ["10.96.0.10", "fd00::a"],
        type: "LoadBalancer",
        externalIPs: ["192.0.2.1"],
        sessionAffinity: "ClientIP",
        loadBalancerIP: "198.51.100.7",
        loadBalancerSourceRanges: ["10.0.0.0/8"],
        externalName: "web.example.com",
        externalTrafficPolicy: "Local",
        healthCheckNodePort: 32000,
        publishNotReadyAddresses: true,
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        ipFamilies: ["IPv4", "IPv6"],
        ipFamilyPolicy: "PreferDualStack",
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: "example.com/lb",
        internalTrafficPolicy: "Cluster",
        trafficDistribution: "PreferClose",
      },
      status: {
        loadBalancer: {
          ingress: [
            {
              ip: "198.51.100.7",
              hostname: "lb.example.com",
              ipMode: "VIP",
              ports: [{ port: 80, protocol: "TCP", error: "" }],
            },
          ],
        },
        conditions: [
          {
            type: "Ready",
            status: "True",
            observedGeneration: 2,
            lastTransitionTime: "2023-11-14T22:13:20Z",
            reason: "Provisioned",
            message: "",
          },
        ],
      },
    });
  });

  it("renders an empty Service as Go does: spec {}, status with an empty loadBalancer", () => {
    assert.deepEqual(
      decodeKubeProtobuf(envelope("v1", "Service", lField(1, lField(1, "s")))).object,
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "s", creationTimestamp: null },
        spec: {},
        status: { loadBalancer: {} },
      },
    );
  });
});
