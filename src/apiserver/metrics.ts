/**
 * The apiserver's own Prometheus metrics and the `/metrics` endpoint, which
 * serves prom-client's process-wide registry (so controllers running in the same
 * process are included).
 *
 * A request costs one Map lookup and an addition: each series of the counter
 * is found by its label values and its count added to prom-client when that
 * collects (before every read of the registry), in the order the series came;
 * each keeps its histogram child. prom-client's own `inc(labels)` hashes the
 * label object on every call.
 */
import type { ServerResponse } from "node:http";
import { Counter, Histogram, register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";

type CountLabel = "verb" | "group" | "version" | "resource" | "subresource" | "code";

/** One series of apiserver_request_total, with the requests not yet added to it. */
interface Series {
  labels: Record<CountLabel, string>;
  pending: number;
  /** Its apiserver_request_duration_seconds series; undefined for watches. */
  duration: { observe(seconds: number): void } | undefined;
}

/** Series seen so far by their label values joined with NUL, in the order they came. */
const series = new Map<string, Series>();
/** Bound on the series kept (far above what served resources make); past it, requests count directly. */
const MAX_SERIES = 8192;

const requestTotal: Counter<CountLabel> = new Counter({
  name: "apiserver_request_total",
  help: "Counter of apiserver requests broken out for each verb, group, version, resource and HTTP response code.",
  labelNames: ["verb", "group", "version", "resource", "subresource", "code"] as const,
  collect() {
    for (const s of series.values()) {
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
  const verb = info?.verb ?? "nonresource";
  const group = info?.group ?? "";
  const version = info?.version ?? "";
  const resource = info?.resource ?? "";
  const subresource = info?.subresource ?? "";
  const key = `${verb}\0${group}\0${version}\0${resource}\0${subresource}\0${code}`;
  let s = series.get(key);
  if (s) {
    s.pending++;
  } else {
    const durationLabels = { verb, group, version, resource };
    s = {
      labels: { ...durationLabels, subresource, code: String(code) },
      pending: 1,
      duration: verb === "watch" ? undefined : requestDuration.labels(durationLabels),
    };
    if (series.size < MAX_SERIES) series.set(key, s);
    else requestTotal.inc(s.labels);
  }
  s.duration?.observe((performance.now() - started) / 1000);
}

export async function serveMetrics(res: ServerResponse): Promise<void> {
  const body = await register.metrics();
  res.writeHead(200, {
    "Content-Type": register.contentType,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
