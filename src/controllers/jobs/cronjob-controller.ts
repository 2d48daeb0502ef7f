/**
 * The CronJob controller (kube's cronjob_controllerv2): at each scheduled time
 * it creates the Job `<cronjob>-<minutes since epoch>` from the template —
 * after a downtime only the most recent missed time, and only within
 * `startingDeadlineSeconds` — honouring `concurrencyPolicy` (Allow, Forbid:
 * skip while one runs, Replace: delete the running ones first), keeps
 * `status.active`, `lastScheduleTime` and `lastSuccessfulTime` true, deletes
 * finished Jobs beyond the history limits, and asks to be looked at again when
 * the next time comes (`requeueAfter`; it never sleeps). The clock is injected.
 */

import {
  type CronJob,
  type CronJobStatus,
  CronSyntaxError,
  hasCode,
  type Job,
  jobFinishedAs,
  parseSchedule,
  rfc3339,
  timeZoneError,
} from "../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  getOptional,
  ignoreNotFound,
  refOf,
} from "../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../runtime/index.js";
import { jobFromTemplate, jobName, jobReference, jobsBeyondHistory } from "./cronjob-jobs.js";

import { controllerRef } from "./job-pods.js";
import { statusChanged } from "./job-status.js";
import { mostRecentScheduleTime, nextScheduleDelay } from "./schedule-times.js";

/** Go's time.RFC1123Z in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`. */
function rfc1123z(ms: number): string {
  return new Date(ms).toUTCString().replace("GMT", "+0000");
}

