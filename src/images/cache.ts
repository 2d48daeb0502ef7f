/**
 * The image cache, outside any clone (CI runs on fresh clones):
 * `$HEARTH_IMAGE_CACHE`, else /var/cache/hearth/images. It holds
 * - `root/`: the builder root (debootstrap minbase + apt lists), never installed into;
 * - `oci/`: one OCI layout with every image as a tag (`etcd-3.4`) and the base (`base`);
 * - `builds/<tag>.json`: the record of each finished build (key, manifest digest).
 * An image is current when its record's key is the key computed now and the
 * layout's tag still names the record's digest; the record is written last,
 * so a build killed half-way is redone, never trusted.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PackageVersion } from "./cache-key.js";
import { type ImageSpec, layoutRef } from "./specs.js";

export const DEFAULT_IMAGE_CACHE = "/var/cache/hearth/images";

export interface ImageCache {
  dir: string;
  /** The builder root. */
  root: string;
  /** The OCI layout. */
  layout: string;
  builds: string;
  /** Scratch space of builds in progress. */
  work: string;
}

export function imageCache(
  dir = process.env.HEARTH_IMAGE_CACHE || DEFAULT_IMAGE_CACHE,
): ImageCache {
  return {
    dir,
    root: join(dir, "root"),
    layout: join(dir, "oci"),
    builds: join(dir, "builds"),
    work: join(dir, "work"),
  };
}

export interface BuildRecord {
  ref: string;
  key: string;
  /** The manifest digest the layout's tag had when the build finished. */
  digest: string;
  versions: PackageVersion[];
  /** The apt lists, base and spec the versions were resolved from (see `listsKey`). */
  listsKey?: string;
  /** Compressed layer bytes. */
  bytes: number;
  seconds: number;
  builtAt: string;
}

export function readRecord(cache: ImageCache, ref: string): BuildRecord | undefined {
  const file = join(cache.builds, `${ref}.json`);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as BuildRecord;
  } catch {
    return undefined;
  }
}

export function writeRecord(cache: ImageCache, record: BuildRecord): void {
  mkdirSync(cache.builds, { recursive: true });
  const file = join(cache.builds, `${record.ref}.json`);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

interface OciDescriptor {
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

/** The manifest digest a tag of the layout names; undefined when the layout or tag is missing. */
export function layoutDigest(layout: string, ref: string): string | undefined {
  const file = join(layout, "index.json");
  if (!existsSync(file)) return undefined;
  const index = JSON.parse(readFileSync(file, "utf8")) as { manifests?: OciDescriptor[] };
  const m = index.manifests?.find(
    (d) => d.annotations?.["org.opencontainers.image.ref.name"] === ref,
  );
  return m?.digest;
}

/** The specs whose image the cache's layout holds (built at least once; maybe not current). */
export function builtSpecs<S extends Pick<ImageSpec, "name" | "tag">>(
  cache: ImageCache,
  specs: readonly S[],
): S[] {
  return specs.filter((s) => layoutDigest(cache.layout, layoutRef(s)) !== undefined);
}

/** The compressed size of an image's layers, from its manifest in the layout. */
export function layerBytes(layout: string, digest: string): number {
  const [alg, hex] = digest.split(":");
  const manifest = JSON.parse(readFileSync(join(layout, "blobs", alg!, hex!), "utf8")) as {
    layers: OciDescriptor[];
  };
  return manifest.layers.reduce((n, l) => n + l.size, 0);
}

/**
 * Writes the record of a build of `ref` that has just finished (the layout's
 * tag names its result) and returns it; throws if the tag is missing.
 */
export function recordBuild(
  cache: ImageCache,
  build: Pick<BuildRecord, "ref" | "key" | "versions" | "listsKey">,
  startedAt: number,
): BuildRecord {
  const digest = layoutDigest(cache.layout, build.ref);
  if (digest === undefined) throw new Error(`built ${build.ref} but the layout has no such tag`);
  const record: BuildRecord = {
    ...build,
    digest,
    bytes: layerBytes(cache.layout, digest),
    seconds: (Date.now() - startedAt) / 1000,
    builtAt: new Date().toISOString(),
  };
  writeRecord(cache, record);
  return record;
}

/** The record of `ref` if it is current for `key`. */
export function currentRecord(
  cache: ImageCache,
  ref: string,
  key: string,
): BuildRecord | undefined {
  const record = readRecord(cache, ref);
  if (record === undefined || record.key !== key) return undefined;
  return layoutDigest(cache.layout, ref) === record.digest ? record : undefined;
}
