/**
 * The columns `kubectl get` prints for batch/v1, computed as kube's printers
 * (printJob, printCronJob) do: jobs NAME STATUS COMPLETIONS DURATION AGE,
 * cronjobs NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, both with
 * CONTAINERS IMAGES SELECTOR in wide output.
 */

import type { KubeObject } from "../../api/index.js";
import {
  type CronJob,
  type Job,
  type LabelSelector,
  type PodTemplateSpec,
  trueCondition,
} from "../../api/index.js";
import type { TableColumn } from "./resource-type.js";
import { age, ageColumn, humanDuration } from "./table.js";

/** What the wide columns read: a workload spec's selector and pod template. */
export interface TemplateSpec {
  selector?: LabelSelector;
  template?: PodTemplateSpec;
}

const containersOf = (spec: TemplateSpec | undefined) =>
  (spec?.template?.spec?.containers as { name?: string; image?: string }[] | undefined) ?? [];

/** metav1.FormatLabelSelector. */
export function formatSelector(sel: LabelSelector | undefined): string {
  if (!sel) return "<none>";
  const parts = Object.entries(sel.matchLabels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    const op = { In: "in", NotIn: "notin" }[e.operator];
    if (op) parts.push(`${e.key} ${op} (${(e.values ?? []).join(",")})`);
    else parts.push(e.operator === "Exists" ? e.key : `!${e.key}`);
  }
  return parts.length === 0 ? "<none>" : parts.join(",");
}

/** CONTAINERS IMAGES SELECTOR, printed by `-o wide` for every workload kind. */
export function wideColumns(spec: (o: KubeObject) => TemplateSpec | undefined): TableColumn[] {
  return [
    {
      name: "Containers",
      type: "string",
      priority: 1,
      description: "Names of each container in the template.",
      cell: (o) =>
        containersOf(spec(o))
          .map((c) => c.name ?? "")
          .join(","),
    },
    {
      name: "Images",
      type: "string",
      priority: 1,
      description: "Images referenced by each container in the template.",
      cell: (o) =>
        containersOf(spec(o))
          .map((c) => c.image ?? "")
          .join(","),
    },
    {
      name: "Selector",
      type: "string",
      priority: 1,
      description: "A label query over pods that should match the pod count.",
      cell: (o) => formatSelector(spec(o)?.selector),
    },
  ];
}

/** printJob's STATUS. */
function jobStatusCell(job: Job): string {
  const s = job.status;
  if (trueCondition(s, "Complete")) return "Complete";
  if (trueCondition(s, "Failed")) return "Failed";
  if (job.metadata.deletionTimestamp) return "Terminating";
  if (trueCondition(s, "Suspended")) return "Suspended";
  if (trueCondition(s, "FailureTarget")) return "FailureTarget";
  if (trueCondition(s, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  return "Running";
}

function completionsCell(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function durationCell(job: Job): string {
  const start = job.status?.startTime;
  if (!start) return "";
  const end = job.status?.completionTime;
  return humanDuration((end ? Date.parse(end) : Date.now()) - Date.parse(start));
}

export const JOB_COLUMNS: TableColumn[] = [
  {
    name: "Status",
    type: "string",
    description: "Status of the job.",
    cell: (o) => jobStatusCell(o as Job),
  },
  {
    name: "Completions",
    type: "string",
    description: "The number of pods which reached phase Succeeded.",
    cell: (o) => completionsCell(o as Job),
  },
  {
    name: "Duration",
    type: "string",
    description: "Time required to complete the job.",
    cell: (o) => durationCell(o as Job),
  },
  ageColumn,
  ...wideColumns((o) => (o as Job).spec),
];

export const CRONJOB_COLUMNS: TableColumn[] = [
  {
    name: "Schedule",
    type: "string",
    description: "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.",
    cell: (o) => (o as CronJob).spec.schedule,
  },
  {
    name: "Timezone",
    type: "string",
    description: "The time zone name for the given schedule.",
    cell: (o) => (o as CronJob).spec.timeZone ?? "<none>",
  },
  {
    name: "Suspend",
    type: "boolean",
    description: "This flag tells the controller to suspend subsequent executions.",
    cell: (o) => {
      const s = (o as CronJob).spec.suspend;
      return s === undefined ? "<unset>" : s ? "True" : "False";
    },
  },
  {
    name: "Active",
    type: "integer",
    description: "A list of pointers to currently running jobs.",
    cell: (o) => ((o as CronJob).status?.active ?? []).length,
  },
  {
    name: "Last Schedule",
    type: "string",
    description: "Information when was the last time the job was successfully scheduled.",
    cell: (o) => {
      const t = (o as CronJob).status?.lastScheduleTime;
      return t ? age(t) : "<none>";
    },
  },
  ageColumn,
  ...wideColumns((o) => (o as CronJob).spec.jobTemplate?.spec),
];
