/**
 * Builds one image of the spec list into the cache's OCI layout, unless the
 * record of its last build has the key computed now (then nothing is run but
 * the version look-up, which reads the builder root's apt lists offline).
 * - apt images: the base unpacked with umoci, the packages installed into it
 *   with apt in a private namespace (see `aptInstallScript`), repacked as one
 *   more layer — apt rather than `dpkg -x` because maintainer scripts make the
 *   users, groups and alternatives the programs need;
 * - extract images: the packages' .debs (exact versions) fetched by apt in the
 *   builder root and unpacked with `dpkg-deb -x` onto an empty root, one layer;
 * - pause: one static binary compiled with gcc, one layer.
 * Then `umoci config` sets the spec's config and labels, and the record is written.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BASE_REF, type BuilderRoot, ensureLayout, inRoot } from "./builder-root.js";
import {
  type BuildRecord,
  currentRecord,
  type ImageCache,
  readRecord,
  recordBuild,
  writeRecord,
} from "./cache.js";
import {
  imageKey,
  listsKey,
  type PackageVersion,
  parsePolicyCandidates,
  parseSimulatedInstall,
  sha256,
  upstreamVersion,
} from "./cache-key.js";
import {
  APT_ENV,
  aptInstallScript,
  aptPolicyArgv,
  aptSimulateArgv,
  DPKG_VERSION,
  pauseCompileArgv,
  umociConfigArgv,
  unshareArgv,
} from "./commands.js";
import { run } from "./exec.js";
import { PAUSE_C } from "./pause-source.js";
import { type ImageSpec, layoutRef } from "./specs.js";

export interface BuildResult {
  spec: ImageSpec;
  record: BuildRecord;
  /** True when the cache already held this build. */
  cached: boolean;
}

const aptEnv = () => ({ ...process.env, ...APT_ENV });

/**
 * The commands that make an image from its spec (the apt install script, the
 * umoci config argv) are inputs too: changing how an image is made rebuilds it.
 */
function recipeOf(spec: ImageSpec): string {
  const script = spec.source.kind === "apt" ? aptInstallScript(spec) : "";
  return sha256(JSON.stringify([script, umociConfigArgv("", spec.config, {})]));
}

/** The versions that decide an image's contents, and any extra input. */
async function inputs(
  spec: ImageSpec,
  root: BuilderRoot,
): Promise<{ versions: PackageVersion[]; extra: string }> {
  const src = spec.source;
  if (src.kind === "apt") {
    const out = await run(aptSimulateArgv(root.root, src.packages), { env: aptEnv() });
    return { versions: parseSimulatedInstall(out), extra: "" };
  }
  if (src.kind === "extract") {
    const out = await run(aptPolicyArgv(root.root, src.packages), { env: aptEnv() });
    return { versions: parsePolicyCandidates(out, src.packages), extra: "" };
  }
  const gcc = (await run(["gcc", "-dumpfullversion"])).trim();
  const libc = await run(["dpkg-query", "-W", "-f", DPKG_VERSION, "libc6-dev"]).catch(() => "");
  if (libc === "") throw new Error("the pause image needs libc6-dev (static libc) besides gcc");
  return {
    versions: [
      { name: "gcc", version: gcc },
      { name: "libc6-dev", version: libc },
    ],
    extra: sha256(PAUSE_C),
  };
}

function removeDocs(rootfs: string): Promise<string> {
  return run([
    "sh",
    "-euc",
    'cd "$1"; [ ! -d usr/share/doc ] || find usr/share/doc -type f ! -name copyright -delete; rm -rf usr/share/man usr/share/info usr/share/lintian',
    "sh",
    rootfs,
  ]);
}

