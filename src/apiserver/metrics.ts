/**
 * The apiserver's own Prometheus metrics and the `/metrics` endpoint, which
 * serves prom-client's process-wide registry (so controllers running in the same
 * process are included).
 *
 * A request costs a few Map lookups and an addition: each series of the
 * counter is found by its label values and its count added to prom-client when
 * that collects (before every read of the registry), in the order the series
 * came; each keeps its histogram child.
 */
import type { ServerResponse } from "node:http";
import { Counter, Histogram, register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";

type CountLabel = "verb" | "group" | "version" | "resource" | "subresource" | "code";

/** One series of apiserver_request_total, with the requests not yet added to it. */
interface Series {
  labels: Record<CountLabel, string>;
  /** False past the bound: then each request is added to the counter at once. */
  kept: boolean;
  pending: number;
  /** Its apiserver_request_duration_seconds series; undefined for watches. */
  duration: { observe(seconds: number): void } | undefined;
}

/**
 * Series seen so far, by verb, group, version, resource, subresource and code:
 * one Map per label, so a lookup builds no key. `created` holds them in order.
 */
type Table = Map<string | number, Table | Series>;
const series: Table = new Map();
const created: Series[] = [];
/** Bound on the Maps and series kept (far above what served resources make); past it, requests count directly. */
const MAX_ENTRIES = 8192;
let entries = 0;

const requestTotal: Counter<CountLabel> = new Counter({
  name: "apiserver_request_total",
  help: "Counter of apiserver requests broken out for each verb, group, version, resource and HTTP response code.",
  labelNames: ["verb", "group", "version", "resource", "subresource", "code"] as const,
  collect() {
    for (const s of created) {
      if (s.pending === 0) continue;
      requestTotal.inc(s.labels, s.pending);
      s.pending = 0;
    }
  },
});

const requestDuration = new Histogram({
  name: "apiserver_request_duration_seconds",
  help: "Response latency distribution in seconds for each verb, group, version and resource (watches excluded).",
  labelNames: ["verb", "group", "version", "resource"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 5, 10, 30, 60],
});

/** Counts the request when its response finishes. */
export function observeRequest(
  info: RequestInfo | undefined,
  res: ServerResponse,
  started: number,
): void {
  // "finish" is emitted once per response; `on` spares the `once` wrapper.
  res.on("finish", () => record(info, res.statusCode, started));
}

function record(info: RequestInfo | undefined, code: number, started: number): void {
  const s = seriesOf(
    info?.verb ?? "nonresource",
    info?.group ?? "",
    info?.version ?? "",
    info?.resource ?? "",
    info?.subresource ?? "",
    code,
  );
  if (s.kept) s.pending++;
  else requestTotal.inc(s.labels);
  s.duration?.observe((performance.now() - started) / 1000);
}

function seriesOf(
  verb: string,
  group: string,
  version: string,
  resource: string,
  subresource: string,
  code: number,
): Series {
  const byCode = table(
    table(table(table(table(series, verb), group), version), resource),
    subresource,
  );
  const found = byCode?.get(code) as Series | undefined;
  if (found) return found;
  const durationLabels = { verb, group, version, resource };
  const kept = byCode !== undefined && entries < MAX_ENTRIES;
  const s: Series = {
    labels: { ...durationLabels, subresource, code: String(code) },
    kept,
    pending: 0,
    duration: verb === "watch" ? undefined : requestDuration.labels(durationLabels),
  };
  if (kept) {
    byCode.set(code, s);
    created.push(s);
    entries++;
  }
  return s;
}

/** The table under `label`, made if missing and the bound allows. */
function table(parent: Table | undefined, label: string): Table | undefined {
  let t = parent?.get(label) as Table | undefined;
  if (t === undefined && parent !== undefined && entries < MAX_ENTRIES) {
    t = new Map();
    parent.set(label, t);
    entries++;
  }
  return t;
}

export async function serveMetrics(res: ServerResponse): Promise<void> {
  const body = await register.metrics();
  res.writeHead(200, {
    "Content-Type": register.contentType,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
