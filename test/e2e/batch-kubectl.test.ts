/**
 * Jobs and CronJobs with the real kubectl against a real `hearth up`, whose
 * node agent runs the pods as processes: a Job running `sh -c "exit 0"`
 * completes, one exiting 3 fails past its backoffLimit, a CronJob on
 * `@every 5s` runs a Job to completion, a 53-character CronJob name is refused
 * with kube's message, and `kubectl get` prints kube's columns.
 * (`kubectl create job|cronjob` are covered in kubectl-create.test.ts.)
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { podSkipReason } from "../support/test-network.js";

const job = (name: string, script: string, extra = "") => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
spec:${extra}
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
        command: ["sh", "-c", "${script}"]
`;

const cronJob = (name: string, schedule: string) => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: ${name}
spec:
  schedule: "${schedule}"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: main
            image: busybox
            command: ["sh", "-c", "exit 0"]
`;

describe("Jobs and CronJobs with kubectl and hearth up", { skip: podSkipReason() }, () => {
  let h: Hearth;
  before(async () => {
    h = await startHearth();
  });
  after(async () => {
    await h?.cleanup();
  });

  it("runs a Job whose pod exits 0 to completion", async () => {
    await h.kubectlOk(["apply", "-f", "-"], {
      input: job("hello", "echo hello from a job; exit 0"),
    });
    await h.kubectlOk(["wait", "--for=condition=complete", "job/hello", "--timeout=60s"], {
      timeoutMs: 70_000,
    });
    const table = await h.kubectlOk(["get", "jobs"]);
    assert.match(table, /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/m);
    assert.match(table, /^hello\s+Complete\s+1\/1\s+\d+s\s+\d+s$/m);
    assert.match(await h.kubectlOk(["logs", "job/hello"]), /hello from a job/);
    const pods = await h.kubectlOk([
      "get",
      "pods",
      "-l",
      "job-name=hello",
      "-o",
      "jsonpath={.items[*].metadata.finalizers}",
    ]);
    assert.doesNotMatch(pods, /job-tracking/, "the tracking finalizer is released");
  });

  it("fails a Job whose pods exit 3 past its backoffLimit", async () => {
    await h.kubectlOk(["apply", "-f", "-"], {
      input: job("broken", "exit 3", "\n  backoffLimit: 0"),
    });
    await h.kubectlOk(["wait", "--for=condition=failed", "job/broken", "--timeout=60s"], {
      timeoutMs: 70_000,
    });
    const out = await h.kubectlOk([
      "get",
      "job",
      "broken",
      "-o",
      'jsonpath={.status.failed} {.status.conditions[?(@.type=="Failed")].reason}',
    ]);
    assert.equal(out, "1 BackoffLimitExceeded");
  });

  it("runs a CronJob's Job to completion", async () => {
    await h.kubectlOk(["apply", "-f", "-"], { input: cronJob("ticker", "@every 5s") });
    const name = await waitFor(
      "a Job of the CronJob",
      async () => {
        const out = await h.kubectlOk(["get", "jobs", "-o", "jsonpath={.items[*].metadata.name}"]);
        return out.split(" ").find((n) => n.startsWith("ticker-"));
      },
      30_000,
    );
    await h.kubectlOk(["wait", "--for=condition=complete", `job/${name}`, "--timeout=60s"], {
      timeoutMs: 70_000,
    });
    await waitFor(
      "lastSuccessfulTime",
      async () =>
        (await h.kubectlOk([
          "get",
          "cronjob",
          "ticker",
          "-o",
          "jsonpath={.status.lastSuccessfulTime}",
        ])) !== "",
    );
    const table = await h.kubectlOk(["get", "cronjobs"]);
    assert.match(table, /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/m);
    assert.match(table, /^ticker\s+@every 5s\s+<none>\s+False\s+[01]\s+\d+s\s+\d+s$/m);
    await h.kubectlOk(["patch", "cronjob", "ticker", "-p", '{"spec":{"suspend":true}}']);
  });

  it("refuses a 53-character CronJob name with kube's message", async () => {
    const name = "a".repeat(53);
    const r = await h.kubectl(["apply", "-f", "-"], { input: cronJob(name, "* * * * *") });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      new RegExp(
        `The CronJob "${name}" is invalid: metadata.name: Invalid value: "${name}": must be no more than 52 characters`,
      ),
    );
    const bad = await h.kubectl(["apply", "-f", "-"], {
      input: cronJob("bad-schedule", "every day"),
    });
    assert.match(
      bad.stderr,
      /spec.schedule: Invalid value: "every day": expected exactly 5 fields, found 2: \[every day\]/,
    );
  });
});
