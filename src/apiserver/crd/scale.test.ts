/** The Scale view of custom objects and the checks of scale paths. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { scaleErrors, scaleOf, scalePathErrors, withReplicas } from "./scale.js";

const paths = {
  specReplicasPath: ".spec.replicas",
  statusReplicasPath: ".status.replicas",
  labelSelectorPath: ".status.selector",
};

const widget: KubeObject = {
  apiVersion: "rules.example.com/v1",
  kind: "Widget",
  metadata: {
    name: "w",
    namespace: "default",
    uid: "u",
    resourceVersion: "9",
    creationTimestamp: "2024-05-01T10:00:00Z",
    labels: { not: "copied" },
  },
  spec: { replicas: 3, image: "x" },
  status: { replicas: 2, selector: "app=w" },
};

describe("scaleOf", () => {
  it("reads replicas and selector through the CRD's paths", () => {
    assert.deepEqual(scaleOf(widget, paths), {
      kind: "Scale",
      apiVersion: "autoscaling/v1",
      metadata: {
        name: "w",
        namespace: "default",
        uid: "u",
        resourceVersion: "9",
        creationTimestamp: "2024-05-01T10:00:00Z",
      },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: "app=w" },
    });
  });

  it("reads absent replicas as 0, as kube", () => {
    const bare = { ...widget, spec: {}, status: undefined };
    const scale = scaleOf(bare, paths);
    assert.deepEqual([scale.spec, scale.status], [{}, { replicas: 0 }]);
  });
});

describe("withReplicas", () => {
  it("sets the spec path, creating objects on the way, without touching the input", () => {
    const deep = { specReplicasPath: ".spec.scaling.replicas", statusReplicasPath: ".status.r" };
    const next = withReplicas(widget, deep, 7);
    assert.deepEqual(next.spec, { replicas: 3, image: "x", scaling: { replicas: 7 } });
    assert.equal((widget.spec as { scaling?: unknown }).scaling, undefined);
  });
});

describe("scaleErrors", () => {
  it("accepts non-negative integers only", () => {
    assert.deepEqual(scaleErrors({ spec: { replicas: 0 } }), []);
    assert.deepEqual(scaleErrors({ spec: { replicas: -1 } }).map(fieldErrorMessage), [
      "spec.replicas: Invalid value: -1: must be greater than or equal to 0",
    ]);
    assert.equal(scaleErrors({ spec: { replicas: 1.5 } }).length, 1);
  });
});

describe("scalePathErrors", () => {
  it("wants paths under .spec and .status", () => {
    const at = "spec.versions[0].subresources.scale";
    assert.deepEqual(scalePathErrors(paths, at), []);
    assert.deepEqual(
      scalePathErrors(
        { specReplicasPath: ".status.replicas", labelSelectorPath: "status.x" },
        at,
      ).map(fieldErrorMessage),
      [
        `${at}.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec`,
        `${at}.statusReplicasPath: Required value`,
        `${at}.labelSelectorPath: Invalid value: "status.x": should be a json path under either .spec or .status`,
      ],
    );
  });
});
