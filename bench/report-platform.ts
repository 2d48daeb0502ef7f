/**
 * The report of the platform groups — watches (open watches and RSS with
 * Tenants that have the Etcd module) and idleTenants (idle CPU and RSS against
 * the number of Tenants): sanity targets, summary lines and error samples.
 * The components issue sets the goals (at most one WATCH per resource and
 * selector; under 1 % of a core at 1,000 Tenants), reported here as targets,
 * expected to fail before its Manager lands.
 */
import type { ProcessWindow } from "./proc-usage.js";
import type { Target } from "./report.js";
import type { IdleTenantsResult } from "./scenarios/idle-tenants.js";
import type { WatchesResult } from "./scenarios/watches.js";

export interface PlatformResults {
  watches?: WatchesResult;
  idleTenants?: IdleTenantsResult;
}

/** The components issue's goal for 1,000 idle Tenants, % of one core. */
const IDLE_1000_TARGET_PERCENT = 1;

function watchesTargets(w: WatchesResult): Record<string, Target> {
  const ready = w.tenantsReady + w.etcdAppsReady;
  return {
    watchesAllReady: {
      description: `watches: all ${w.tenants} Tenants and their Etcd apps Ready`,
      value: ready,
      pass: ready === 2 * w.tenants && w.create.errors === 0,
      applicable: true,
    },
    oneWatchPerSelector: {
      description: "watches: at most one open WATCH per resource, namespace and selector",
      value: w.converged.watches.maxPerSelector,
      pass: w.converged.watches.maxPerSelector <= 1,
      applicable: true,
    },
  };
}

function idleTargets(t: IdleTenantsResult): Record<string, Target> {
  const notReady = t.levels.reduce((n, l) => n + (l.tenants - l.ready), 0);
  const at1000 = t.levels.find((l) => l.tenants === 1000);
  return {
    idleTenantsAllReady: {
      description: "idle tenants: every Tenant Ready at every level",
      value: notReady,
      pass: notReady === 0,
      applicable: true,
    },
    idle1000UnderOnePercent: {
      description: `idle tenants: CPU with 1,000 Tenants < ${IDLE_1000_TARGET_PERCENT} % of a core`,
      value: at1000?.idle.cpuPercent ?? 0,
      pass: (at1000?.idle.cpuPercent ?? Infinity) < IDLE_1000_TARGET_PERCENT,
      applicable: at1000 !== undefined,
    },
  };
}

export function platformTargets(r: PlatformResults): Record<string, Target> {
  const out: Record<string, Target> = {
    ...(r.watches ? watchesTargets(r.watches) : {}),
    ...(r.idleTenants ? idleTargets(r.idleTenants) : {}),
  };
  if (r.watches || r.idleTenants) {
    const left = (r.watches?.leftoverProcesses ?? 0) + (r.idleTenants?.leftoverProcesses ?? 0);
    out.platformNoLeftoverProcesses = {
      description: "platform groups: no pod process outlives hearth up's SIGTERM",
      value: left,
      pass: left === 0,
      applicable: true,
    };
  }
  return out;
}

function watchesLines(w: WatchesResult): string[] {
  const c = w.converged;
  const e = w.empty;
  const byResource = Object.entries(c.watches.byResource)
    .map(([r, n]) => `${r} ${n}`)
    .join(", ");
  const dups = c.watches.duplicates
    .slice(0, 5)
    .map(
      (d) =>
        `${d.count}× ${d.resource} ns="${d.namespace}" l="${d.labelSelector}" f="${d.fieldSelector}"`,
    );
  return [
    `watches: ${w.tenants} Tenants with Etcd (${w.etcdReplicas} member(s) each), converged in ${w.convergeMs} ms; ${w.tenantsReady} Tenants and ${w.etcdAppsReady} Etcd apps Ready`,
    `    open watches ${c.watches.total} on ${c.watches.series} resource/selector series (no Tenant: ${e.watches.total} on ${e.watches.series}); most on one series: ${c.watches.maxPerSelector}`,
    `    per resource: ${byResource}`,
    ...(dups.length > 0 ? [`    duplicated: ${dups.join("; ")}`] : []),
    `    hearth up RSS median ${c.process.rssMB} MB, max ${c.process.rssMaxMB} MB, CPU ${c.process.cpuPercent} % (no Tenant: ${e.process.rssMB} MB, ${e.process.cpuPercent} %); load ${c.process.loadAverage.join(" → ")}`,
  ];
}

function row(label: string, w: ProcessWindow, watches: string, ready: string, per = ""): string {
  const rss = `${w.rssMB.toFixed(1)} (${w.rssMaxMB.toFixed(1)})`;
  return `  ${label.padEnd(30)}${w.cpuPercent.toFixed(2).padStart(7)}  ${rss.padStart(13)} ${watches.padStart(8)} ${ready.padStart(12)}  ${w.loadAverage[0].toFixed(1).padStart(4)}  ${per}`;
}

function idleLines(t: IdleTenantsResult): string[] {
  const lines = [
    `idle tenants, ${Math.round(t.floor.windowMs / 1000)} s windows      CPU %   RSS MB (max)  watches  Ready in ms  load  per tenant`,
    row("bare node (floor)", t.floor, "", ""),
  ];
  for (const l of t.levels) {
    const per = l.perTenant ? `${l.perTenant.cpuPercent} %, ${l.perTenant.rssKB} KB` : "";
    const label = `${l.tenants} Tenants (${l.ready} Ready)`;
    lines.push(
      row(label, l.idle, `${l.watches.total}`.padStart(8), `${l.readyMs}`.padStart(12), per),
    );
  }
  return lines;
}

export function platformLines(r: PlatformResults): string[] {
  const lines: string[] = [];
  if (r.watches) lines.push("", ...watchesLines(r.watches));
  if (r.idleTenants) lines.push("", ...idleLines(r.idleTenants));
  return lines;
}

export function platformErrors(r: PlatformResults): string[] {
  return [
    ...(r.watches?.create.errorSamples ?? []),
    ...(r.idleTenants?.levels.flatMap((l) => l.create?.errorSamples ?? []) ?? []),
  ];
}
