/** LimitRanger's defaulting and its min / max / ratio checks, with kube's messages. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Container, PersistentVolumeClaim, Pod } from "../../api/index.js";
import {
  defaultLimitRange,
  type LimitRange,
  type LimitRangeItem,
} from "../resources/quota-validation.js";
import {
  aggregate,
  claimLimitErrors,
  defaultPodResources,
  LIMIT_RANGER_ANNOTATION,
  podLimitErrors,
  requestsFromLimits,
} from "./limit-range-rules.js";

function range(...limits: LimitRangeItem[]): LimitRange {
  const r: LimitRange = { spec: { limits } };
  defaultLimitRange(r);
  return r;
}

function pod(containers: Container[], initContainers?: Container[]): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers, ...(initContainers ? { initContainers } : {}) },
  };
}

const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>) => ({
  name,
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

describe("defaultPodResources", () => {
  it("fills missing limits and requests from the Container item and says so", () => {
    const p = pod(
      [c("app"), c("side", { cpu: "100m" })],
      [c("init", undefined, { memory: "64Mi" })],
    );
    requestsFromLimits(p);
    defaultPodResources(
      p,
      range({
        type: "Container",
        default: { cpu: "1", memory: "256Mi" },
        defaultRequest: { cpu: "200m" },
      }),
    );
    assert.deepEqual(p.spec.containers[0]?.resources, {
      limits: { cpu: "1", memory: "256Mi" },
      requests: { cpu: "200m", memory: "256Mi" },
    });
    assert.deepEqual(p.spec.containers[1]?.resources, {
      limits: { cpu: "1", memory: "256Mi" },
      requests: { cpu: "100m", memory: "256Mi" },
    });
    assert.deepEqual(p.spec.initContainers?.[0]?.resources, {
      limits: { memory: "64Mi", cpu: "1" },
      requests: { memory: "64Mi", cpu: "200m" },
    });
    assert.equal(
      p.metadata.annotations?.[LIMIT_RANGER_ANNOTATION],
      "LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for container side; cpu, memory limit for container side; cpu request for init container init; cpu limit for init container init",
    );
  });

  it("keeps a request taken from the container's own limit over the range's default request", () => {
    const p = pod([c("app", undefined, { cpu: "500m" })]);
    requestsFromLimits(p);
    defaultPodResources(p, range({ type: "Container", max: { cpu: "2" } }));
    assert.deepEqual(p.spec.containers[0]?.resources, {
      limits: { cpu: "500m" },
      requests: { cpu: "500m" },
    });
    assert.equal(p.metadata.annotations, undefined);
  });
});

describe("podLimitErrors", () => {
  it("checks each container against the Container item", () => {
    const r = range({ type: "Container", max: { cpu: "1" }, min: { memory: "32Mi" } });
    const p = pod([c("a", { cpu: "500m", memory: "16Mi" }, { cpu: "2", memory: "64Mi" })]);
    assert.deepEqual(podLimitErrors(r, p), [
      "minimum memory usage per Container is 32Mi, but request is 16Mi",
      "maximum cpu usage per Container is 1, but limit is 2",
    ]);
    assert.deepEqual(podLimitErrors(r, pod([c("b", { memory: "64Mi" })])), [
      "maximum cpu usage per Container is 1.  No limit is specified",
    ]);
  });

  it("checks the pod's totals against the Pod item", () => {
    const r = range({ type: "Pod", max: { memory: "1Gi" }, min: { cpu: "1" } });
    const p = pod([
      c("a", { cpu: "250m", memory: "512Mi" }, { memory: "768Mi" }),
      c("b", { cpu: "250m", memory: "256Mi" }, { memory: "512Mi" }),
    ]);
    assert.deepEqual(podLimitErrors(r, p), [
      "minimum cpu usage per Pod is 1, but request is 500m",
      "maximum memory usage per Pod is 1Gi, but limit is 1280Mi",
    ]);
  });

  it("checks the limit-to-request ratio", () => {
    const r = range({ type: "Container", maxLimitRequestRatio: { cpu: "2" } });
    assert.deepEqual(podLimitErrors(r, pod([c("a", { cpu: "250m" }, { cpu: "1" })])), [
      "cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000",
    ]);
    assert.deepEqual(podLimitErrors(r, pod([c("a", undefined, { cpu: "1" })])), [
      "cpu max limit to request ratio per Container is 2, but no request is specified or request is 0",
    ]);
    assert.deepEqual(podLimitErrors(r, pod([c("a", { cpu: "500m" }, { cpu: "1" })])), []);
  });

  it("joins several errors as kube's aggregate does", () => {
    assert.equal(aggregate(["a"]), "a");
    assert.equal(aggregate(["a", "b"]), "[a, b]");
  });
});

describe("claimLimitErrors", () => {
  const claim = (storage?: string): PersistentVolumeClaim => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "c" },
    spec: { resources: storage ? { requests: { storage } } : {} },
  });

  it("bounds the storage request", () => {
    const r = range({
      type: "PersistentVolumeClaim",
      min: { storage: "1Gi" },
      max: { storage: "10Gi" },
    });
    assert.deepEqual(claimLimitErrors(r, claim("5Gi")), []);
    assert.deepEqual(claimLimitErrors(r, claim("20Gi")), [
      "maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi",
    ]);
    assert.deepEqual(claimLimitErrors(r, claim("500Mi")), [
      "minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi",
    ]);
    assert.deepEqual(claimLimitErrors(r, claim()), [
      "minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified",
      "maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified",
    ]);
  });
});
