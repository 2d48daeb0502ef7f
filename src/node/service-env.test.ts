import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../api/index.js";
import { serviceEnv } from "./service-env.js";

const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name, namespace: "tenant-a" },
  spec,
});

describe("serviceEnv", () => {
  it("writes kubelet's variables for every port of a ClusterIP Service", () => {
    const env = serviceEnv([
      svc("etcd-client", {
        clusterIP: "127.64.0.9",
        ports: [
          { name: "client", port: 2379, protocol: "TCP" },
          { port: 53, protocol: "UDP" },
        ],
      }),
    ]);
    assert.deepEqual(Object.fromEntries(env), {
      ETCD_CLIENT_SERVICE_HOST: "127.64.0.9",
      ETCD_CLIENT_SERVICE_PORT: "2379",
      ETCD_CLIENT_SERVICE_PORT_CLIENT: "2379",
      ETCD_CLIENT_PORT: "tcp://127.64.0.9:2379",
      ETCD_CLIENT_PORT_2379_TCP: "tcp://127.64.0.9:2379",
      ETCD_CLIENT_PORT_2379_TCP_PROTO: "tcp",
      ETCD_CLIENT_PORT_2379_TCP_PORT: "2379",
      ETCD_CLIENT_PORT_2379_TCP_ADDR: "127.64.0.9",
      ETCD_CLIENT_PORT_53_UDP: "udp://127.64.0.9:53",
      ETCD_CLIENT_PORT_53_UDP_PROTO: "udp",
      ETCD_CLIENT_PORT_53_UDP_PORT: "53",
      ETCD_CLIENT_PORT_53_UDP_ADDR: "127.64.0.9",
    });
  });

  it("defaults the protocol to TCP and brackets IPv6 addresses", () => {
    const env = serviceEnv([svc("web", { clusterIP: "fd00::1", ports: [{ port: 80 }] })]);
    assert.equal(env.get("WEB_PORT"), "tcp://[fd00::1]:80");
    assert.equal(env.get("WEB_PORT_80_TCP_ADDR"), "fd00::1");
  });

  it("skips headless Services and Services without a ClusterIP or ports", () => {
    const env = serviceEnv([
      svc("etcd", { clusterIP: "None", ports: [{ port: 2379 }] }),
      svc("pending", { ports: [{ port: 1 }] }),
      svc("empty", { clusterIP: "127.64.0.3", ports: [] }),
    ]);
    assert.equal(env.size, 0);
  });
});
