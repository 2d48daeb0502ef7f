/**
 * Named health checks behind `/healthz`, `/livez` and `/readyz`, answered in
 * kube-apiserver's format (k8s.io/apiserver pkg/server/healthz): the root path
 * passes only when every check does and says `ok` (with `?verbose` one
 * `[+]name ok` line per check and `readyz check passed`); a failure is a 500
 * listing every check, the failing ones as `[-]name failed: reason withheld`,
 * ending `readyz check failed`. `?exclude=name` skips a check; `/readyz/<name>`
 * runs one and, for a failure, says why (`internal server error: <reason>`):
 * as in kube, that path needs credentials, the public root path withholds it.
 */
import type { ServerResponse } from "node:http";
import { ApiError } from "../api/index.js";

/** Undefined when the check passes, else why it does not. */
export type HealthCheck = () => string | undefined | Promise<string | undefined>;

export interface CheckFailure {
  name: string;
  reason: string;
}

/** One endpoint's checks, in the order they were added (the order they are listed). */
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  add(name: string, check: HealthCheck): void {
    if (this.checks.has(name))
      throw new Error(`health check ${JSON.stringify(name)} is already added`);
    this.checks.set(name, check);
  }

  has(name: string): boolean {
    return this.checks.has(name);
  }

  names(): string[] {
    return [...this.checks.keys()];
  }

  /** Runs one check; a check that throws fails with what it threw. */
  async run(name: string): Promise<string | undefined> {
    const check = this.checks.get(name);
    if (!check) return `no health check named ${JSON.stringify(name)}`;
    try {
      return await check();
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  /** The checks that fail now (all of them run, concurrently). */
  async failures(exclude: ReadonlySet<string> = new Set()): Promise<CheckFailure[]> {
    const names = this.names().filter((n) => !exclude.has(n));
    const reasons = await Promise.all(names.map((n) => this.run(n)));
    return names.flatMap((name, i) => {
      const reason = reasons[i];
      return reason === undefined ? [] : [{ name, reason }];
    });
  }
}

export interface HealthEndpoints {
  healthz: HealthChecks;
  livez: HealthChecks;
  readyz: HealthChecks;
}

type EndpointName = "healthz" | "livez" | "readyz";

function endpointOf(path: string): { endpoint: EndpointName; check?: string } | undefined {
  const m = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
  if (!m) return undefined;
  return { endpoint: m[1] as EndpointName, ...(m[2] !== undefined ? { check: m[2] } : {}) };
}

/** `/readyz/<name>` and the like: one check, behind authentication as in kube. */
export function isHealthCheckPath(path: string): boolean {
  return endpointOf(path)?.check !== undefined;
}

function sendText(res: ServerResponse, code: number, body: string): void {
  res.writeHead(code, {
    "Content-Type": "text/plain; charset=utf-8",
    "X-Content-Type-Options": "nosniff",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

export async function serveHealth(
  endpoints: HealthEndpoints,
  path: string,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  const target = endpointOf(path);
  if (!target)
    throw new ApiError(404, "NotFound", "the server could not find the requested resource");
  const checks = endpoints[target.endpoint];
  if (target.check !== undefined) {
    if (!checks.has(target.check))
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    const reason = await checks.run(target.check);
    if (reason === undefined) sendText(res, 200, "ok");
    else sendText(res, 500, `internal server error: ${reason}\n`);
    return;
  }
  const exclude = new Set(
    query
      .getAll("exclude")
      .map((v) => v.trim())
      .filter((v) => v !== ""),
  );
  const failures = await checks.failures(exclude);
  const failed = new Map(failures.map((f) => [f.name, f.reason]));
  let lines = "";
  for (const name of checks.names()) {
    if (exclude.delete(name)) lines += `[+]${name} excluded: ok\n`;
    else if (failed.has(name)) lines += `[-]${name} failed: reason withheld\n`;
    else lines += `[+]${name} ok\n`;
  }
  if (exclude.size > 0) {
    const quoted = [...exclude].sort().map((n) => JSON.stringify(n));
    lines += `warn: some health checks cannot be excluded: no matches for ${quoted.join(",")}\n`;
  }
  if (failures.length > 0) {
    sendText(res, 500, `${lines}${target.endpoint} check failed\n`);
    return;
  }
  sendText(res, 200, query.has("verbose") ? `${lines}${target.endpoint} check passed\n` : "ok");
}
