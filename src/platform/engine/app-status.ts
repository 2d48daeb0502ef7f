/**
 * The conditions an installed app reports: `Released` (its children applied,
 * and which pruned ones are still going), `WorkloadsReady` (from the app's
 * WorkloadMonitors when it renders any, else the module's report) and `Ready`
 * (always the module's report); an earlier `Stalled` no longer holds.
 */
import { type Condition, setCondition } from "../../runtime/index.js";
import { describeEntry } from "./inventory.js";
import type { App, InventoryEntry, WorkloadReport } from "./module.js";
import type { WorkloadsCondition } from "./workloads-ready.js";

/** The app's well-formed conditions (see `readInventory` for why a status may hold others). */
export function conditionsOf(app: App): Condition[] {
  const conditions: unknown = app.status?.conditions;
  if (!Array.isArray(conditions)) return [];
  return conditions.filter(
    (c: unknown): c is Condition =>
      typeof c === "object" && c !== null && typeof (c as Condition).type === "string",
  );
}

export interface Installed {
  kind: string;
  applied: number;
  /** Pruned children still present. */
  pruning: InventoryEntry[];
  report: WorkloadReport;
  /** The monitors' aggregate (`workloadsReady`), when the app renders monitors. */
  workloads?: WorkloadsCondition;
}

export function installedConditions(app: App, installed: Installed): Condition[] {
  const { kind, applied, pruning, report, workloads } = installed;
  const generation = app.metadata.generation;
  let conditions = conditionsOf(app);
  const cond = (c: Omit<Condition, "lastTransitionTime" | "observedGeneration">) => {
    conditions = setCondition(conditions, {
      ...c,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    });
  };
  cond({
    type: "Released",
    status: "True",
    reason: "Applied",
    message:
      `${applied} objects applied` +
      (pruning.length > 0
        ? `; waiting for ${pruning.length} pruned objects to be deleted: ${pruning.slice(0, 5).map(describeEntry).join(", ")}`
        : ""),
  });
  cond(
    workloads
      ? { type: "WorkloadsReady", ...workloads }
      : {
          type: "WorkloadsReady",
          status: report.ready ? "True" : "False",
          reason: report.reason,
          message: report.message,
        },
  );
  cond({
    type: "Ready",
    status: report.ready ? "True" : "False",
    reason: report.ready ? "Ready" : report.reason,
    message: report.ready ? `${kind} is ready` : report.message,
  });
  return conditions.filter((c) => c.type !== "Stalled");
}
