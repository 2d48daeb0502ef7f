/**
 * `buildImages`: the builder root, the base image and every image asked for,
 * under one lock on the cache (proper-lockfile: a second build waits, a dead
 * holder's lock is taken over once stale), then `umoci gc` when a Debian
 * image was rebuilt so blobs of replaced builds do not pile up (the hearth
 * image collects its own garbage: checkout-image.ts). Idempotent: with the
 * same package versions and checkout files it runs only the look-ups.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { type BuildResult, buildImage } from "./build-image.js";
import { ensureBaseImage, ensureBuilderRoot, type RootOptions } from "./builder-root.js";
import { type ImageCache, imageCache } from "./cache.js";
import { CHECKOUT } from "./checkout-files.js";
import { buildCheckoutImage } from "./checkout-image.js";
import { run } from "./exec.js";
import { IMAGE_SPECS, type ImageSpec } from "./specs.js";

export interface BuildOptions extends RootOptions {
  cache?: ImageCache;
  /** The specs to build; all of IMAGE_SPECS by default. */
  specs?: readonly ImageSpec[];
  /** The checkout the hearth image is made of; this one by default. */
  checkout?: string;
}

export async function buildImages(opts: BuildOptions = {}): Promise<BuildResult[]> {
  const cache = opts.cache ?? imageCache();
  const log = opts.log ?? (() => {});
  mkdirSync(cache.dir, { recursive: true });
  const release = await lockfile.lock(cache.dir, {
    lockfilePath: join(cache.dir, ".build.lock"),
    stale: 30_000,
    update: 5_000,
    retries: { retries: 120, minTimeout: 1_000, maxTimeout: 5_000, factor: 1.2 },
  });
  try {
    const root = await ensureBuilderRoot(cache, opts);
    const specs = opts.specs ?? IMAGE_SPECS;
    if (specs.some((s) => s.source.kind === "apt" || s.source.kind === "checkout"))
      await ensureBaseImage(cache, root, log);
    const checkout = { checkout: opts.checkout ?? CHECKOUT };
    const results: BuildResult[] = [];
    for (const spec of specs)
      results.push(
        spec.source.kind === "checkout"
          ? await buildCheckoutImage(spec, root, cache, checkout, log)
          : await buildImage(spec, root, cache, log),
      );
    if (results.some((r) => !r.cached && r.spec.source.kind !== "checkout"))
      await run(["umoci", "gc", "--layout", cache.layout]);
    return results;
  } finally {
    await release();
  }
}
