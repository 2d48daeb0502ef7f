/**
 * policy/v1 bodies hand-assembled from policy/v1/generated.proto numbers: an
 * Eviction as kubectl drain sends it (its deleteOptions) and a
 * PodDisruptionBudget as kubectl create pdb does; the expected JSON follows the
 * json tags in policy/v1/types.go.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelope, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeKubeProtobuf } from "./index.js";

describe("decodeKubeProtobuf on policy/v1 bodies", () => {
  it("decodes an Eviction with its deleteOptions", () => {
    const body = envelope(
      "policy/v1",
      "Eviction",
      lField(1, lField(1, "web-1"), lField(3, "default")),
      lField(2, vField(1, 5), lField(4, "Background")),
    );
    assert.deepEqual(decodeKubeProtobuf(body).object, {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "web-1", namespace: "default", creationTimestamp: null },
      deleteOptions: { gracePeriodSeconds: 5, propagationPolicy: "Background" },
    });
    assert.equal(
      (
        decodeKubeProtobuf(envelope("policy/v1beta1", "Eviction", lField(1, lField(1, "x"))))
          .object as {
          kind: string;
        }
      ).kind,
      "Eviction",
    );
  });

  it("decodes a PodDisruptionBudget with an int-or-percent and a selector", () => {
    const body = envelope(
      "policy/v1",
      "PodDisruptionBudget",
      lField(1, lField(1, "web")),
      lField(
        2,
        lField(1, vField(1, 1), lField(3, "50%")),
        lField(2, lField(1, lField(1, "app"), lField(2, "web"))),
        lField(4, "AlwaysAllow"),
      ),
      lField(3),
    );
    assert.deepEqual(decodeKubeProtobuf(body).object, {
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: "web", creationTimestamp: null },
      spec: {
        minAvailable: "50%",
        selector: { matchLabels: { app: "web" } },
        unhealthyPodEvictionPolicy: "AlwaysAllow",
      },
      status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
    });
  });
});
