/** What objects cost a ResourceQuota, kind by kind, and which quotas count them. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Container, Pod } from "./pod.js";
import {
  countedResource,
  evaluatorFor,
  objectCountName,
  podCharged,
  quotaMatches,
  type ResourceQuota,
  resourcesTracked,
} from "./quota-usage.js";
import type { KubeObject } from "./types.js";

const NOW = Date.parse("2025-01-01T00:00:00Z");
const pods = evaluatorFor({ group: "", resource: "pods" });
const services = evaluatorFor({ group: "", resource: "services" });
const claims = evaluatorFor({ group: "", resource: "persistentvolumeclaims" });

function pod(containers: Partial<Container>[], extra: Partial<Pod> = {}): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns" },
    spec: { containers: containers.map((c, i) => ({ name: `c${i}`, ...c })) },
    ...extra,
  };
}

const res = (requests?: Record<string, string>, limits?: Record<string, string>) => ({
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

function quota(hard: Record<string, string>, spec: ResourceQuota["spec"] = {}): ResourceQuota {
  return {
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name: "q", namespace: "ns" },
    spec: { hard, ...spec },
    status: { hard, used: {} },
  };
}

describe("pod usage", () => {
  it("sums the containers' requests and limits under every quota name", () => {
    const p = pod([res({ cpu: "250m", memory: "64Mi" }, { cpu: "1" }), res({ cpu: "250m" })]);
    assert.deepEqual(pods.usage(p, NOW), {
      "count/pods": "1",
      pods: "1",
      cpu: "500m",
      "requests.cpu": "500m",
      "limits.cpu": "1",
      memory: "64Mi",
      "requests.memory": "64Mi",
    });
  });

  it("takes a missing request from the limit, as kube's defaulting stores it", () => {
    const usage = pods.usage(pod([res(undefined, { cpu: "2", memory: "1Gi" })]), NOW);
    assert.equal(usage["requests.cpu"], "2");
    assert.equal(usage["requests.memory"], "1Gi");
    assert.equal(usage["limits.memory"], "1Gi");
  });

  it("charges the largest init container when it asks more than the containers' sum", () => {
    const p = pod([res({ cpu: "100m" })], {
      spec: {
        containers: [{ name: "app", ...res({ cpu: "100m" }) }],
        initContainers: [{ name: "init", ...res({ cpu: "1", memory: "10Mi" }) }],
      },
    });
    const usage = pods.usage(p, NOW);
    assert.equal(usage["requests.cpu"], "1");
    assert.equal(usage["requests.memory"], "10Mi");
  });

  it("counts extended and hugepage requests under requests.<name>", () => {
    const usage = pods.usage(pod([res({ "example.com/gpu": "2", "hugepages-2Mi": "4Mi" })]), NOW);
    assert.equal(usage["requests.example.com/gpu"], "2");
    assert.equal(usage["hugepages-2Mi"], "4Mi");
    assert.equal(usage["requests.hugepages-2Mi"], "4Mi");
  });

  it("stops charging terminal pods and pods past their deletion grace, except as objects", () => {
    const running = pod([res({ cpu: "1" })]);
    const done = { ...running, status: { phase: "Succeeded" as const } };
    assert.deepEqual(pods.usage(done, NOW), { "count/pods": "1" });
    const deleting = {
      ...running,
      metadata: {
        ...running.metadata,
        deletionTimestamp: "2025-01-01T00:00:00Z",
        deletionGracePeriodSeconds: 30,
      },
    };
    assert.equal(podCharged(deleting, NOW + 30_000), true);
    assert.equal(podCharged(deleting, NOW + 30_001), false);
    assert.deepEqual(pods.usage(deleting, NOW + 60_000), { "count/pods": "1" });
  });

  it("asks every container to state what a cpu or memory quota tracks", () => {
    const p = pod([res({ cpu: "1" }), res({ memory: "1Gi" })]);
    assert.equal(
      pods.constraints(["requests.cpu", "limits.memory", "pods"], p),
      "must specify limits.memory for: c0,c1; requests.cpu for: c1",
    );
    assert.equal(pods.constraints(["pods", "count/pods"], p), undefined);
    assert.equal(
      pods.constraints(["requests.cpu"], pod([res(undefined, { cpu: "1" })])),
      undefined,
    );
  });

  it("matches the pod scopes", () => {
    const best = pod([{}]);
    const burst = pod([res({ cpu: "1" })], {});
    const deadline = pod([{}], {
      spec: { containers: [{ name: "c" }], activeDeadlineSeconds: 60 },
    });
    const exists = (scopeName: string) => ({ scopeName, operator: "Exists" });
    assert.equal(pods.matchesScope(exists("BestEffort"), best), true);
    assert.equal(pods.matchesScope(exists("NotBestEffort"), burst), true);
    assert.equal(pods.matchesScope(exists("Terminating"), deadline), true);
    assert.equal(pods.matchesScope(exists("NotTerminating"), deadline), false);
    assert.equal(pods.matchesScope(exists("PriorityClass"), best), false);
    assert.equal(
      pods.matchesScope({ scopeName: "PriorityClass", operator: "DoesNotExist" }, best),
      true,
    );
    assert.equal(services.matchesScope(exists("BestEffort"), best), false);
  });

  it("is re-checked on update only when the pod enters or leaves the Terminating scope", () => {
    const p = pod([{}]);
    const withDeadline = { ...p, spec: { ...p.spec, activeDeadlineSeconds: 5 } };
    assert.equal(pods.handles("CREATE", p, undefined), true);
    assert.equal(pods.handles("UPDATE", p, p), false);
    assert.equal(pods.handles("UPDATE", withDeadline, p), true);
  });
});

describe("service and claim usage", () => {
  const svc = (spec: Record<string, unknown>): KubeObject => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "s" },
    spec,
  });

  it("counts load balancers and node ports", () => {
    const ports = [{ port: 80 }, { port: 443, nodePort: 30443 }];
    assert.deepEqual(services.usage(svc({ type: "ClusterIP", ports }), NOW), {
      "count/services": "1",
      services: "1",
      "services.loadbalancers": "0",
      "services.nodeports": "0",
    });
    assert.equal(services.usage(svc({ type: "NodePort", ports }), NOW)["services.nodeports"], "2");
    const lb = services.usage(
      svc({ type: "LoadBalancer", ports, allocateLoadBalancerNodePorts: false }),
      NOW,
    );
    assert.equal(lb["services.loadbalancers"], "1");
    assert.equal(lb["services.nodeports"], "1");
  });

  it("charges claims per storage class, in whole bytes", () => {
    const pvc: KubeObject = {
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "c" },
      spec: { storageClassName: "fast", resources: { requests: { storage: "1.5" } } },
    };
    assert.deepEqual(claims.usage(pvc, NOW), {
      "count/persistentvolumeclaims": "1",
      persistentvolumeclaims: "1",
      "fast.storageclass.storage.k8s.io/persistentvolumeclaims": "1",
      "requests.storage": "2",
      "fast.storageclass.storage.k8s.io/requests.storage": "2",
    });
    assert.deepEqual(
      claims.matchingResources([
        "requests.storage",
        "fast.storageclass.storage.k8s.io/requests.storage",
        "requests.cpu",
      ]),
      ["requests.storage", "fast.storageclass.storage.k8s.io/requests.storage"],
    );
  });
});

describe("object counts and lookups", () => {
  it("names counts by resource and group, and reads them back", () => {
    assert.equal(objectCountName({ group: "", resource: "configmaps" }), "count/configmaps");
    assert.equal(objectCountName({ group: "batch", resource: "jobs" }), "count/jobs.batch");
    assert.deepEqual(countedResource("count/crontabs.stable.example.com"), {
      group: "stable.example.com",
      resource: "crontabs",
    });
    assert.equal(countedResource("pods"), undefined);
  });

  it("counts every other kind on create, with the legacy names for the four that had one", () => {
    const cm = evaluatorFor({ group: "", resource: "configmaps" });
    const obj: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } };
    assert.deepEqual(cm.usage(obj, NOW), { "count/configmaps": "1", configmaps: "1" });
    assert.equal(cm.handles("UPDATE", obj, obj), false);
    const jobs = evaluatorFor({ group: "batch", resource: "jobs" });
    assert.deepEqual(jobs.usage(obj, NOW), { "count/jobs.batch": "1" });
  });

  it("finds the kinds a quota's names are measured on", () => {
    assert.deepEqual(
      resourcesTracked([
        "requests.cpu",
        "count/pods",
        "services.nodeports",
        "requests.storage",
        "secrets",
        "count/jobs.batch",
        "count/events",
        "no-such-name",
      ]),
      [
        { group: "", resource: "pods" },
        { group: "", resource: "services" },
        { group: "", resource: "persistentvolumeclaims" },
        { group: "", resource: "secrets" },
        { group: "batch", resource: "jobs" },
      ],
    );
  });

  it("matches a quota that tracks the kind, in every scope", () => {
    const p = pod([res({ cpu: "1" })]);
    assert.equal(quotaMatches(quota({ pods: "2" }), pods, p), true);
    assert.equal(quotaMatches(quota({ services: "2" }), pods, p), false);
    assert.equal(quotaMatches(quota({ pods: "2" }, { scopes: ["BestEffort"] }), pods, p), false);
    const unsynced = { ...quota({ pods: "2" }), status: {} };
    assert.equal(quotaMatches(unsynced, pods, p), false);
  });
});
