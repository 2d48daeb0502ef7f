import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { serviceSpecErrors } from "./service-spec-validation.js";
import {
  endpointsCell,
  serviceExternalIp,
  servicePorts,
  serviceSelector,
  sliceEndpoints,
  slicePorts,
} from "./service-tables.js";
import {
  defaultService,
  ianaServiceNameErrors,
  keepAllocated,
  validateService,
} from "./service-validation.js";

const svc = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "s", namespace: "ns" },
  spec,
});

const messages = (o: KubeObject, old?: KubeObject) =>
  validateService(o, old).map(fieldErrorMessage);

describe("Service validation", () => {
  it("fills kube's defaults", () => {
    const o = svc({ ports: [{ port: 80 }], clusterIPs: ["127.2.0.9"] });
    defaultService(o);
    assert.deepEqual(o.spec, {
      type: "ClusterIP",
      sessionAffinity: "None",
      internalTrafficPolicy: "Cluster",
      ipFamilies: ["IPv4"],
      ipFamilyPolicy: "SingleStack",
      clusterIP: "127.2.0.9",
      clusterIPs: ["127.2.0.9"],
      ports: [{ port: 80, protocol: "TCP", targetPort: 80 }],
    });
    assert.deepEqual(messages(o), []);
  });

  it("wants a DNS-1035 name", () => {
    const o = { ...svc({ ports: [{ port: 1 }] }), metadata: { name: "1web" } };
    defaultService(o);
    assert.match(messages(o)[0]!, /^metadata\.name: Invalid value: "1web": a DNS-1035 label must/);
  });

  it("checks ports, names and target ports", () => {
    const o = svc({
      ports: [
        { name: "http", port: 80, targetPort: "web-http" },
        { name: "http", port: 0, protocol: "ICMP", targetPort: "Not_A_Name" },
        { port: 90, targetPort: 70000 },
      ],
    });
    defaultService(o);
    assert.deepEqual(messages(o), [
      'spec.ports[1].name: Duplicate value: "http"',
      "spec.ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive",
      'spec.ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      'spec.ports[1].targetPort: Invalid value: "Not_A_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      "spec.ports[2].name: Required value",
      "spec.ports[2].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ]);
    assert.deepEqual(ianaServiceNameErrors("http"), []);
    assert.deepEqual(ianaServiceNameErrors("8080"), ["must contain at least one letter (a-z)"]);
    assert.equal(ianaServiceNameErrors("a-very-long-port-name").length, 1);
  });

  it("checks the address and refuses other types", () => {
    const o = svc({ type: "LoadBalancer", clusterIP: "x", ports: [{ port: 1 }] });
    defaultService(o);
    assert.deepEqual(messages(o), [
      'spec.type: Unsupported value: "LoadBalancer": supported values: "ClusterIP"',
      'spec.clusterIP: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    const mismatch = svc({
      clusterIP: "127.2.0.1",
      clusterIPs: ["127.2.0.2"],
      ports: [{ port: 1 }],
    });
    defaultService(mismatch);
    assert.deepEqual(messages(mismatch), [
      'spec.clusterIPs[0]: Invalid value: "127.2.0.2": must be consistent with spec.clusterIP',
    ]);
    const two = svc({
      clusterIP: "127.2.0.1",
      clusterIPs: ["127.2.0.1", "127.2.0.2"],
      ports: [{ port: 1 }],
    });
    defaultService(two);
    assert.match(messages(two)[0]!, /may specify no more than one IP for each IP family/);
  });

  it("keeps an allocated address across updates that omit it, and refuses a new one", () => {
    const old = svc({ clusterIP: "127.2.0.5", clusterIPs: ["127.2.0.5"], ports: [{ port: 80 }] });
    defaultService(old);
    const omitted = svc({ ports: [{ port: 81 }] });
    keepAllocated(omitted, old);
    assert.equal((omitted.spec as { clusterIP: string }).clusterIP, "127.2.0.5");
    assert.deepEqual(messages(omitted, old), []);
    const moved = svc({ clusterIP: "127.2.0.6", ports: [{ port: 80 }] });
    keepAllocated(moved, old);
    assert.deepEqual(messages(moved, old), [
      'spec.clusterIPs[0]: Invalid value: "127.2.0.6": may not change once set',
    ]);
    // A merge patch of clusterIP alone leaves the old clusterIPs: one error, not two.
    const patched = svc({
      clusterIP: "127.2.0.6",
      clusterIPs: ["127.2.0.5"],
      ports: [{ port: 80 }],
    });
    keepAllocated(patched, old);
    assert.deepEqual(messages(patched, old), [
      'spec.clusterIPs[0]: Invalid value: "127.2.0.6": may not change once set',
    ]);
  });
});

describe("service tables", () => {
  it("words cells as kubectl does", () => {
    const s = svc({
      ports: [
        { port: 80, protocol: "TCP" },
        { port: 53, protocol: "UDP", nodePort: 30053 },
      ],
      selector: { b: "2", a: "1" },
    });
    assert.equal(servicePorts(s), "80/TCP,53:30053/UDP");
    assert.equal(servicePorts(svc({})), "<none>");
    assert.equal(serviceSelector(s), "a=1,b=2");
    assert.equal(serviceSelector(svc({})), "<none>");
    assert.equal(serviceExternalIp(s), "<none>");
    const ep: KubeObject = {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: {},
      subsets: [
        {
          addresses: [{ ip: "10.0.0.1" }, { ip: "10.0.0.2" }],
          ports: [{ port: 80 }, { port: 443 }],
        },
        { addresses: [{ ip: "10.0.0.3" }] },
      ],
    };
    assert.equal(endpointsCell(ep), "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...");
    assert.equal(endpointsCell({ apiVersion: "v1", kind: "Endpoints", metadata: {} }), "<none>");
    const slice: KubeObject = {
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      metadata: {},
      endpoints: [{ addresses: ["10.0.0.1"] }, { addresses: ["10.0.0.2"] }],
      ports: [{ port: 80 }, { name: "x", port: null }],
    };
    assert.equal(slicePorts(slice), "80,x");
    assert.equal(sliceEndpoints(slice), "10.0.0.1,10.0.0.2");
    assert.equal(sliceEndpoints({ ...slice, endpoints: [] }), "<unset>");
  });
});

describe("Service spec fields beyond ClusterIP", () => {
  const spec = (extra: Record<string, unknown>) => ({
    ports: [{ port: 80, protocol: "TCP" }],
    ...extra,
  });
  const fieldsOf = (extra: Record<string, unknown>) =>
    serviceSpecErrors(spec(extra)).map((e) => e.field);

  it("refuses unknown IP families, duplicates, and what a single-stack IPv4 cluster cannot give", () => {
    const [e] = serviceSpecErrors(spec({ ipFamilies: ["IPv9"] }));
    assert.equal(e?.field, "spec.ipFamilies[0]");
    assert.equal(e?.detail, 'Unsupported value: "IPv9": supported values: "IPv4", "IPv6"');
    assert.deepEqual(fieldsOf({ ipFamilies: ["IPv4", "IPv4"] }), ["spec.ipFamilies[1]"]);
    assert.deepEqual(fieldsOf({ ipFamilies: ["IPv6"] }), ["spec.ipFamilies[0]"]);
    assert.deepEqual(fieldsOf({ ipFamilies: ["IPv6"], clusterIP: "None" }), []);
    assert.deepEqual(fieldsOf({ ipFamilyPolicy: "Triple" }), ["spec.ipFamilyPolicy"]);
    assert.deepEqual(fieldsOf({ ipFamilyPolicy: "RequireDualStack" }), ["spec.ipFamilyPolicy"]);
    assert.deepEqual(fieldsOf({ ipFamilyPolicy: "PreferDualStack", ipFamilies: ["IPv4"] }), []);
  });

  it("checks traffic policies and affinity config", () => {
    assert.deepEqual(fieldsOf({ internalTrafficPolicy: "Nowhere" }), [
      "spec.internalTrafficPolicy",
    ]);
    assert.deepEqual(fieldsOf({ internalTrafficPolicy: "Local" }), []);
    assert.deepEqual(fieldsOf({ externalTrafficPolicy: "Local" }), ["spec.externalTrafficPolicy"]);
    assert.deepEqual(fieldsOf({ externalIPs: ["192.0.2.1"], externalTrafficPolicy: "Far" }), [
      "spec.externalTrafficPolicy",
    ]);
    assert.deepEqual(fieldsOf({ externalIPs: ["nope"] }), ["spec.externalIPs[0]"]);
    assert.deepEqual(fieldsOf({ trafficDistribution: "Anywhere" }), ["spec.trafficDistribution"]);
    assert.deepEqual(fieldsOf({ sessionAffinity: "None", sessionAffinityConfig: {} }), [
      "spec.sessionAffinityConfig",
    ]);
    assert.deepEqual(
      fieldsOf({
        sessionAffinity: "ClientIP",
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } },
      }),
      ["spec.sessionAffinityConfig.clientIP.timeoutSeconds"],
    );
  });

  it("checks ports, the selector and the LoadBalancer-only fields", () => {
    assert.deepEqual(
      fieldsOf({ type: "ClusterIP", ports: [{ port: 80, protocol: "TCP", nodePort: 30000 }] }),
      ["spec.ports[0].nodePort"],
    );
    assert.deepEqual(
      fieldsOf({
        ports: [
          { port: 80, protocol: "TCP" },
          { port: 80, protocol: "TCP" },
        ],
      }),
      ["spec.ports[1]"],
    );
    assert.deepEqual(fieldsOf({ ports: [{ port: 80, appProtocol: "not valid!" }] }), [
      "spec.ports[0].appProtocol",
    ]);
    assert.deepEqual(fieldsOf({ selector: { "bad key!": "v" } }), ["spec.selector"]);
    assert.deepEqual(fieldsOf({ loadBalancerClass: "x", allocateLoadBalancerNodePorts: true }), [
      "spec.allocateLoadBalancerNodePorts",
      "spec.loadBalancerClass",
    ]);
  });
});
