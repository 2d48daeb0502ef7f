/**
 * The routes this node has added, in `DIR/pod-routes.json`, written before
 * any route is added (the union of what it held and what comes) and rewritten
 * once the routes are what they should be. So a `kill -9` at any point leaves
 * no route that the next start on DIR does not know to remove, and a route
 * another Hearth in the same network namespace added (same protocol, not in
 * this file) is never removed by this one.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseIpv4Net } from "../ipv4.js";
import type { PodRoute } from "./pod-routes.js";

export type RouteEntry = Pick<PodRoute, "cidr" | "via">;

export const routeKey = (r: RouteEntry) => `${r.cidr} via ${r.via}`;

export function routeInventoryPath(dataDir: string): string {
  return join(dataDir, "pod-routes.json");
}

/** The well-formed entries of the file (none when it is missing or unreadable). */
export function readRouteInventory(file: string): RouteEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((e: unknown): RouteEntry[] => {
    const { cidr, via } = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
    if (typeof cidr !== "string" || typeof via !== "string") return [];
    if (!cidr.includes("/") || !parseIpv4Net(cidr) || via.includes("/") || !parseIpv4Net(via))
      return [];
    return [{ cidr, via }];
  });
}

/** Replaces the file by a rename (a crash leaves the old one or the new one). */
export function writeRouteInventory(file: string, routes: RouteEntry[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const unique = new Map(routes.map((r) => [routeKey(r), { cidr: r.cidr, via: r.via }]));
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify([...unique.values()], null, 2)}\n`);
  renameSync(tmp, file);
}

export function removeRouteInventory(file: string): void {
  rmSync(file, { force: true });
}
