import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Deployment, ReplicaSet } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { validateDeployment, validateReplicaSet } from "./apps-validation.js";

const container = { name: "c", image: "busybox" };
/** What a Deployment and a ReplicaSet share: one replica of a template labelled app=a. */
const workload = () => ({
  replicas: 1,
  selector: { matchLabels: { app: "a" } },
  template: {
    metadata: { labels: { app: "a" } },
    spec: { restartPolicy: "Always", containers: [container] },
  },
});

function deployment(spec: Record<string, unknown> = {}): Deployment {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "d" },
    spec: {
      ...workload(),
      strategy: {
        type: "RollingUpdate",
        rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      ...spec,
    } as Deployment["spec"],
  };
}

const messages = (d: Deployment, old?: Deployment) =>
  validateDeployment(d, old).map(fieldErrorMessage);

describe("Deployment validation (kube's ValidateDeployment)", () => {
  it("accepts a defaulted Deployment", () => {
    assert.deepEqual(messages(deployment()), []);
  });

  it("needs a selector that matches the template labels", () => {
    assert.deepEqual(messages(deployment({ selector: undefined })), [
      "spec.selector: Required value",
    ]);
    assert.deepEqual(messages(deployment({ selector: {} })), [
      'spec.selector: Invalid value: "object": empty selector is invalid for deployment',
    ]);
    assert.deepEqual(messages(deployment({ selector: { matchLabels: { app: "b" } } })), [
      'spec.template.metadata.labels: Invalid value: "object": `selector` does not match template `labels`',
    ]);
  });

  it("refuses negative counts and a deadline not above minReadySeconds", () => {
    assert.deepEqual(messages(deployment({ replicas: -1, revisionHistoryLimit: -2 })), [
      "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
      "spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
    ]);
    assert.deepEqual(messages(deployment({ minReadySeconds: 10, progressDeadlineSeconds: 10 })), [
      "spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds",
    ]);
  });

  it("checks the rolling update's int-or-percent fields", () => {
    const rolling = (r: Record<string, unknown>) =>
      messages(deployment({ strategy: { type: "RollingUpdate", rollingUpdate: r } }));
    assert.deepEqual(rolling({ maxSurge: 0, maxUnavailable: 0 }), [
      "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0",
    ]);
    assert.deepEqual(rolling({ maxSurge: "0%", maxUnavailable: "0%" }), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0',
    ]);
    assert.deepEqual(rolling({ maxSurge: "x", maxUnavailable: "150%" }), [
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ]);
    assert.deepEqual(rolling({ maxSurge: -1, maxUnavailable: 1 }), [
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0",
    ]);
  });

  it("knows the strategy types", () => {
    assert.deepEqual(
      messages(deployment({ strategy: { type: "Recreate", rollingUpdate: { maxSurge: 1 } } })),
      [
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
      ],
    );
    assert.deepEqual(messages(deployment({ strategy: { type: "Recreate" } })), []);
    assert.deepEqual(messages(deployment({ strategy: { type: "BlueGreen" } })), [
      'spec.strategy.Type: Unsupported value: "BlueGreen": supported values: "Recreate", "RollingUpdate"',
    ]);
  });

  it("runs pods that restart Always, and the pod's own checks", () => {
    const d = deployment();
    (d.spec.template.spec as Record<string, unknown>).restartPolicy = "OnFailure";
    assert.deepEqual(messages(d), [
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]);
    const noImage = deployment();
    (noImage.spec.template.spec as Record<string, unknown>).containers = [{ name: "c" }];
    assert.ok(messages(noImage).includes("spec.template.spec.containers[0].image: Required value"));
  });

  it("keeps the selector immutable on update", () => {
    const old = deployment();
    const moved = deployment({
      selector: { matchLabels: { app: "b" } },
      template: {
        metadata: { labels: { app: "b" } },
        spec: { restartPolicy: "Always", containers: [container] },
      },
    });
    assert.deepEqual(messages(moved, old), [
      'spec.selector: Invalid value: "object": field is immutable',
    ]);
    assert.deepEqual(messages(deployment({ replicas: 5 }), old), []);
  });
});

describe("ReplicaSet validation (kube's ValidateReplicaSet)", () => {
  const rs = (spec: Record<string, unknown>): ReplicaSet => ({
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: "r" },
    spec: {
      ...workload(),
      ...spec,
    },
  });
  it("checks replicas, minReadySeconds, the selector and the template", () => {
    assert.deepEqual(validateReplicaSet(rs({}), undefined), []);
    assert.deepEqual(
      validateReplicaSet(
        rs({ replicas: -1, minReadySeconds: -1, selector: { matchLabels: { app: "b" } } }),
        undefined,
      ).map(fieldErrorMessage),
      [
        "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
        "spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
        'spec.template.metadata.labels: Invalid value: "object": `selector` does not match template `labels`',
      ],
    );
    assert.deepEqual(
      validateReplicaSet(rs({ selector: { matchLabels: { app: "a", x: "y" } } }), rs({})).map(
        fieldErrorMessage,
      ),
      [
        'spec.template.metadata.labels: Invalid value: "object": `selector` does not match template `labels`',
        'spec.selector: Invalid value: "object": field is immutable',
      ],
    );
  });
});
