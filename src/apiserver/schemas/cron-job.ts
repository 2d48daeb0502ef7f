/** batch/v1 CronJob, as kube v1.32 publishes it; the job template is Job's. */
import type { Schema } from "../../api/index.js";
import { bool, int32, int64, object, str, time } from "./builders.js";
import { jobTemplateSpec } from "./job.js";
import { kindSchema } from "./kind.js";
import { objectReference } from "./references.js";

const cronJobSpec: Schema = object(
  "CronJobSpec describes how the job execution will look like and when it will actually run.",
  {
    concurrencyPolicy: str(
      'Specifies how to treat concurrent executions of a Job. Valid values are:\n\n- "Allow" (default): allows CronJobs to run concurrently; - "Forbid": forbids concurrent runs, skipping next run if previous run hasn\'t finished yet; - "Replace": cancels currently running job and replaces it with a new one',
    ),
    failedJobsHistoryLimit: int32(
      "The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1.",
    ),
    jobTemplate: {
      ...jobTemplateSpec,
      description: "Specifies the job that will be created when executing a CronJob.",
    },
    schedule: str("The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
    startingDeadlineSeconds: int64(
      "Optional deadline in seconds for starting the job if it misses scheduled time for any reason.  Missed jobs executions will be counted as failed ones.",
    ),
    successfulJobsHistoryLimit: int32(
      "The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3.",
    ),
    suspend: bool(
      "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.",
    ),
    timeZone: str(
      "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process (Hearth: UTC).",
    ),
  },
  ["schedule", "jobTemplate"],
);

const cronJobStatus: Schema = object("CronJobStatus represents the current state of a cron job.", {
  active: {
    type: "array",
    description: "A list of pointers to currently running jobs.",
    items: objectReference(
      "ObjectReference contains enough information to let you inspect or modify the referred object.",
    ),
    "x-kubernetes-list-type": "atomic",
  },
  lastScheduleTime: time("Information when was the last time the job was successfully scheduled."),
  lastSuccessfulTime: time("Information when was the last time the job successfully completed."),
});

export const cronJobSchema: Schema = kindSchema(
  { group: "batch", version: "v1", kind: "CronJob" },
  "CronJob represents the configuration of a single cron job.",
  {
    spec: {
      ...cronJobSpec,
      description:
        "Specification of the desired behavior of a cron job, including the schedule. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
    status: {
      ...cronJobStatus,
      description:
        "Current status of a cron job. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
  },
);
