/**
 * The `conntrack` command (conntrack-tools), run with arguments (never a
 * shell): delete the connection-tracking entries that match a `FlowFilter`.
 * `conntrack -D` exits 1 when nothing matched; that is told apart by its
 * message at this one boundary and is no error (0 entries deleted). Any other
 * failure is a `ConntrackError` carrying conntrack's stderr.
 */
import { spawn } from "node:child_process";
import type { FlowFilter } from "./stale-flows.js";
import { validIPv4, validPort } from "./validate.js";

export class ConntrackError extends Error {
  constructor(
    readonly args: string[],
    readonly stderr: string,
    readonly code: number | null,
    options?: { cause?: unknown },
  ) {
    super(
      `conntrack ${args.join(" ")} failed (exit ${code}): ${stderr.trim() || "no message"}`,
      options,
    );
    this.name = "ConntrackError";
  }
}

export interface ConntrackOptions {
  /** The conntrack binary; default `conntrack` on PATH. */
  conntrack?: string;
  signal?: AbortSignal;
}

/** What `conntrack -D` says when it deleted nothing (and exits 1). */
const DELETED = /(\d+) flow entries have been deleted/;

/** The arguments of `conntrack -D` for `filter`; throws on a value that is no address or port. */
export function deleteArgs(filter: FlowFilter): string[] {
  const { protocol, destination, port, endpoint } = filter;
  if (!validPort(port)) throw new Error(`invalid port ${String(port)} in a conntrack filter`);
  if (endpoint !== undefined && !validPort(endpoint.port))
    throw new Error(`invalid port ${String(endpoint.port)} in a conntrack filter`);
  for (const ip of [destination, endpoint?.ip])
    if (ip !== undefined && !validIPv4(ip))
      throw new Error(`invalid address ${JSON.stringify(ip)} in a conntrack filter`);
  return [
    "-D",
    "-f",
    "ipv4",
    "-p",
    protocol,
    ...(destination !== undefined ? ["--orig-dst", destination] : []),
    "--orig-port-dst",
    String(port),
    ...(endpoint !== undefined
      ? ["--reply-src", endpoint.ip, "--reply-port-src", String(endpoint.port)]
      : []),
  ];
}

/** Deletes the entries `filter` matches; resolves to how many there were. */
export function deleteFlows(filter: FlowFilter, opts: ConntrackOptions = {}): Promise<number> {
  const args = deleteArgs(filter);
  return new Promise((resolve, reject) => {
    const child = spawn(opts.conntrack ?? "conntrack", args, {
      stdio: ["ignore", "ignore", "pipe"],
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const err: Buffer[] = [];
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.once("error", (e) => reject(new ConntrackError(args, e.message, null, { cause: e })));
    child.once("close", (code) => {
      const stderr = Buffer.concat(err).toString();
      const deleted = DELETED.exec(stderr);
      if (code === 0 || (code === 1 && deleted?.[1] === "0")) resolve(Number(deleted?.[1] ?? 0));
      else reject(new ConntrackError(args, stderr, code));
    });
  });
}
