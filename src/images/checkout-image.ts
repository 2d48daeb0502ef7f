/**
 * Builds the image of a `checkout` spec (Hearth itself) as two layers on the
 * base, each under its own key (checkout-files.ts):
 * - the runtime part, layout tag `<name>-runtime`: /usr/local/bin/node (the
 *   Node.js running this build) and /opt/hearth/node_modules (the production
 *   packages), rebuilt when the base, node or package-lock.json changes —
 *   most of its ten-odd seconds are gzip of ~170 MB;
 * - the image, layout tag `layoutRef(spec)`: that plus the app files under
 *   /opt/hearth, rebuilt in about a second whenever one of them changes.
 * The image is assembled under a scratch tag and tagged `layoutRef(spec)`
 * only when complete, so the layout never names a half-built image while a
 * `hearth up` (of this or another checkout) publishes it. Only a rebuilt
 * runtime part runs `umoci gc`: an app-only rebuild leaves its predecessor's
 * small layer (about 0.6 MB) for the next gc, rather than remove blobs a publish
 * elsewhere may be reading.
 */
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type { BuildResult } from "./build-image.js";
import { BASE_REF, type BuilderRoot, ensureLayout } from "./builder-root.js";
import { currentRecord, type ImageCache, recordBuild } from "./cache.js";
import { appFiles, appKey, filesDigest, productionPackages, runtimeKey } from "./checkout-files.js";
import { umociConfigArgv } from "./commands.js";
import { run } from "./exec.js";
import { type ImageSpec, layoutRef } from "./specs.js";

/** Where the checkout's files go in the image. */
export const APP_DIR = "/opt/hearth";
export const NODE_PATH = "/usr/local/bin/node";

export interface CheckoutOptions {
  /** The checkout whose files go in; this one by default. */
  checkout: string;
  /** The Node.js binary copied in and its version; this process's by default. */
  node?: { path: string; version: string };
}

/** Makes a fresh scratch dir, runs `fill` on it and `umoci insert`s it at / of `image`. */
async function insertLayer(
  cache: ImageCache,
  name: string,
  image: string,
  fill: (rootfs: string) => void,
) {
  const rootfs = join(cache.work, name, "rootfs");
  rmSync(dirname(rootfs), { recursive: true, force: true });
  mkdirSync(join(rootfs, APP_DIR.slice(1)), { recursive: true });
  try {
    fill(rootfs);
    await run(["umoci", "insert", "--image", image, rootfs, "/"]);
  } finally {
    rmSync(dirname(rootfs), { recursive: true, force: true });
  }
}

function copyModules(checkout: string, lockText: string, rootfs: string) {
  // node_modules may be a link (a worktree sharing another's install).
  const from = dirname(realpathSync(join(checkout, "node_modules")));
  for (const pkg of productionPackages(lockText)) {
    const src = join(from, pkg.path);
    if (!existsSync(src)) {
      if (pkg.optional) continue;
      throw new Error(`${src} is missing: node_modules does not match package-lock.json (npm ci)`);
    }
    // Its own nested node_modules holds packages listed on their own (or dev ones).
    const nested = join(src, "node_modules");
    cpSync(src, join(rootfs, APP_DIR, pkg.path), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (path) => path !== nested,
    });
  }
}

/** The runtime part under `<name>-runtime`, built unless current; its key. */
async function ensureRuntime(
  spec: ImageSpec,
  root: BuilderRoot,
  cache: ImageCache,
  o: Required<CheckoutOptions>,
  log: (line: string) => void,
): Promise<string> {
  const ref = `${spec.name}-runtime`;
  const lockText = readFileSync(join(o.checkout, "package-lock.json"), "utf8");
  const key = runtimeKey({ baseKey: root.key, node: o.node.version, arch: process.arch, lockText });
  if (currentRecord(cache, ref, key)) return key;
  log(`building ${ref} (node ${o.node.version}, production node_modules)`);
  const started = Date.now();
  await ensureLayout(cache);
  const image = `${cache.layout}:${ref}`;
  await run(["umoci", "tag", "--image", `${cache.layout}:${BASE_REF}`, ref]);
  await insertLayer(cache, ref, image, (rootfs) => {
    const node = join(rootfs, NODE_PATH);
    mkdirSync(dirname(node), { recursive: true });
    copyFileSync(o.node.path, node);
    chmodSync(node, 0o755);
    copyModules(o.checkout, lockText, rootfs);
  });
  recordBuild(cache, { ref, key, versions: [{ name: "node", version: o.node.version }] }, started);
  await run(["umoci", "gc", "--layout", cache.layout]);
  return key;
}

/** Builds the image of a `checkout` spec unless current; the layout tag `layoutRef(spec)` names it. */
export async function buildCheckoutImage(
  spec: ImageSpec,
  root: BuilderRoot,
  cache: ImageCache,
  opts: CheckoutOptions,
  log: (line: string) => void = () => {},
): Promise<BuildResult> {
  const o: Required<CheckoutOptions> = {
    checkout: opts.checkout,
    node: opts.node ?? { path: process.execPath, version: process.version },
  };
  const runtime = await ensureRuntime(spec, root, cache, o, log);
  const files = appFiles(o.checkout);
  const key = appKey(runtime, spec, filesDigest(o.checkout, files));
  const ref = layoutRef(spec);
  const prior = currentRecord(cache, ref, key);
  if (prior) return { spec, record: prior, cached: true };
  log(`building ${spec.name}:${spec.tag} from ${o.checkout}`);
  const started = Date.now();
  const scratch = `${ref}-building`;
  const image = `${cache.layout}:${scratch}`;
  await run(["umoci", "tag", "--image", `${cache.layout}:${spec.name}-runtime`, scratch]);
  try {
    await insertLayer(cache, scratch, image, (rootfs) => {
      for (const f of files) {
        const to = join(rootfs, APP_DIR, f);
        mkdirSync(dirname(to), { recursive: true });
        copyFileSync(join(o.checkout, f), to);
      }
    });
    const { version } = JSON.parse(readFileSync(join(o.checkout, "package.json"), "utf8")) as {
      version?: string;
    };
    const labels: Record<string, string> = {
      "io.hearth.image.key": key,
      "org.opencontainers.image.title": spec.name,
      "org.opencontainers.image.description": `${spec.name}:${spec.tag}: Hearth's CLI from a checkout, on Node.js ${o.node.version}`,
    };
    if (version) labels["org.opencontainers.image.version"] = version;
    await run(umociConfigArgv(image, spec.config, labels));
    await run(["umoci", "tag", "--image", image, ref]);
  } finally {
    await run(["umoci", "rm", "--image", image]).catch(() => "");
  }
  const versions = [{ name: "node", version: o.node.version }];
  return { spec, record: recordBuild(cache, { ref, key, versions }, started), cached: false };
}
