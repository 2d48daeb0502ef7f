/**
 * One probe of a container, as the kubelet runs it: `tcpSocket` connects to the
 * pod IP (or `host`) and port, `httpGet` expects a status in 200–399, `exec`
 * runs the command in the container through its runtime (the target's `exec`)
 * and expects exit 0. Each has `timeoutSeconds`. A named port is looked up in
 * the container's ports.
 */
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Container, Probe } from "../api/index.js";

export interface ProbeResult {
  ok: boolean;
  message: string;
}

export interface ProbeTarget {
  container: Container;
  podIP: string;
  /** Runs an exec probe's command in the container, bounded by the timeout. */
  exec(command: string[], timeoutMs: number): Promise<ProbeResult>;
}

export function resolvePort(c: Container, port: number | string): number | undefined {
  if (typeof port === "number") return port;
  if (/^\d+$/.test(port)) return Number(port);
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

/** Go's wording for the usual dial errors, as kube's probe messages show them. */
function dialError(e: NodeJS.ErrnoException): string {
  if (e.code === "ECONNREFUSED") return "connect: connection refused";
  if (e.code === "EHOSTUNREACH") return "connect: no route to host";
  return e.message;
}

function tcpProbe(host: string, port: number, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (r: ProbeResult) => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, message: `dial tcp ${host}:${port}: i/o timeout` }),
    );
    socket.once("connect", () => done({ ok: true, message: "" }));
    socket.once("error", (e: NodeJS.ErrnoException) =>
      done({ ok: false, message: `dial tcp ${host}:${port}: ${dialError(e)}` }),
    );
  });
}

function httpProbe(
  probe: NonNullable<Probe["httpGet"]>,
  host: string,
  port: number,
  timeoutMs: number,
): Promise<ProbeResult> {
  const secure = probe.scheme === "HTTPS";
  const url = `${secure ? "https" : "http"}://${host}:${port}${probe.path ?? "/"}`;
  return new Promise((resolve) => {
    const headers: Record<string, string> = { "user-agent": "kube-probe/1.32" };
    for (const h of probe.httpHeaders ?? []) headers[h.name.toLowerCase()] = h.value;
    const req = (secure ? https : http).get(url, {
      headers,
      timeout: timeoutMs,
      ...(secure ? { rejectUnauthorized: false } : {}),
    });
    req.once("response", (res) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(
        code >= 200 && code < 400
          ? { ok: true, message: "" }
          : { ok: false, message: `HTTP probe failed with statuscode: ${code}` },
      );
    });
    req.once("timeout", () =>
      req.destroy(
        new Error("context deadline exceeded (Client.Timeout exceeded while awaiting headers)"),
      ),
    );
    req.once("error", (e: NodeJS.ErrnoException) => {
      const why =
        e.code === "ECONNREFUSED" ? `dial tcp ${host}:${port}: ${dialError(e)}` : e.message;
      resolve({ ok: false, message: `Get "${url}": ${why}` });
    });
  });
}

export function runProbe(probe: Probe, t: ProbeTarget): Promise<ProbeResult> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.exec) return t.exec(probe.exec.command ?? [], timeoutMs);
  const action = probe.tcpSocket ?? probe.httpGet;
  if (!action) return Promise.resolve({ ok: false, message: "probe has no handler" });
  const port = resolvePort(t.container, action.port);
  if (port === undefined)
    return Promise.resolve({
      ok: false,
      message: `unknown port name ${JSON.stringify(action.port)} in container ${t.container.name}`,
    });
  const host = action.host || t.podIP;
  if (probe.tcpSocket) return tcpProbe(host, port, timeoutMs);
  return httpProbe(probe.httpGet!, host, port, timeoutMs);
}
