import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backendsFor } from "./service-proxy.js";

const slice = (
  ports: { name?: string; port?: number; protocol?: string }[],
  endpoints: { ip: string; ready?: boolean | null }[],
) => ({
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { name: "s" },
  ports,
  endpoints: endpoints.map((e) => ({
    addresses: [e.ip],
    ...(e.ready !== undefined ? { conditions: { ready: e.ready } } : {}),
  })),
});

describe("service proxy backends", () => {
  it("takes ready endpoints at the slice port named as the service port", () => {
    const slices = [
      slice(
        [
          { name: "http", port: 8080, protocol: "TCP" },
          { name: "metrics", port: 9090 },
        ],
        [{ ip: "127.1.0.2", ready: true }, { ip: "127.1.0.1" }, { ip: "127.1.0.3", ready: false }],
      ),
      slice([{ name: "http", port: 8081 }], [{ ip: "127.1.0.4", ready: null }]),
      slice([{ name: "http", port: 53, protocol: "UDP" }], [{ ip: "127.1.0.5", ready: true }]),
    ];
    assert.deepEqual(backendsFor({ name: "http", port: 80 }, slices), [
      "127.1.0.1:8080",
      "127.1.0.2:8080",
      "127.1.0.4:8081",
    ]);
    assert.deepEqual(backendsFor({ name: "metrics", port: 9 }, slices), [
      "127.1.0.1:9090",
      "127.1.0.2:9090",
    ]);
    assert.deepEqual(backendsFor({ port: 80 }, slices), []);
    assert.deepEqual(backendsFor({ port: 80 }, [slice([{ port: 7000 }], [{ ip: "127.1.0.9" }])]), [
      "127.1.0.9:7000",
    ]);
  });
});
