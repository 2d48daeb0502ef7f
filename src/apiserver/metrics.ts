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
 *
 * Long-running requests (watches, pod logs) are counted while they are open:
 * kube's `apiserver_longrunning_requests`, and Hearth's own
 * `hearth_apiserver_watches`, which adds what kube's labels leave out — the
 * namespace and the selectors of each watch — so that duplicate watches of one
 * resource and selector show. A series of the latter is removed when its last
 * watch ends, so selectors that come and go do not pile up.
 */
import type { ServerResponse } from "node:http";
import { Counter, Gauge, Histogram, register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";

type DurationLabel =
  | "verb"
  | "dry_run"
  | "group"
  | "version"
  | "resource"
  | "subresource"
  | "scope"
  | "component";
type CountLabel = DurationLabel | "code";

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

const DURATION_LABELS = [
  "verb",
  "dry_run",
  "group",
  "version",
  "resource",
  "subresource",
  "scope",
  "component",
] as const;

const requestTotal: Counter<CountLabel> = new Counter({
  name: "apiserver_request_total",
  help: "Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.",
  labelNames: [...DURATION_LABELS, "code"] as const,
  collect() {
    for (const s of series.values()) {
      if (s.pending === 0) continue;
      requestTotal.inc(s.labels, s.pending);
      s.pending = 0;
    }
  },
});

const requestDuration = new Histogram<DurationLabel>({
  name: "apiserver_request_duration_seconds",
  help: "Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component (watches excluded).",
  labelNames: DURATION_LABELS,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 5, 10, 30, 60],
});

/** What the metrics read of a request beyond its RequestInfo. */
export interface RequestFacts {
  method: string;
  contentType: string | undefined;
  query: URLSearchParams;
}

/** Counts the request when its response finishes. */
export function observeRequest(
  info: RequestInfo | undefined,
  facts: RequestFacts,
  res: ServerResponse,
  started: number,
): void {
  const verb = reportedVerb(info, facts);
  const dryRun = dryRunLabel(facts.query);
  // "finish" is emitted once per response; `on` spares the `once` wrapper.
  res.on("finish", () => record(info, verb, dryRun, res.statusCode, started));
}

const VERBS: Record<string, string> = {
  get: "GET",
  list: "LIST",
  watch: "WATCH",
  create: "POST",
  update: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  deletecollection: "DELETECOLLECTION",
};

/**
 * kube's CleanVerb over the verb its routes are instrumented with: LIST and
 * WATCH apart from GET, APPLY for a server-side apply, CONNECT for the
 * streaming subresources; a request that is not a resource request by its method.
 */
function reportedVerb(info: RequestInfo | undefined, facts: RequestFacts): string {
  if (!info) return facts.method.toUpperCase();
  if (info.subresource !== undefined && CONNECT_SUBRESOURCES.has(info.subresource))
    return "CONNECT";
  if (info.verb === "patch" && facts.contentType?.split(";")[0]?.trim() === APPLY_TYPE)
    return "APPLY";
  return VERBS[info.verb] ?? info.verb.toUpperCase();
}

const APPLY_TYPE = "application/apply-patch+yaml";

/** kube's cleanDryRun: the dryRun values sorted and joined, or "invalid" for any but All (bounded cardinality). */
function dryRunLabel(query: URLSearchParams): string {
  const values = query.getAll("dryRun");
  if (values.length === 0) return "";
  return values.every((v) => v === "All") ? "All" : "invalid";
}

function record(
  info: RequestInfo | undefined,
  verb: string,
  dryRun: string,
  code: number,
  started: number,
): void {
  const group = info?.group ?? "";
  const version = info?.version ?? "";
  const resource = info?.resource ?? "";
  const subresource = info?.subresource ?? "";
  const scope = info ? scopeOf(info) : "";
  const component = info ? "apiserver" : "";
  const key = `${verb}\0${dryRun}\0${group}\0${version}\0${resource}\0${subresource}\0${scope}\0${code}`;
  let s = series.get(key);
  if (s) {
    s.pending++;
  } else {
    const durationLabels = {
      verb,
      dry_run: dryRun,
      group,
      version,
      resource,
      subresource,
      scope,
      component,
    };
    s = {
      labels: { ...durationLabels, code: String(code) },
      pending: 1,
      duration: verb === "WATCH" ? undefined : requestDuration.labels(durationLabels),
    };
    if (series.size < MAX_SERIES) series.set(key, s);
    else requestTotal.inc(s.labels);
  }
  s.duration?.observe((performance.now() - started) / 1000);
}

type LongRunningLabel =
  | "verb"
  | "group"
  | "version"
  | "resource"
  | "subresource"
  | "scope"
  | "component";

const longRunning: Gauge<LongRunningLabel> = new Gauge({
  name: "apiserver_longrunning_requests",
  help: "Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.",
  labelNames: ["verb", "group", "version", "resource", "subresource", "scope", "component"],
});

type WatchLabel =
  | "group"
  | "version"
  | "resource"
  | "namespace"
  | "label_selector"
  | "field_selector";

const watches: Gauge<WatchLabel> = new Gauge({
  name: "hearth_apiserver_watches",
  help: "Open watches by group, version, resource, namespace (empty: all namespaces) and the label and field selectors as sent (empty: none).",
  labelNames: ["group", "version", "resource", "namespace", "label_selector", "field_selector"],
});

/** Open watches per series of hearth_apiserver_watches, to remove a series at zero. */
const openWatches = new Map<string, number>();

/** kube's connect subresources: a request to one is reported with the verb CONNECT. */
const CONNECT_SUBRESOURCES = new Set(["log", "exec", "portforward", "attach", "proxy"]);

/** kube's CleanScope. */
function scopeOf(info: RequestInfo): string {
  if (info.name !== undefined || info.verb === "create") return "resource";
  if (info.namespace !== undefined) return "namespace";
  return "cluster";
}

/** kube's reported verb for a long-running request: WATCH, CONNECT, else the verb in capitals. */
function longRunningVerb(info: RequestInfo): string {
  if (info.subresource !== undefined && CONNECT_SUBRESOURCES.has(info.subresource))
    return "CONNECT";
  return info.verb.toUpperCase();
}

/**
 * Counts a long-running request from now until the returned function is
 * called (once; later calls do nothing). A watch is also counted by its
 * namespace and selectors.
 */
export function trackLongRunning(info: RequestInfo, query: URLSearchParams): () => void {
  const gauge = longRunning.labels({
    verb: longRunningVerb(info),
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource ?? "",
    scope: scopeOf(info),
    component: "apiserver",
  });
  gauge.inc();
  const endWatch = info.verb === "watch" ? trackWatch(info, query) : undefined;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    gauge.dec();
    endWatch?.();
  };
}

function trackWatch(info: RequestInfo, query: URLSearchParams): () => void {
  const labels: Record<WatchLabel, string> = {
    group: info.group,
    version: info.version,
    resource: info.resource,
    namespace: info.namespace ?? "",
    label_selector: query.get("labelSelector") ?? "",
    field_selector: query.get("fieldSelector") ?? "",
  };
  const key = Object.values(labels).join("\0");
  openWatches.set(key, (openWatches.get(key) ?? 0) + 1);
  watches.inc(labels);
  return () => {
    const left = (openWatches.get(key) ?? 1) - 1;
    if (left > 0) {
      openWatches.set(key, left);
      watches.dec(labels);
    } else {
      openWatches.delete(key);
      watches.remove(labels);
    }
  };
}

export async function serveMetrics(res: ServerResponse): Promise<void> {
  const body = await register.metrics();
  res.writeHead(200, {
    "Content-Type": register.contentType,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
