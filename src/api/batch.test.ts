/** Job condition helpers: which True condition a Job has, and whether it finished. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type JobCondition, type JobStatus, jobFinishedAs, trueCondition } from "./batch.js";

const cond = (type: JobCondition["type"], status: JobCondition["status"]): JobCondition => ({
  type,
  status,
});

describe("jobFinishedAs and trueCondition", () => {
  const cases: {
    name: string;
    status?: JobStatus;
    finished?: "Complete" | "Failed";
    suspended: boolean;
  }[] = [
    { name: "no status", status: undefined, finished: undefined, suspended: false },
    { name: "no conditions", status: {}, finished: undefined, suspended: false },
    {
      name: "Complete True",
      status: { conditions: [cond("Complete", "True")] },
      finished: "Complete",
      suspended: false,
    },
    {
      name: "Failed True",
      status: { conditions: [cond("Failed", "True")] },
      finished: "Failed",
      suspended: false,
    },
    {
      name: "Complete False",
      status: { conditions: [cond("Complete", "False")] },
      finished: undefined,
      suspended: false,
    },
    {
      name: "suspended, then failed: the first finishing condition counts",
      status: {
        conditions: [cond("Suspended", "True"), cond("Failed", "True"), cond("Complete", "True")],
      },
      finished: "Failed",
      suspended: true,
    },
    {
      name: "FailureTarget alone has not finished",
      status: { conditions: [cond("FailureTarget", "True")] },
      finished: undefined,
      suspended: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(jobFinishedAs({ ...(c.status ? { status: c.status } : {}) }), c.finished);
      assert.equal(trueCondition(c.status, "Suspended") !== undefined, c.suspended);
      if (c.finished) assert.equal(trueCondition(c.status, c.finished)?.type, c.finished);
    });
  }
});
