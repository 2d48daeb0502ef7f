/** The quota admission check: which quotas an object counts against, refusals, and the new usage. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject, Pod } from "../../api/index.js";
import { evaluatorFor, type ResourceQuota } from "../../api/index.js";
import { chargeQuotas, QuotaRefusal, type QuotaRequest } from "./quota-check.js";

const pods = evaluatorFor({ group: "", resource: "pods" });
const claims = evaluatorFor({ group: "", resource: "persistentvolumeclaims" });

function quota(
  name: string,
  hard: Record<string, string>,
  used: Record<string, string> | undefined,
  scopes?: string[],
): ResourceQuota {
  return {
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name, namespace: "ns" },
    spec: { hard, ...(scopes ? { scopes } : {}) },
    status: { hard, ...(used ? { used } : {}) },
  };
}

function pod(requests?: Record<string, string>): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p3", namespace: "ns" },
    spec: { containers: [{ name: "app", ...(requests ? { resources: { requests } } : {}) }] },
  };
}

const create = (object: KubeObject, evaluator = pods): QuotaRequest => ({
  evaluator,
  operation: "CREATE",
  object,
  now: Date.now(),
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof QuotaRefusal);
    return e.message;
  }
  assert.fail("expected a refusal");
}

describe("chargeQuotas", () => {
  it("adds the object's usage to every matching quota", () => {
    const q = quota("q", { pods: "2", "requests.cpu": "1" }, { pods: "1", "requests.cpu": "250m" });
    const other = quota("svc", { services: "1" }, { services: "0" });
    const charges = chargeQuotas([q, other], create(pod({ cpu: "500m" })));
    assert.deepEqual(
      charges.map((c) => [c.quota.metadata.name, c.used]),
      [["q", { pods: "2", "requests.cpu": "750m" }]],
    );
  });

  it("refuses what would exceed a hard limit, with kube's message", () => {
    const q = quota("q", { pods: "2", "requests.cpu": "1" }, { pods: "2", "requests.cpu": "500m" });
    assert.equal(
      refusal(() => chargeQuotas([q], create(pod({ cpu: "500m" })))),
      "exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2",
    );
    const cpu = quota("cpu", { "requests.cpu": "1" }, { "requests.cpu": "750m" });
    assert.equal(
      refusal(() => chargeQuotas([cpu], create(pod({ cpu: "500m" })))),
      "exceeded quota: cpu, requested: requests.cpu=500m, used: requests.cpu=750m, limited: requests.cpu=1",
    );
  });

  it("asks for the requests a compute quota tracks", () => {
    const q = quota("q", { "requests.cpu": "1" }, { "requests.cpu": "0" });
    assert.equal(
      refusal(() => chargeQuotas([q], create(pod()))),
      "failed quota: q: must specify requests.cpu for: app",
    );
  });

  it("waits for the controller to measure a quota", () => {
    const q = quota("q", { pods: "2", "count/pods": "2" }, { pods: "0" });
    assert.equal(
      refusal(() => chargeQuotas([q], create(pod()))),
      "status unknown for quota: q, resources: count/pods,pods",
    );
    // A quota the controller has not seen at all has no enforced limits yet.
    const fresh = { ...q, status: {} };
    assert.deepEqual(chargeQuotas([fresh], create(pod())), []);
  });

  it("leaves quotas out of scope alone", () => {
    const best = quota("best", { pods: "1" }, { pods: "1" }, ["BestEffort"]);
    assert.deepEqual(chargeQuotas([best], create(pod({ cpu: "1" }))), []);
    assert.match(
      refusal(() => chargeQuotas([best], create(pod()))),
      /^exceeded quota: best/,
    );
  });

  it("charges an update only for what grew", () => {
    const claim = (storage: string): KubeObject => ({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "data", namespace: "ns", resourceVersion: "7" },
      spec: { resources: { requests: { storage } } },
    });
    const q = quota(
      "disk",
      { "requests.storage": "10Gi", persistentvolumeclaims: "1" },
      { "requests.storage": "4Gi", persistentvolumeclaims: "1" },
    );
    const grow: QuotaRequest = {
      evaluator: claims,
      operation: "UPDATE",
      object: claim("6Gi"),
      oldObject: claim("4Gi"),
      now: Date.now(),
    };
    assert.deepEqual(chargeQuotas([q], grow)[0]?.used, {
      "requests.storage": "6Gi",
      persistentvolumeclaims: "1",
    });
    assert.match(
      refusal(() => chargeQuotas([q], { ...grow, object: claim("12Gi") })),
      /requested: requests.storage=8Gi, used: requests.storage=4Gi, limited: requests.storage=10Gi$/,
    );
    assert.deepEqual(chargeQuotas([q], { ...grow, object: claim("4Gi") }), []);
  });
});
