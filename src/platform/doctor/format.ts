/**
 * `hearth doctor`'s report for a human: one short block per object (what it
 * is, how long it has waited, what holds it and who owns that, why, and the
 * next step), the namespace explanation first when one was asked for.
 */
import type { Finding, Hold } from "./analysis.js";
import type { DoctorReport } from "./diagnose.js";
import type { NamespaceReport } from "./namespace-report.js";

/** `1h2m3s`, `45s`: Go's duration style, whole seconds. */
export function formatSeconds(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  return m > 0 ? `${m}m${s}s` : `${s}s`;
}

function holdLine(h: Hold): string {
  const where = h.field === "spec" ? " (spec.finalizers)" : "";
  if (h.controller === undefined) return `${h.finalizer}${where} — no Hearth controller owns it`;
  const note = h.implemented === false ? ", which Hearth does not run yet" : "";
  return `${h.finalizer}${where} — ${h.controller}${note}`;
}

function title(f: Finding): string {
  const where = f.namespace ? `${f.namespace}/` : "";
  return `${f.kind} ${where}${f.name} (${f.resource}, ${f.apiVersion})`;
}

export function formatFinding(f: Finding, indent = ""): string {
  const lines = [`${indent}${title(f)}`];
  const add = (label: string, text: string) => lines.push(`${indent}  ${label.padEnd(10)} ${text}`);
  if (f.deletionTimestamp)
    add("waiting", `${formatSeconds(f.waitingSeconds)} (since ${f.deletionTimestamp})`);
  else add("waiting", "not deleted yet: the namespace controller deletes it");
  if (f.holds.length === 0) add("held by", "no finalizer");
  for (const h of f.holds) add("held by", holdLine(h));
  if (f.condition) add("condition", f.condition);
  if (f.warning) add("warning", f.warning);
  add("next step", f.nextStep);
  return lines.join("\n");
}

function formatNamespace(r: NamespaceReport): string {
  if (r.phase === "NotFound")
    return `Namespace ${r.name} not found: nothing holds it (it is gone or never was)`;
  if (!r.namespace) return `Namespace ${r.name} is ${r.phase}: it is not being deleted`;
  const out = [`Namespace ${r.name} is ${r.phase} (for ${formatSeconds(r.waitingSeconds)})`];
  for (const c of r.conditions)
    out.push(`  ${c.type}=${c.status} ${[c.reason, c.message].filter(Boolean).join(": ")}`);
  if (r.note) out.push(`  ${r.note}`);
  for (const h of r.namespace.holds) out.push(`  held by    ${holdLine(h)}`);
  out.push(`  next step  ${r.namespace.nextStep}`);
  out.push(
    r.objects.length === 0
      ? "  no object is left inside"
      : `\n${r.objects.length} object${r.objects.length === 1 ? "" : "s"} still inside:`,
  );
  for (const f of r.objects) out.push(formatFinding(f, "  "));
  return out.join("\n");
}

export function formatReport(report: DoctorReport): string {
  const out: string[] = [];
  const threshold = formatSeconds(report.thresholdSeconds);
  if (report.namespace) out.push(formatNamespace(report.namespace), "");
  const n = report.stuck.length;
  const many = `${n} object${n === 1 ? " has" : "s have"} waited for deletion longer than ${threshold}`;
  if (n === 0) out.push(`nothing stuck: no deletion has waited longer than ${threshold}`);
  // With a namespace, its block above already shows every stuck object in it.
  else if (report.namespace) out.push(`stuck: ${many} (above)`);
  else {
    out.push(`${many}:`);
    for (const f of report.stuck) out.push("", formatFinding(f));
  }
  if (report.unlisted.length > 0) {
    out.push("", "could not list (objects of these may be missing above):");
    for (const u of report.unlisted) out.push(`  ${u}`);
  }
  return `${out.join("\n")}\n`;
}
