/**
 * Open watches of a running `hearth up`, read from its `/metrics`: Hearth's
 * `hearth_apiserver_watches` (one series per group, resource, namespace and
 * selectors) summed per resource, the largest count on any one series (the
 * components issue asks for at most one WATCH per resource and selector), the
 * series above one, and kube's `apiserver_longrunning_requests` summed by verb.
 */
import type { HttpClient } from "../src/client/index.js";

export interface WatchSeries {
  /** `resource.group`, or the resource alone for the core group. */
  resource: string;
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  count: number;
}

export interface WatchCensus {
  /** Open watches in all. */
  total: number;
  /** Open watches per resource, every namespace and selector together. */
  byResource: Record<string, number>;
  /** The largest number of open watches on one resource, namespace and selector pair. */
  maxPerSelector: number;
  /** Series with more than one open watch, largest first. */
  duplicates: WatchSeries[];
  /** How many series (distinct resource, namespace and selectors). */
  series: number;
  /** kube's apiserver_longrunning_requests summed by verb (WATCH, CONNECT). */
  longRunningByVerb: Record<string, number>;
}

const SAMPLE = /^([a-z_]+)\{(.*)\} (\S+)$/;
const LABEL = /([a-z_]+)="((?:[^"\\]|\\.)*)"/g;

function labelsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(LABEL)) out[m[1]!] = m[2]!.replace(/\\(.)/g, "$1");
  return out;
}

/** The census of one scrape of the Prometheus text `text`. */
export function watchCensus(text: string): WatchCensus {
  const series: WatchSeries[] = [];
  const longRunningByVerb: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const [, name, labelText, value] = m;
    const l = labelsOf(labelText!);
    if (name === "hearth_apiserver_watches") {
      series.push({
        resource: l.group ? `${l.resource}.${l.group}` : (l.resource ?? ""),
        namespace: l.namespace ?? "",
        labelSelector: l.label_selector ?? "",
        fieldSelector: l.field_selector ?? "",
        count: Number(value),
      });
    } else if (name === "apiserver_longrunning_requests" && l.verb) {
      longRunningByVerb[l.verb] = (longRunningByVerb[l.verb] ?? 0) + Number(value);
    }
  }
  const byResource: Record<string, number> = {};
  for (const s of series) byResource[s.resource] = (byResource[s.resource] ?? 0) + s.count;
  const sorted = Object.fromEntries(
    Object.entries(byResource).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return {
    total: series.reduce((n, s) => n + s.count, 0),
    byResource: sorted,
    maxPerSelector: Math.max(0, ...series.map((s) => s.count)),
    duplicates: series.filter((s) => s.count > 1).sort((a, b) => b.count - a.count),
    series: series.length,
    longRunningByVerb,
  };
}

export async function scrapeWatches(client: HttpClient): Promise<WatchCensus> {
  const res = await client.request("GET", "/metrics");
  if (res.status !== 200) throw new Error(`GET /metrics: HTTP ${res.status}`);
  return watchCensus(res.body);
}
