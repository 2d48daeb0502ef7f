import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fieldErrorMessage, type KubeObject } from "../../api/index.js";
import { statefulSetType } from "./apps-stateful-types.js";
import {
  validateControllerRevision,
  validateDaemonSet,
  validateStatefulSet,
} from "./apps-stateful-validation.js";

const template = {
  metadata: { labels: { app: "a" } },
  spec: { restartPolicy: "Always", containers: [{ name: "c", image: "busybox" }] },
};
const sts = (spec: Record<string, unknown> = {}): KubeObject => {
  const obj: KubeObject = {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "web" },
    spec: { selector: { matchLabels: { app: "a" } }, template: structuredClone(template), ...spec },
  };
  statefulSetType.prepareForCreate?.(obj);
  return obj;
};
const ds = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name: "d" },
  spec: {
    selector: { matchLabels: { app: "a" } },
    template: structuredClone(template),
    updateStrategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    ...spec,
  },
});
const messages = (errors: ReturnType<typeof validateStatefulSet>) => errors.map(fieldErrorMessage);

describe("StatefulSet validation", () => {
  it("accepts a defaulted set and sets kube's defaults", () => {
    const obj = sts();
    assert.deepEqual(validateStatefulSet(obj, undefined), []);
    const spec = obj.spec as Record<string, unknown>;
    assert.equal(spec.replicas, 1);
    assert.equal(spec.podManagementPolicy, "OrderedReady");
    assert.deepEqual(spec.updateStrategy, {
      type: "RollingUpdate",
      rollingUpdate: { partition: 0 },
    });
    assert.equal(spec.revisionHistoryLimit, 10);
  });

  it("reports kube's field paths and messages", () => {
    assert.deepEqual(
      messages(
        validateStatefulSet(
          sts({
            replicas: -1,
            podManagementPolicy: "Sometimes",
            selector: { matchLabels: { app: "b" } },
            updateStrategy: {
              type: "RollingUpdate",
              rollingUpdate: { partition: -2, maxUnavailable: 0 },
            },
          }),
          undefined,
        ),
      ),
      [
        'spec.podManagementPolicy: Unsupported value: "Sometimes": supported values: "OrderedReady", "Parallel"',
        "spec.updateStrategy.rollingUpdate.partition: Invalid value: -2: must be greater than or equal to 0",
        "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0",
        "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
        'spec.template.metadata.labels: Invalid value: "object": `selector` does not match template `labels`',
      ],
    );
  });

  it("lets an update change only replicas, template, strategies and their like", () => {
    const old = sts({ serviceName: "web" });
    const scaled = structuredClone(old);
    (scaled.spec as Record<string, unknown>).replicas = 5;
    assert.deepEqual(validateStatefulSet(scaled, old), []);
    const renamed = structuredClone(old);
    (renamed.spec as Record<string, unknown>).serviceName = "other";
    assert.deepEqual(messages(validateStatefulSet(renamed, old)), [
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });
});

describe("DaemonSet validation", () => {
  it("refuses both 0, both non-zero, bad percentages and an empty selector", () => {
    const at = "spec.updateStrategy.rollingUpdate";
    const with_ = (rollingUpdate: object) =>
      messages(
        validateDaemonSet(
          ds({ updateStrategy: { type: "RollingUpdate", rollingUpdate } }),
          undefined,
        ),
      );
    assert.deepEqual(with_({ maxUnavailable: 0, maxSurge: 0 }), [
      `${at}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`,
    ]);
    assert.deepEqual(with_({ maxUnavailable: "10%", maxSurge: 1 }), [
      `${at}.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`,
    ]);
    assert.deepEqual(with_({ maxUnavailable: "150%", maxSurge: 0 }), [
      `${at}.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`,
    ]);
    assert.match(with_({ maxUnavailable: "x", maxSurge: 0 })[0]!, /a valid percent string/);
    assert.deepEqual(messages(validateDaemonSet(ds({ selector: {} }), undefined)).slice(0, 1), [
      'spec.selector: Invalid value: "object": empty selector is invalid for daemonset',
    ]);
  });

  it("checks the selector's own syntax, as Deployments' is checked", () => {
    const selector = {
      matchLabels: { app: "a" },
      matchExpressions: [{ key: "tier", operator: "Near", values: ["x"] }],
    };
    assert.deepEqual(messages(validateDaemonSet(ds({ selector }), undefined)), [
      'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    ]);
  });

  it("refuses restartPolicy other than Always", () => {
    const t = structuredClone(template);
    t.spec.restartPolicy = "Never";
    assert.deepEqual(messages(validateDaemonSet(ds({ template: t }), undefined)), [
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });
});

describe("ControllerRevision validation", () => {
  it("needs data and keeps it, while the revision number may move", () => {
    const cr = { apiVersion: "apps/v1", kind: "ControllerRevision", metadata: {}, revision: 1 };
    assert.deepEqual(messages(validateControllerRevision(cr, undefined)), [
      "data: Required value: data is mandatory",
    ]);
    const old = { ...cr, data: { a: 1 } };
    assert.deepEqual(validateControllerRevision({ ...old, revision: 3 }, old), []);
    assert.deepEqual(messages(validateControllerRevision({ ...old, data: { a: 2 } }, old)), [
      'data: Invalid value: "object": field is immutable',
    ]);
  });
});