async function stageExtract(
  spec: ImageSpec,
  versions: PackageVersion[],
  root: BuilderRoot,
  stage: string,
) {
  const dl = join(root.root, "tmp", `hearth-${layoutRef(spec)}`);
  rmSync(dl, { recursive: true, force: true });
  mkdirSync(dl, { recursive: true });
  try {
    const pins = versions.map((v) => `${v.name}=${v.version}`);
    await inRoot(root.root, [
      "sh",
      "-euc",
      'cd "$1"; shift; apt-get download -q "$@"',
      "sh",
      dl.slice(root.root.length),
      ...pins,
    ]);
    for (const deb of readdirSync(dl).filter((f) => f.endsWith(".deb")))
      await run(["dpkg-deb", "-x", join(dl, deb), stage]);
  } finally {
    rmSync(dl, { recursive: true, force: true });
  }
  await removeDocs(stage);
  if (spec.setup?.length) await run(["sh", "-euc", spec.setup.join("\n")], { cwd: stage });
}

async function buildLayers(
  spec: ImageSpec,
  versions: PackageVersion[],
  root: BuilderRoot,
  cache: ImageCache,
) {
  const image = `${cache.layout}:${layoutRef(spec)}`;
  const work = join(cache.work, layoutRef(spec));
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    await run(["umoci", "rm", "--image", image]).catch(() => "");
    if (spec.source.kind === "apt") {
      const bundle = join(work, "bundle");
      await run(["umoci", "unpack", "--image", `${cache.layout}:${BASE_REF}`, bundle]);
      const lists = join(root.root, "var/lib/apt/lists");
      const debs = join(root.root, "var/cache/apt/archives");
      await run(unshareArgv(aptInstallScript(spec), [join(bundle, "rootfs"), lists, debs]), {
        env: aptEnv(),
      });
      await run(["umoci", "repack", "--image", image, bundle]);
      return;
    }
    const stage = join(work, "rootfs");
    mkdirSync(stage);
    if (spec.source.kind === "extract") await stageExtract(spec, versions, root, stage);
    else await run(pauseCompileArgv(join(stage, "pause")), { input: PAUSE_C });
    await run(["umoci", "new", "--image", image]);
    await run(["umoci", "insert", "--image", image, stage, "/"]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Builds `spec` unless current; the layout tag `layoutRef(spec)` names the result. */
export async function buildImage(
  spec: ImageSpec,
  root: BuilderRoot,
  cache: ImageCache,
  log: (line: string) => void = () => {},
): Promise<BuildResult> {
  if (spec.source.kind === "checkout")
    throw new Error(`${spec.name}: not a Debian image (buildCheckoutImage builds it)`);
  const ref = layoutRef(spec);
  const base = spec.source.kind === "apt" ? root.key : "";
  // Versions are a function of the apt lists, the base and the packages asked
  // for: while those are unchanged the record stands without asking apt.
  const listed =
    spec.source.kind === "pause" ? undefined : listsKey(spec, base, root.lists, recipeOf(spec));
  const prior = readRecord(cache, ref);
  if (listed !== undefined && prior?.listsKey === listed && currentRecord(cache, ref, prior.key))
    return { spec, record: prior, cached: true };
  const { versions, extra } = await inputs(spec, root);
  const key = imageKey(spec, base, versions, `${extra}\n${recipeOf(spec)}`);
  const cached = currentRecord(cache, ref, key);
  if (cached) {
    const record = { ...cached, listsKey: listed };
    writeRecord(cache, record);
    return { spec, record, cached: true };
  }
  log(`building ${spec.name}:${spec.tag}`);
  const started = Date.now();
  await ensureLayout(cache);
  await buildLayers(spec, versions, root, cache);
  const main = spec.source.kind === "pause" ? undefined : spec.source.packages[0];
  const version = versions.find((v) => v.name === main)?.version;
  const labels: Record<string, string> = {
    "io.hearth.image.key": key,
    "org.opencontainers.image.title": spec.name,
    "org.opencontainers.image.description": `${spec.name}:${spec.tag} built by Hearth from Debian ${"bookworm"} packages`,
  };
  if (version) labels["org.opencontainers.image.version"] = upstreamVersion(version);
  await run(umociConfigArgv(`${cache.layout}:${ref}`, spec.config, labels));
  const record = recordBuild(cache, { ref, key, versions, listsKey: listed }, started);
  return { spec, record, cached: false };
}
