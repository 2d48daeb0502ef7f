/**
 * What the `hearth` image holds of a checkout, and its cache keys:
 * - the runtime part (the Node.js binary and the production node_modules) is
 *   keyed by the base, the node version and package-lock.json, so it is
 *   rebuilt only when one of those changes;
 * - the app part (dist/src without tests and source maps, the .proto files
 *   read from the source tree, config/, package.json) by a hash of the files'
 *   paths, modes and contents, so a rebuild with unchanged sources (tsc
 *   rewrites every file) keeps the image, and any change makes a new one.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RECIPE_VERSION, sha256 } from "./cache-key.js";

/** This file compiles to dist/src/images/; the checkout is three levels up. */
export const CHECKOUT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** An entry of package-lock.json's `packages` (lockfile v2/v3). */
interface LockedPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  link?: boolean;
}

/** A package dir of the production dependencies (`node_modules/a/node_modules/b`). */
export interface ProductionPackage {
  path: string;
  /** An optional dependency: npm may not have installed it (another platform's build). */
  optional: boolean;
}

/**
 * The production dependencies, sorted by path: the lock's packages not marked
 * `dev` — what `npm ls --omit=dev --all --parseable` lists for an install of
 * that lock, read without running npm.
 */
export function productionPackages(lockText: string): ProductionPackage[] {
  const lock = JSON.parse(lockText) as {
    lockfileVersion?: number;
    packages?: Record<string, LockedPackage>;
  };
  if (lock.packages === undefined)
    throw new Error(
      `package-lock.json v${lock.lockfileVersion ?? 1} has no "packages"; npm 7 or later writes it`,
    );
  return Object.entries(lock.packages)
    .filter(([path, p]) => path !== "" && p.dev !== true)
    .map(([path, p]) => {
      if (p.link) throw new Error(`${path} is a link (workspace); the hearth image cannot copy it`);
      return { path, optional: p.optional === true };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Whether a file under dist/src goes into the image: compiled modules, not tests or maps. */
export function isRuntimeModule(path: string): boolean {
  return /\.(js|json)$/.test(path) && !/\.test\.js$/.test(path);
}

/** The files under `dir` (none if it is missing) that `keep` accepts, relative to `root`. */
function walk(dir: string, keep: (path: string) => boolean, out: string[], root: string) {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) walk(full, keep, out, root);
    else if (e.isFile() && keep(full)) out.push(relative(root, full));
  }
}

/**
 * The app files of `checkout`, relative and sorted: dist/src's runtime
 * modules, src/'s .proto files, config/ and package.json. Throws when dist/src
 * is missing (tsc has not run).
 */
export function appFiles(checkout: string): string[] {
  const dist = join(checkout, "dist/src");
  if (!statSync(dist, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`${dist} is missing: build first (npx tsc -p .; ./hearth does it)`);
  const out: string[] = ["package.json"];
  walk(dist, isRuntimeModule, out, checkout);
  walk(join(checkout, "src"), (p) => p.endsWith(".proto"), out, checkout);
  walk(join(checkout, "config"), () => true, out, checkout);
  return out.sort();
}

/** A hash of each file's path, mode and content. */
export function filesDigest(checkout: string, files: readonly string[]): string {
  const lines = files.map((f) => {
    const full = join(checkout, f);
    const mode = (statSync(full).mode & 0o777).toString(8);
    return `${f} ${mode} ${sha256(readFileSync(full))}`;
  });
  return sha256(lines.join("\n"));
}

/** The runtime part's inputs: what decides the node binary and node_modules. */
export interface RuntimeInputs {
  baseKey: string;
  /** `process.version` of the node copied. */
  node: string;
  arch: string;
  lockText: string;
}

export function runtimeKey(i: RuntimeInputs): string {
  return sha256(
    JSON.stringify({
      recipe: RECIPE_VERSION,
      part: "hearth runtime",
      baseKey: i.baseKey,
      node: i.node,
      arch: i.arch,
      lock: sha256(i.lockText),
    }),
  );
}

/** The image's key: its runtime part, its spec (config) and the app files. */
export function appKey(runtime: string, spec: unknown, files: string): string {
  return sha256(
    JSON.stringify({ recipe: RECIPE_VERSION, part: "hearth app", runtime, spec, files }),
  );
}