export class CronJobReconciler implements TypedReconciler {
  private readonly now: () => number;

  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
    opts: { now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  async reconcile(req: Request): Promise<Result> {
    const { name } = req;
    const namespace = req.namespace ?? "";
    const cj = await getOptional<CronJob>(this.client, {
      apiVersion: "batch/v1",
      kind: "CronJob",
      name,
      namespace,
    });
    if (!cj) return DONE;
    const all = await this.client.list<Job>({ apiVersion: "batch/v1", kind: "Job" }, { namespace });
    let jobs = all.items.filter((j) => controllerRef(j)?.uid === cj.metadata.uid);
    const status: CronJobStatus = structuredClone(cj.status ?? {});
    const work = { ...cj, status };
    try {
      jobs = await this.cleanupHistory(work, jobs);
      return await this.sync(work, jobs);
    } finally {
      if (statusChanged(cj.status, status)) await this.client.updateStatus(work);
    }
  }

  private async deleteJob(cj: CronJob, job: Job): Promise<boolean> {
    try {
      await ignoreNotFound(this.client.delete(refOf(job), { propagationPolicy: "Background" }));
    } catch (e) {
      this.recorder.event(cj, "Warning", "FailedDelete", `Deleted job: ${errorText(e)}`);
      return false;
    }
    cj.status!.active = (cj.status!.active ?? []).filter((r) => r.uid !== job.metadata.uid);
    this.recorder.event(cj, "Normal", "SuccessfulDelete", `Deleted job ${job.metadata.name}`);
    return true;
  }

  /** Deletes finished Jobs beyond the history limits; returns the Jobs left. */
  private async cleanupHistory(cj: CronJob, jobs: Job[]): Promise<Job[]> {
    const gone = new Set<string>();
    for (const job of jobsBeyondHistory(cj, jobs))
      if (await this.deleteJob(cj, job)) gone.add(job.metadata.uid!);
    return jobs.filter((j) => !gone.has(j.metadata.uid!));
  }

  /** Brings `status` in line with the Jobs, then starts the due Job if any. */
  private async sync(cj: CronJob, jobs: Job[]): Promise<Result> {
    const status = cj.status!;
    const now = this.now();
    const inActive = (uid: string | undefined) => (status.active ?? []).some((r) => r.uid === uid);
    for (const job of jobs) {
      const finished = jobFinishedAs(job);
      if (!inActive(job.metadata.uid) && !finished)
        this.recorder.event(
          cj,
          "Warning",
          "UnexpectedJob",
          `Saw a job that the controller did not create or forgot: ${job.metadata.name}`,
        );
      else if (inActive(job.metadata.uid) && finished) {
        status.active = status.active!.filter((r) => r.uid !== job.metadata.uid);
        this.recorder.event(
          cj,
          "Normal",
          "SawCompletedJob",
          `Saw completed job: ${job.metadata.name}, status: ${finished}`,
        );
      }
      const completed = finished === "Complete" ? job.status?.completionTime : undefined;
      if (
        completed &&
        (!status.lastSuccessfulTime ||
          Date.parse(completed) > Date.parse(status.lastSuccessfulTime))
      )
        status.lastSuccessfulTime = completed;
    }
    for (const ref of [...(status.active ?? [])]) {
      if (jobs.some((j) => j.metadata.uid === ref.uid)) continue;
      const job = await getOptional<Job>(this.client, {
        apiVersion: "batch/v1",
        kind: "Job",
        name: ref.name!,
        namespace: ref.namespace,
      });
      if (job && job.metadata.uid === ref.uid) continue;
      this.recorder.event(cj, "Normal", "MissingJob", `Active job went missing: ${ref.name}`);
      status.active = status.active!.filter((r) => r.uid !== ref.uid);
    }
    if (status.active?.length === 0) delete status.active;
    if (cj.metadata.deletionTimestamp) return DONE;

    const zone = cj.spec.timeZone;
    const badZone = zone === undefined ? undefined : timeZoneError(zone);
    if (badZone) {
      this.recorder.event(
        cj,
        "Warning",
        "UnknownTimeZone",
        `invalid timeZone: ${JSON.stringify(zone)}: ${badZone}`,
      );
      return DONE;
    }
    if (cj.spec.suspend === true) return DONE;
    if (cj.spec.schedule.includes("TZ"))
      this.recorder.event(
        cj,
        "Warning",
        "UnsupportedSchedule",
        `CRON_TZ or TZ used in schedule ${JSON.stringify(cj.spec.schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`,
      );
    let schedule: ReturnType<typeof parseSchedule>;
    try {
      schedule = parseSchedule(cj.spec.schedule, zone ?? "UTC");
    } catch (e) {
      if (!(e instanceof CronSyntaxError)) throw e;
      this.recorder.event(
        cj,
        "Warning",
        "UnparseableSchedule",
        `unparseable schedule: ${JSON.stringify(cj.spec.schedule)} : ${e.message}`,
      );
      return DONE;
    }
    const again = (): Result => {
      const delay = nextScheduleDelay(cj, now, schedule);
      return delay === undefined ? DONE : { requeueAfter: Math.max(delay, 1) };
    };
    const due = mostRecentScheduleTime(cj, now, schedule, true);
    if (due.error) {
      this.recorder.event(
        cj,
        "Warning",
        "InvalidSchedule",
        `invalid schedule: ${cj.spec.schedule} : ${due.error}`,
      );
      return DONE;
    }
    const scheduled = due.mostRecent;
    if (scheduled === undefined || scheduled > now) return again();
    if (due.missed === "many")
      this.recorder.event(
        cj,
        "Warning",
        "TooManyMissedTimes",
        "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew",
      );
    const deadline = cj.spec.startingDeadlineSeconds;
    if (deadline !== undefined && scheduled + deadline * 1000 < now) {
      this.recorder.event(
        cj,
        "Warning",
        "MissSchedule",
        `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`,
      );
      return again();
    }
    const name = jobName(cj, scheduled);
    if (
      (status.active ?? []).some((r) => r.name === name) ||
      status.lastScheduleTime === rfc3339(scheduled)
    )
      return again();
    if (cj.spec.concurrencyPolicy === "Forbid" && (status.active ?? []).length > 0) {
      this.recorder.event(
        cj,
        "Normal",
        "JobAlreadyActive",
        "Not starting job because prior execution is running and concurrency policy is Forbid",
      );
      return again();
    }
    if (cj.spec.concurrencyPolicy === "Replace") {
      for (const ref of [...(status.active ?? [])]) {
        const job = await this.client
          .get<Job>({
            apiVersion: "batch/v1",
            kind: "Job",
            name: ref.name!,
            namespace: ref.namespace,
          })
          .catch((e: unknown) => {
            this.recorder.event(cj, "Warning", "FailedGet", `Get job: ${errorText(e)}`);
            throw e;
          });
        if (!(await this.deleteJob(cj, job)))
          throw new Error(`could not replace job ${ref.namespace}/${ref.name}`);
      }
    }
    const created = await this.createJob(cj, scheduled);
    if (!created) return DONE;
    status.active = [...(status.active ?? []), jobReference(created)];
    status.lastScheduleTime = rfc3339(scheduled);
    return again();
  }

  /** Creates the Job for `scheduled`; an existing one of ours is adopted into `active`. */
  private async createJob(cj: CronJob, scheduled: number): Promise<Job | undefined> {
    const want = jobFromTemplate(cj, scheduled);
    try {
      const job = await this.client.create(want);
      this.recorder.event(cj, "Normal", "SuccessfulCreate", `Created job ${job.metadata.name}`);
      return job;
    } catch (e) {
      if (!hasCode(e, 409)) {
        this.recorder.event(cj, "Warning", "FailedCreate", `Error creating job: ${errorText(e)}`);
        throw e;
      }
    }
    const job = await this.client.get<Job>({
      apiVersion: "batch/v1",
      kind: "Job",
      name: want.metadata.name!,
      namespace: want.metadata.namespace,
    });
    if (controllerRef(job)?.uid !== cj.metadata.uid) return undefined;
    if ((cj.status?.active ?? []).some((r) => r.uid === job.metadata.uid)) return undefined;
    return job;
  }
}
