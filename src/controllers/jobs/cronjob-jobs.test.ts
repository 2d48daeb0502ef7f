import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CronJob, Job } from "../../api/index.js";
import { jobFromTemplate, jobName, jobsBeyondHistory, rfc3339In } from "./cronjob-jobs.js";

const cj: CronJob = {
  apiVersion: "batch/v1",
  kind: "CronJob",
  metadata: { name: "backup", namespace: "ops", uid: "u-1" },
  spec: {
    schedule: "0 3 * * *",
    timeZone: "Europe/Berlin",
    successfulJobsHistoryLimit: 2,
    failedJobsHistoryLimit: 0,
    jobTemplate: {
      metadata: { labels: { app: "backup" }, annotations: { note: "x" } },
      spec: { backoffLimit: 2, template: { spec: { restartPolicy: "OnFailure" } } },
    },
  },
};

function job(name: string, finished: "Complete" | "Failed" | undefined, startTime?: string): Job {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name },
    spec: { template: {} },
    status: {
      ...(startTime ? { startTime } : {}),
      ...(finished ? { conditions: [{ type: finished, status: "True" as const }] } : {}),
    },
  };
}

describe("CronJob jobs", () => {
  it("names a Job by the scheduled minute since the epoch", () => {
    assert.equal(jobName(cj, Date.parse("2024-05-01T01:00:00Z")), "backup-28575420");
  });

  it("makes the Job from the template, owned by the CronJob", () => {
    const scheduled = Date.parse("2024-05-01T01:00:00Z");
    const j = jobFromTemplate(cj, scheduled);
    assert.equal(j.metadata.name, "backup-28575420");
    assert.equal(j.metadata.namespace, "ops");
    assert.deepEqual(j.metadata.labels, { app: "backup" });
    assert.deepEqual(j.metadata.annotations, {
      note: "x",
      "batch.kubernetes.io/cronjob-scheduled-timestamp": "2024-05-01T03:00:00+02:00",
    });
    assert.deepEqual(j.metadata.ownerReferences, [
      {
        apiVersion: "batch/v1",
        kind: "CronJob",
        name: "backup",
        uid: "u-1",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.equal(j.spec.backoffLimit, 2);
    assert.notEqual(j.spec, cj.spec.jobTemplate.spec, "a copy");
  });

  it("formats times in the zone as Go's RFC 3339", () => {
    const t = Date.parse("2024-01-15T12:34:56Z");
    assert.equal(rfc3339In(t, "UTC"), "2024-01-15T12:34:56Z");
    assert.equal(rfc3339In(t, "America/New_York"), "2024-01-15T07:34:56-05:00");
    assert.equal(rfc3339In(t, "Asia/Kolkata"), "2024-01-15T18:04:56+05:30");
  });

  it("picks the oldest finished Jobs beyond the history limits", () => {
    const jobs = [
      job("c3", "Complete", "2024-05-03T00:00:00Z"),
      job("c1", "Complete", "2024-05-01T00:00:00Z"),
      job("c2", "Complete", "2024-05-02T00:00:00Z"),
      job("c0", "Complete"),
      job("f1", "Failed", "2024-05-01T00:00:00Z"),
      job("running", undefined, "2024-04-01T00:00:00Z"),
    ];
    const names = jobsBeyondHistory(cj, jobs).map((j) => j.metadata.name);
    // Unstarted Jobs sort last, so c0 is kept with the newest.
    assert.deepEqual(names, ["c1", "c2", "f1"]);
    const unlimited = {
      ...cj,
      spec: {
        ...cj.spec,
        successfulJobsHistoryLimit: undefined,
        failedJobsHistoryLimit: undefined,
      },
    };
    assert.deepEqual(jobsBeyondHistory(unlimited, jobs), []);
  });
});
