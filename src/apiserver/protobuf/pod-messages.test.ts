/**
 * A v1 Pod's status (which no kubectl command sends) hand-assembled from
 * core/v1/generated.proto numbers, with the expected JSON written from the json
 * tags in core/v1/types.go. The PodSpec tables are checked against kubectl's own
 * bodies in kubectl-sink-vectors.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelope, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeKubeProtobuf } from "./index.js";

const time = (seconds: number) => [...vField(1, seconds)];
const T0 = 1_700_000_000;
const AT = "2023-11-14T22:13:20Z";
const quantity = (key: string, value: string) => [
  ...lField(1, key),
  ...lField(2, lField(1, value)),
];

describe("decodeKubeProtobuf on a hand-built Pod", () => {
  it("decodes every PodStatus field and the container statuses", () => {
    const containerStatus = lField(
      8,
      lField(1, "app"),
      lField(2, lField(2, lField(1, time(T0)))),
      lField(
        3,
        lField(
          3,
          vField(1, 137),
          vField(2, 9),
          lField(3, "OOMKilled"),
          lField(4, "out of memory"),
          lField(5, time(T0 - 60)),
          lField(6, time(T0)),
          lField(7, "containerd://old"),
        ),
      ),
      vField(4, 1),
      vField(5, 1),
      lField(6, "busybox:1.36"),
      lField(7, "docker.io/library/busybox@sha256:abc"),
      lField(8, "containerd://new"),
      vField(9, 1),
      lField(10, quantity("cpu", "500m")),
      lField(11, lField(1, quantity("memory", "64Mi"))),
      lField(12, lField(1, "data"), lField(2, "/data"), vField(3, 1), lField(4, "Enabled")),
      lField(13, lField(1, vField(1, 1000), vField(2, 1000), lField(3, [10, 20]))),
      lField(14, lField(1, "claim:gpu"), lField(2, lField(1, "gpu-0"), lField(2, "Healthy"))),
    );
    const waiting = lField(
      10,
      lField(1, "init"),
      lField(2, lField(1, lField(1, "PodInitializing"))),
      lField(3),
      vField(4, 0),
      vField(5, 0),
      lField(6, "busybox"),
      lField(7, ""),
    );
    const status = lField(
      3,
      lField(1, "Running"),
      lField(2, lField(1, "Ready"), lField(2, "True"), lField(4, time(T0))),
      lField(3, "all good"),
      lField(4, "Started"),
      lField(11, "node-2"),
      lField(5, "10.0.0.1"),
      lField(16, lField(1, "10.0.0.1")),
      lField(16, lField(1, "fd00::1")),
      lField(6, "10.244.0.5"),
      lField(12, lField(1, "10.244.0.5")),
      lField(7, time(T0 - 120)),
      waiting,
      containerStatus,
      lField(9, "Burstable"),
      lField(13, lField(1, "debugger-x")),
      lField(14, "InProgress"),
      lField(15, lField(1, "gpu"), lField(2, "p-gpu-abc")),
    );
    const spec = lField(2, lField(2, lField(1, "app"), lField(2, "busybox:1.36")));
    const body = envelope(
      "v1",
      "Pod",
      lField(1, lField(1, "p"), lField(3, "default")),
      spec,
      status,
    );
    assert.deepEqual(decodeKubeProtobuf(body).object, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p", namespace: "default", creationTimestamp: null },
      spec: { containers: [{ name: "app", image: "busybox:1.36", resources: {} }] },
      status: {
        phase: "Running",
        conditions: [
          { type: "Ready", status: "True", lastProbeTime: null, lastTransitionTime: AT },
        ],
        message: "all good",
        reason: "Started",
        nominatedNodeName: "node-2",
        hostIP: "10.0.0.1",
        hostIPs: [{ ip: "10.0.0.1" }, { ip: "fd00::1" }],
        podIP: "10.244.0.5",
        podIPs: [{ ip: "10.244.0.5" }],
        startTime: "2023-11-14T22:11:20Z",
        initContainerStatuses: [
          {
            name: "init",
            state: { waiting: { reason: "PodInitializing" } },
            lastState: {},
            ready: false,
            restartCount: 0,
            image: "busybox",
            imageID: "",
          },
        ],
        containerStatuses: [
          {
            name: "app",
            state: { running: { startedAt: AT } },
            lastState: {
              terminated: {
                exitCode: 137,
                signal: 9,
                reason: "OOMKilled",
                message: "out of memory",
                startedAt: "2023-11-14T22:12:20Z",
                finishedAt: AT,
                containerID: "containerd://old",
              },
            },
            ready: true,
            restartCount: 1,
            image: "busybox:1.36",
            imageID: "docker.io/library/busybox@sha256:abc",
            containerID: "containerd://new",
            started: true,
            allocatedResources: { cpu: "500m" },
            resources: { limits: { memory: "64Mi" } },
            volumeMounts: [
              { name: "data", mountPath: "/data", readOnly: true, recursiveReadOnly: "Enabled" },
            ],
            user: { linux: { uid: 1000, gid: 1000, supplementalGroups: [10, 20] } },
            allocatedResourcesStatus: [
              { name: "claim:gpu", resources: [{ resourceID: "gpu-0", health: "Healthy" }] },
            ],
          },
        ],
        qosClass: "Burstable",
        ephemeralContainerStatuses: [
          {
            name: "debugger-x",
            state: {},
            lastState: {},
            ready: false,
            restartCount: 0,
            image: "",
            imageID: "",
          },
        ],
        resize: "InProgress",
        resourceClaimStatuses: [{ name: "gpu", resourceClaimName: "p-gpu-abc" }],
      },
    });
  });

  it("renders an empty Pod with null containers, as Go's encoder does", () => {
    assert.deepEqual(decodeKubeProtobuf(envelope("v1", "Pod")).object, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { creationTimestamp: null },
      spec: { containers: null },
      status: {},
    });
  });

  it("refuses a malformed resource quantity inside a container", () => {
    const resources = lField(8, lField(1, quantity("cpu", "half")));
    const spec = lField(2, lField(2, lField(1, "app"), resources));
    assert.throws(
      () => decodeKubeProtobuf(envelope("v1", "Pod", spec)),
      /malformed protobuf body: quantity "half" does not parse/,
    );
  });
});
