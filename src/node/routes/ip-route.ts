/**
 * The `ip route` commands of iproute2 (netlink, in the network namespace this
 * process runs in), run with arguments, never a shell. Every route Hearth
 * adds carries the routing protocol `HEARTH_ROUTE_PROTOCOL`, and a delete
 * names it too, so the kernel never removes a route of the same prefix that
 * someone else put there. A failure is an `IpRouteError` with iproute2's
 * stderr; "no such route" (ESRCH) is told apart at this one boundary.
 */
import { execFile } from "node:child_process";
import { parseIpv4Net } from "../ipv4.js";
import type { PodRoute } from "./pod-routes.js";

/**
 * The `proto` of Hearth's routes (rtnetlink's protocol byte; 0–4 are the
 * kernel's, iproute2's rt_protos names a few above; 77 is none of them).
 * `ip route show proto 77` lists them.
 */
export const HEARTH_ROUTE_PROTOCOL = 77;

export class IpRouteError extends Error {
  constructor(
    readonly args: string[],
    readonly stderr: string,
    options?: { cause?: unknown },
  ) {
    super(`ip ${args.join(" ")} failed: ${stderr.trim() || "no message"}`, options);
    this.name = "IpRouteError";
  }

  /** The route is not there (the kernel's ESRCH). */
  get notFound(): boolean {
    return /No such process/.test(this.stderr);
  }
}

export interface IpOptions {
  /** The ip binary; default `ip` on PATH. */
  ip?: string;
}

function run(args: string[], opts: IpOptions): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(opts.ip ?? "ip", args, { timeout: 10_000 }, (err, stdout, stderr) => {
      if (err) reject(new IpRouteError(args, String(stderr) || err.message, { cause: err }));
      else resolve(String(stdout));
    }),
  );
}

const routeArgs = (r: Pick<PodRoute, "cidr" | "via">) => [
  r.cidr,
  "via",
  r.via,
  "proto",
  String(HEARTH_ROUTE_PROTOCOL),
];

/** Adds the route, or changes the one of that prefix to it (`ip route replace`). */
export async function replaceRoute(r: Pick<PodRoute, "cidr" | "via">, opts: IpOptions = {}) {
  await run(["-4", "route", "replace", ...routeArgs(r)], opts);
}

/** Deletes the route if it is there, as Hearth's (same prefix, gateway and protocol). */
export async function deleteRoute(r: Pick<PodRoute, "cidr" | "via">, opts: IpOptions = {}) {
  try {
    await run(["-4", "route", "del", ...routeArgs(r)], opts);
  } catch (e) {
    if (!(e instanceof IpRouteError && e.notFound)) throw e;
  }
}

/** One line of `ip -o -4 route show`: its destination and whether it is Hearth's. */
export interface RouteLine {
  text: string;
  /** The destination as written (`default`, `10.0.0.0/24`, `10.0.0.7`). */
  dst: string;
  hearth: boolean;
}

/** The routes of the main table. */
export async function listRoutes(opts: IpOptions = {}): Promise<RouteLine[]> {
  return parseRoutes(await run(["-o", "-4", "route", "show", "table", "main"], opts));
}

export function parseRoutes(text: string): RouteLine[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((line) => {
      const words = line.split(/\s+/);
      // A route type (unicast, blackhole, …) may come before the destination.
      const dst = words.find((w) => w === "default" || parseIpv4Net(w) !== undefined) ?? "";
      const proto = words[words.indexOf("proto") + 1];
      return {
        text: line,
        dst,
        hearth: words.includes("proto") && proto === String(HEARTH_ROUTE_PROTOCOL),
      };
    });
}
