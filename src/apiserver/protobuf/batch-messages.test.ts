/**
 * batch/v1 Job and CronJob fields kubectl's create commands leave unset (CronJobSpec
 * policies, JobStatus, CronJobStatus), hand-assembled from batch/v1/generated.proto
 * numbers; the expected JSON is written from the json tags in batch/v1/types.go.
 * kubectl's own bodies, including one with every JobSpec field, are in the vector files.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { envelope, lField, vField } from "../../../test/support/protobuf/test-writer.js";
import { decodeKubeProtobuf } from "./index.js";

const time = (seconds: number) => [...vField(1, seconds)];
const T0 = 1_700_000_000;

/** A PodTemplateSpec with one container: {metadata=1, spec=2 {containers=2, restartPolicy=3}}. */
const template = (restartPolicy?: string) =>
  lField(
    2,
    lField(2, lField(1, "c"), lField(2, "busybox")),
    ...(restartPolicy === undefined ? [] : [lField(3, restartPolicy)]),
  );

const TEMPLATE_JSON = (restartPolicy?: string) => ({
  metadata: { creationTimestamp: null },
  spec: {
    containers: [{ name: "c", image: "busybox", resources: {} }],
    ...(restartPolicy === undefined ? {} : { restartPolicy }),
  },
});

describe("decodeKubeProtobuf on hand-built batch/v1 bodies", () => {
  it("decodes a CronJob's policies, job template and status", () => {
    const spec = lField(
      2,
      lField(1, "0 3 * * *"),
      lField(8, "Europe/Berlin"),
      vField(2, 120),
      lField(3, "Forbid"),
      vField(4, 0),
      lField(
        5,
        lField(1, lField(11, lField(1, "team"), lField(2, "a"))),
        lField(2, vField(7, 2), lField(6, template("OnFailure"))),
      ),
      vField(6, 3),
      vField(7, 1),
    );
    const status = lField(
      3,
      lField(
        1,
        lField(1, "Job"),
        lField(2, "default"),
        lField(3, "nightly-1"),
        lField(4, "u1"),
        lField(5, "batch/v1"),
        lField(6, "9"),
      ),
      lField(4, time(T0)),
      lField(5, time(T0 + 60)),
    );
    const meta = lField(1, lField(1, "nightly"), lField(3, "default"));
    assert.deepEqual(
      decodeKubeProtobuf(envelope("batch/v1", "CronJob", meta, spec, status)).object,
      {
        apiVersion: "batch/v1",
        kind: "CronJob",
        metadata: { name: "nightly", namespace: "default", creationTimestamp: null },
        spec: {
          schedule: "0 3 * * *",
          timeZone: "Europe/Berlin",
          startingDeadlineSeconds: 120,
          concurrencyPolicy: "Forbid",
          suspend: false,
          jobTemplate: {
            metadata: { creationTimestamp: null, labels: { team: "a" } },
            spec: { backoffLimit: 2, template: TEMPLATE_JSON("OnFailure") },
          },
          successfulJobsHistoryLimit: 3,
          failedJobsHistoryLimit: 1,
        },
        status: {
          active: [
            {
              kind: "Job",
              namespace: "default",
              name: "nightly-1",
              uid: "u1",
              apiVersion: "batch/v1",
              resourceVersion: "9",
            },
          ],
          lastScheduleTime: "2023-11-14T22:13:20Z",
          lastSuccessfulTime: "2023-11-14T22:14:20Z",
        },
      },
    );
  });

  it("renders a CronJob without a spec with its required schedule and jobTemplate", () => {
    const out = decodeKubeProtobuf(
      envelope("batch/v1", "CronJob", lField(1, lField(1, "c"))),
    ).object;
    assert.deepEqual(out.spec, {
      schedule: "",
      jobTemplate: {
        metadata: { creationTimestamp: null },
        spec: { template: { metadata: { creationTimestamp: null }, spec: { containers: null } } },
      },
    });
    assert.deepEqual(out.status, {});
  });

  it("decodes a Job's status, keeping zero pointers and dropping zero counts", () => {
    const condition = lField(
      1,
      lField(1, "Complete"),
      lField(2, "True"),
      lField(3, time(T0)),
      lField(4, time(T0)),
      lField(5, "Done"),
    );
    const status = lField(
      3,
      condition,
      lField(1, lField(1, "SuccessCriteriaMet"), lField(2, "True")),
      lField(2, time(T0)),
      lField(3, time(T0 + 60)),
      vField(4, 0),
      vField(5, 3),
      vField(6, 0),
      vField(11, 0),
      lField(7, "0-2"),
      lField(10, ""),
      lField(8, lField(1, "uid-a"), lField(2, "uid-b")),
      vField(9, 0),
    );
    const body = envelope(
      "batch/v1",
      "Job",
      lField(1, lField(1, "j")),
      lField(2, lField(6, template())),
      status,
    );
    assert.deepEqual(decodeKubeProtobuf(body).object, {
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: "j", creationTimestamp: null },
      spec: { template: TEMPLATE_JSON() },
      status: {
        conditions: [
          {
            type: "Complete",
            status: "True",
            lastProbeTime: "2023-11-14T22:13:20Z",
            lastTransitionTime: "2023-11-14T22:13:20Z",
            reason: "Done",
          },
          {
            type: "SuccessCriteriaMet",
            status: "True",
            lastProbeTime: null,
            lastTransitionTime: null,
          },
        ],
        startTime: "2023-11-14T22:13:20Z",
        completionTime: "2023-11-14T22:14:20Z",
        succeeded: 3,
        terminating: 0,
        completedIndexes: "0-2",
        failedIndexes: "",
        uncountedTerminatedPods: { succeeded: ["uid-a"], failed: ["uid-b"] },
        ready: 0,
      },
    });
  });

  it("accepts Job and CronJob only in batch/v1", () => {
    for (const apiVersion of ["batch/v1beta1", "v1"]) {
      assert.throws(
        () => decodeKubeProtobuf(envelope(apiVersion, "CronJob")),
        new RegExp(`unsupported protobuf kind "${apiVersion}, Kind=CronJob"`),
      );
    }
  });
});
