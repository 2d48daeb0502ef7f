/**
 * `kubectl get jobs` and `kubectl get cronjobs` cells as kube's printJob and
 * printCronJob compute them: STATUS from the conditions in kube's order,
 * COMPLETIONS, DURATION, the cron columns, and the wide CONTAINERS, IMAGES and
 * SELECTOR (metav1.FormatLabelSelector).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { CRONJOB_COLUMNS, JOB_COLUMNS } from "./batch-columns.js";
import type { TableColumn } from "./resource-type.js";

const cellOf = (columns: TableColumn[]) => (name: string, o: KubeObject) => {
  const c = columns.find((x) => x.name === name);
  assert.ok(c, `no column ${name}`);
  return c.cell(o);
};
const jobCell = cellOf(JOB_COLUMNS);
const cronCell = cellOf(CRONJOB_COLUMNS);

const template = {
  spec: {
    containers: [
      { name: "main", image: "busybox:1.36" },
      { name: "side", image: "nginx" },
    ],
  },
};

function job(spec: object = {}, status: object = {}, deleting = false): KubeObject {
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: "j", ...(deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}) },
    spec: { template, ...spec },
    status,
  } as KubeObject;
}
const conditions = (...types: string[]) => ({
  conditions: types.map((type) => ({ type, status: "True" })),
});

describe("job STATUS", () => {
  const cases: [string, KubeObject, string][] = [
    ["no conditions", job(), "Running"],
    ["Complete", job({}, conditions("Complete")), "Complete"],
    ["Failed", job({}, conditions("Failed")), "Failed"],
    ["Complete before Terminating", job({}, conditions("Complete"), true), "Complete"],
    ["Terminating before Suspended", job({}, conditions("Suspended"), true), "Terminating"],
    ["Suspended", job({}, conditions("Suspended")), "Suspended"],
    ["FailureTarget", job({}, conditions("FailureTarget")), "FailureTarget"],
    ["SuccessCriteriaMet", job({}, conditions("SuccessCriteriaMet")), "SuccessCriteriaMet"],
    ["Failed wins over FailureTarget", job({}, conditions("FailureTarget", "Failed")), "Failed"],
    [
      "a False condition does not count",
      job({}, { conditions: [{ type: "Complete", status: "False" }] }),
      "Running",
    ],
  ];
  for (const [why, o, want] of cases) it(why, () => assert.equal(jobCell("Status", o), want));
});

describe("job COMPLETIONS and DURATION", () => {
  it("counts succeeded pods against completions, or parallelism when completions is unset", () => {
    assert.equal(jobCell("Completions", job({ completions: 3 }, { succeeded: 2 })), "2/3");
    assert.equal(jobCell("Completions", job({ completions: 3 })), "0/3");
    assert.equal(jobCell("Completions", job({ parallelism: 4 }, { succeeded: 1 })), "1/1 of 4");
    assert.equal(jobCell("Completions", job({ parallelism: 1 })), "0/1");
    assert.equal(jobCell("Completions", job()), "0/1");
  });

  it("is empty before the start, the run time when done, and the time so far while running", () => {
    assert.equal(jobCell("Duration", job()), "");
    const done = job(
      {},
      { startTime: "2026-01-01T00:00:00Z", completionTime: "2026-01-01T00:01:30Z" },
    );
    assert.equal(jobCell("Duration", done), "90s");
    const started = new Date(Date.now() - 4 * 3600_000).toISOString();
    assert.equal(jobCell("Duration", job({}, { startTime: started })), "4h");
  });
});

describe("batch wide columns", () => {
  it("list the template's containers and images, comma-separated", () => {
    assert.equal(jobCell("Containers", job()), "main,side");
    assert.equal(jobCell("Images", job()), "busybox:1.36,nginx");
    const bare = { ...job(), spec: {} } as KubeObject;
    assert.equal(jobCell("Containers", bare), "");
  });

  const selectorCases: [string, object | undefined, string][] = [
    ["no selector", undefined, "<none>"],
    ["an empty selector", {}, "<none>"],
    ["labels sorted by key", { matchLabels: { b: "2", a: "1" } }, "a=1,b=2"],
    [
      "every expression operator",
      {
        matchLabels: { app: "x" },
        matchExpressions: [
          { key: "tier", operator: "In", values: ["web", "db"] },
          { key: "env", operator: "NotIn", values: ["dev"] },
          { key: "has", operator: "Exists" },
          { key: "lacks", operator: "DoesNotExist" },
        ],
      },
      "app=x,tier in (web,db),env notin (dev),has,!lacks",
    ],
  ];
  for (const [why, selector, want] of selectorCases)
    it(`format the selector: ${why}`, () =>
      assert.equal(jobCell("Selector", job(selector ? { selector } : {})), want));

  it("are wide-only (priority 1) on both kinds", () => {
    for (const columns of [JOB_COLUMNS, CRONJOB_COLUMNS])
      assert.deepEqual(
        columns.filter((c) => c.priority === 1).map((c) => c.name),
        ["Containers", "Images", "Selector"],
      );
  });
});

describe("cronjob columns", () => {
  const cron = (spec: object, status: object = {}): KubeObject =>
    ({
      apiVersion: "batch/v1",
      kind: "CronJob",
      metadata: { name: "c" },
      spec: {
        schedule: "*/5 * * * *",
        jobTemplate: { spec: { template, selector: { matchLabels: { a: "b" } } } },
        ...spec,
      },
      status,
    }) as KubeObject;

  it("show the schedule, the time zone or <none>, and suspend as True, False or <unset>", () => {
    assert.equal(cronCell("Schedule", cron({})), "*/5 * * * *");
    assert.equal(cronCell("Timezone", cron({})), "<none>");
    assert.equal(cronCell("Timezone", cron({ timeZone: "Europe/Berlin" })), "Europe/Berlin");
    assert.equal(cronCell("Suspend", cron({})), "<unset>");
    assert.equal(cronCell("Suspend", cron({ suspend: true })), "True");
    assert.equal(cronCell("Suspend", cron({ suspend: false })), "False");
  });

  it("count active jobs and show the last schedule's age or <none>", () => {
    assert.equal(cronCell("Active", cron({})), 0);
    assert.equal(cronCell("Active", cron({}, { active: [{ name: "a" }, { name: "b" }] })), 2);
    assert.equal(cronCell("Last Schedule", cron({})), "<none>");
    const t = new Date(Date.now() - 10 * 60_000).toISOString();
    assert.equal(cronCell("Last Schedule", cron({}, { lastScheduleTime: t })), "10m");
  });

  it("take the wide columns from the job template", () => {
    assert.equal(cronCell("Images", cron({})), "busybox:1.36,nginx");
    assert.equal(cronCell("Selector", cron({})), "a=b");
    assert.equal(cronCell("Containers", cron({ jobTemplate: undefined })), "");
  });
});
