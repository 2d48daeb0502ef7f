/**
 * The 409 an apply gets when it would change fields other managers own,
 * worded as kube-apiserver words it (apimachinery `internal/conflict.go`):
 * `Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.a`.
 */

import type { StatusCause } from "../../api/index.js";
import { ApiError } from "../../api/index.js";
import { type FieldPath, formatPath } from "./field-path.js";
import type { Manager } from "./managers.js";

export interface FieldConflict {
  /** The manager's identity (`managerId`), which orders managers in the message. */
  id: string;
  manager: Manager;
  path: FieldPath;
}

/** `printManager`: `"name"`, plus the subresource and, for updaters, the apiVersion. */
function printManager(m: Manager): string {
  let out = JSON.stringify(m.manager);
  if (m.subresource) out += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === "Update" ? `${out} using ${m.apiVersion}` : out;
}

export function applyConflictError(conflicts: FieldConflict[]): ApiError {
  const sorted = [...conflicts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const causes: StatusCause[] = sorted.map((c) => ({
    reason: "FieldManagerConflict",
    message: `conflict with ${printManager(c.manager)}`,
    field: formatPath(c.path),
  }));
  let message: string;
  const [only] = sorted;
  if (sorted.length === 1 && only) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(only.manager)}: ${formatPath(only.path)}`;
  } else {
    const lines: string[] = [];
    let previous: string | undefined;
    for (const c of sorted) {
      if (c.id !== previous) lines.push(`conflicts with ${printManager(c.manager)}:`);
      previous = c.id;
      lines.push(`- ${formatPath(c.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join("\n")}`;
  }
  return new ApiError(409, "Conflict", message, { causes });
}
