/**
 * apps/v1 Deployment and ReplicaSet bodies hand-assembled from
 * apps/v1/generated.proto numbers (as `kubectl create deployment` sends the
 * first); the expected JSON is written from the json tags in apps/v1/types.go.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelope, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeKubeProtobuf } from "./index.js";

const label = (k: string, v: string) => lField(11, lField(1, k), lField(2, v));
const template = lField(
  3,
  lField(1, label("app", "web")),
  lField(2, lField(2, lField(1, "nginx"), lField(2, "nginx:1.22"))),
);
const TEMPLATE_JSON = {
  metadata: { creationTimestamp: null, labels: { app: "web" } },
  spec: { containers: [{ name: "nginx", image: "nginx:1.22", resources: {} }] },
};
const selector = lField(2, lField(1, lField(1, "app"), lField(2, "web")));

describe("decodeKubeProtobuf on apps/v1 bodies", () => {
  it("decodes the Deployment `kubectl create deployment` sends", () => {
    const meta = lField(1, lField(1, "web"), lField(3, "default"), label("app", "web"));
    const spec = lField(2, vField(1, 3), selector, template, lField(4));
    const out = decodeKubeProtobuf(envelope("apps/v1", "Deployment", meta, spec, lField(3)));
    assert.deepEqual(out.object, {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: {
        name: "web",
        namespace: "default",
        creationTimestamp: null,
        labels: { app: "web" },
      },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: TEMPLATE_JSON,
        strategy: {},
      },
      status: {},
    });
  });

  it("decodes a rolling update's int-or-percent fields and the other knobs", () => {
    const intOrString = (n: number, s?: string) =>
      s === undefined ? [vField(1, 0), vField(2, n)] : [vField(1, 1), lField(3, s)];
    const strategy = lField(
      4,
      lField(1, "RollingUpdate"),
      lField(2, lField(1, ...intOrString(0)), lField(2, ...intOrString(0, "30%"))),
    );
    const spec = lField(
      2,
      selector,
      template,
      strategy,
      vField(5, 5),
      vField(6, 2),
      vField(7, 1),
      vField(9, 60),
    );
    const out = decodeKubeProtobuf(envelope("apps/v1", "Deployment", lField(1), spec));
    assert.deepEqual(out.object.spec, {
      selector: { matchLabels: { app: "web" } },
      template: TEMPLATE_JSON,
      strategy: { type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: "30%" } },
      minReadySeconds: 5,
      revisionHistoryLimit: 2,
      paused: true,
      progressDeadlineSeconds: 60,
    });
  });

  it("decodes a ReplicaSet with its status", () => {
    const spec = lField(2, vField(1, 2), vField(4, 3), selector, template);
    const status = lField(3, vField(1, 2), vField(2, 2), vField(4, 1), vField(3, 7));
    const out = decodeKubeProtobuf(envelope("apps/v1", "ReplicaSet", lField(1), spec, status));
    assert.deepEqual(out.object.spec, {
      replicas: 2,
      minReadySeconds: 3,
      selector: { matchLabels: { app: "web" } },
      template: TEMPLATE_JSON,
    });
    assert.deepEqual(out.object.status, {
      replicas: 2,
      fullyLabeledReplicas: 2,
      readyReplicas: 1,
      observedGeneration: 7,
    });
  });
});
