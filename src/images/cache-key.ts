/**
 * Cache keys: an image is rebuilt exactly when one of its inputs changes —
 * the versions of the packages that go into it (as apt resolves them on the
 * builder root, dependencies included), the base it is layered on, its spec
 * (config, setup lines) and the recipe itself.
 */
import { createHash } from "node:crypto";
import type { ImageSpec } from "./specs.js";

/** Bumped when the build steps change in a way that changes the images. */
export const RECIPE_VERSION = 1;

/** A package and its exact version. */
export interface PackageVersion {
  name: string;
  version: string;
}

/** `Inst etcd-server (3.4.23-4+b4 Debian:12.15/oldstable [amd64])` lines of `apt-get install -s`. */
export function parseSimulatedInstall(output: string): PackageVersion[] {
  const out: PackageVersion[] = [];
  for (const line of output.split("\n")) {
    const m = /^Inst (\S+) (?:\[\S+\] )?\((\S+) /.exec(line);
    if (m) out.push({ name: m[1]!, version: m[2]! });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The `Candidate:` of each package in `apt-cache policy` output; throws for one without. */
export function parsePolicyCandidates(
  output: string,
  packages: readonly string[],
): PackageVersion[] {
  const found = new Map<string, string>();
  let current: string | undefined;
  for (const line of output.split("\n")) {
    const head = /^(\S+):$/.exec(line);
    if (head) current = head[1];
    const cand = /^\s+Candidate: (\S+)$/.exec(line);
    if (cand && current !== undefined && cand[1] !== "(none)") found.set(current, cand[1]!);
  }
  return packages.map((name) => {
    const version = found.get(name);
    if (version === undefined)
      throw new Error(`package ${name} has no installable version in the builder root's apt lists`);
    return { name, version };
  });
}

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The key of one image: a hash of the recipe version, its spec, the key of
 * its base (empty for images on an empty root) and its package versions.
 */
export function imageKey(
  spec: ImageSpec,
  baseKey: string,
  versions: readonly PackageVersion[],
  extra = "",
): string {
  const sorted = [...versions].sort((a, b) => a.name.localeCompare(b.name));
  return sha256(JSON.stringify({ recipe: RECIPE_VERSION, spec, baseKey, versions: sorted, extra }));
}

/** The key of the base root: its installed packages (`dpkg-query -W` lines) and its apt sources. */
export function baseKey(installed: string, sources: string): string {
  const lines = installed
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .sort();
  return sha256(JSON.stringify({ recipe: RECIPE_VERSION, installed: lines, sources }));
}

/** The version a Debian version string names upstream: `1:1.35.0-4+deb12u1` → `1.35.0`. */
export function upstreamVersion(debian: string): string {
  return debian.replace(/^\d+:/, "").replace(/-[^-]*$/, "");
}

/**
 * The inputs apt resolves an image's versions from: the spec, the base, the
 * builder root's apt lists (`listsFingerprint`) and any script. While this is
 * unchanged the versions are too, so a build need not ask apt again.
 */
export function listsKey(spec: ImageSpec, baseKey: string, lists: string, extra = ""): string {
  return sha256(JSON.stringify({ recipe: RECIPE_VERSION, spec, baseKey, lists, extra }));
}

/** The apt lists as their signed Release files name them: `InRelease` file name → content. */
export function listsFingerprint(releases: ReadonlyMap<string, string>): string {
  return sha256(JSON.stringify([...releases].sort(([a], [b]) => a.localeCompare(b))));
}
