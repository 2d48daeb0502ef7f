/**
 * The apiserver's own Prometheus metrics and the `/metrics` endpoint, which
 * serves prom-client's process-wide registry (so controllers running in the same
 * process are included).
 */
import type { ServerResponse } from "node:http";
import { Counter, Histogram, register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";

const requestTotal = new Counter({
  name: "apiserver_request_total",
  help: "Counter of apiserver requests broken out for each verb, group, version, resource and HTTP response code.",
  labelNames: ["verb", "group", "version", "resource", "subresource", "code"] as const,
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
  res.once("finish", () => {
    const labels = {
      verb: info?.verb ?? "nonresource",
      group: info?.group ?? "",
      version: info?.version ?? "",
      resource: info?.resource ?? "",
    };
    requestTotal.inc({
      ...labels,
      subresource: info?.subresource ?? "",
      code: String(res.statusCode),
    });
    if (labels.verb !== "watch")
      requestDuration.observe(labels, (performance.now() - started) / 1000);
  });
}

export async function serveMetrics(res: ServerResponse): Promise<void> {
  const body = await register.metrics();
  res.writeHead(200, {
    "Content-Type": register.contentType,
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}
