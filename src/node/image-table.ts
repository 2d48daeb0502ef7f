/**
 * The image table: Hearth has no container images, so an image name maps to a
 * local executable (`config/images.json`, checked in). An entry has the image's
 * ENTRYPOINT and CMD, extra host paths to mount read-only and default ENV.
 * `image:tag` matches on the name; a registry path (`quay.io/coreos/etcd`) also
 * matches on its last segment. An image that is not in the table, or whose
 * executable is not installed, is an `ErrImagePull` with a message saying so.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { errorText } from "../client/index.js";

export interface ImageEntry {
  entrypoint: string[];
  cmd?: string[];
  binds?: string[];
  env?: Record<string, string>;
}

/** The resolved image: paths expanded, the executable found. */
export interface ResolvedImage extends ImageEntry {
  name: string;
}

export type ImageLookup = { ok: true; image: ResolvedImage } | { ok: false; message: string };

/** This checkout: dist/src/node → the repository root. */
export const HEARTH_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const DEFAULT_IMAGE_TABLE = join(HEARTH_ROOT, "config/images.json");

/**
 * Where this checkout's packages really are: a git worktree may link
 * `node_modules` from another checkout, and a sandbox that binds only the
 * checkout would see a dangling link.
 */
function hearthModules(): string {
  const modules = join(HEARTH_ROOT, "node_modules");
  try {
    return realpathSync(modules);
  } catch {
    return modules;
  }
}

/** Drops binds that another bind already contains (or repeats). */
function outermost(binds: string[]): string[] {
  const within = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);
  return binds.filter(
    (b, i) => !binds.some((other, j) => j !== i && within(b, other) && (b !== other || j < i)),
  );
}

/** `quay.io/coreos/etcd:v3.5@sha256:…` → [`quay.io/coreos/etcd`, `etcd`]. */
export function imageNames(image: string): string[] {
  let name = image.split("@")[0]!;
  const colon = name.lastIndexOf(":");
  if (colon > name.lastIndexOf("/")) name = name.slice(0, colon);
  const last = name.slice(name.lastIndexOf("/") + 1);
  return last === name ? [name] : [name, last];
}

/** Expands `*` path segments to the last match in sorted order; undefined when none exists. */
export function expandGlob(path: string): string | undefined {
  if (!path.includes("*")) return existsSync(path) ? path : undefined;
  const parts = path.split("/");
  let bases = [parts[0] === "" ? "/" : parts[0]!];
  for (const part of parts.slice(1)) {
    if (part !== "*") {
      bases = bases.map((b) => join(b, part));
      continue;
    }
    bases = bases.flatMap((b) => {
      try {
        return readdirSync(b)
          .sort((x, y) => x.localeCompare(y, undefined, { numeric: true }))
          .map((e) => join(b, e));
      } catch {
        return [];
      }
    });
  }
  return bases.filter((b) => existsSync(b)).at(-1);
}

export class ImageTable {
  constructor(
    private readonly entries: Record<string, ImageEntry>,
    private readonly vars: Record<string, string> = {
      node: process.execPath,
      hearth: HEARTH_ROOT,
      hearth_modules: hearthModules(),
    },
  ) {}

  static load(file = DEFAULT_IMAGE_TABLE): ImageTable {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      throw new Error(`cannot read the image table ${file}: ${errorText(e)}`);
    }
    const images = (parsed as { images?: unknown }).images;
    if (typeof images !== "object" || images === null)
      throw new Error(`image table ${file} has no "images" object`);
    for (const [name, entry] of Object.entries(images)) {
      if (!Array.isArray((entry as ImageEntry).entrypoint))
        throw new Error(
          `image table ${file}: image ${JSON.stringify(name)} needs an "entrypoint" list`,
        );
    }
    return new ImageTable(images as Record<string, ImageEntry>);
  }

  private expand(s: string): string {
    return s.replace(/\$\{(\w+)\}/g, (m, v: string) => this.vars[v] ?? m);
  }

  lookup(image: string | undefined): ImageLookup {
    if (!image) return { ok: false, message: "the container has no image" };
    const name = imageNames(image).find((n) => Object.hasOwn(this.entries, n));
    if (name === undefined)
      return {
        ok: false,
        message: `image ${JSON.stringify(image)} is not in this node's image table (known: ${Object.keys(this.entries).sort().join(", ")})`,
      };
    const entry = this.entries[name]!;
    const entrypoint = entry.entrypoint.map((s) => this.expand(s));
    const cmd = entry.cmd?.map((s) => this.expand(s));
    const exe = entrypoint[0] ?? cmd?.[0];
    if (exe?.startsWith("/")) {
      const found = expandGlob(exe);
      if (!found)
        return {
          ok: false,
          message: `image ${JSON.stringify(image)} maps to ${exe}, which is not installed on this node`,
        };
      if (entrypoint.length > 0) entrypoint[0] = found;
      else cmd![0] = found;
    }
    return {
      ok: true,
      image: {
        name,
        entrypoint,
        ...(cmd ? { cmd } : {}),
        binds: outermost((entry.binds ?? []).map((s) => this.expand(s))),
        env: Object.fromEntries(
          Object.entries(entry.env ?? {}).map(([k, v]) => [k, this.expand(v)]),
        ),
      },
    };
  }
}
