/**
 * The builder root and the base image. The builder root is `debootstrap
 * --variant=minbase bookworm`, made once (into a temporary directory renamed
 * into place, so a killed debootstrap leaves nothing that looks finished),
 * configured so that packages installed later bring no documentation, man
 * pages or translations (dpkg path-exclude, as Debian's slim images do), with
 * bookworm-updates and bookworm-security added to its sources. Packages are
 * never installed into it; it only resolves, downloads and is copied.
 * The base image is that root without its apt lists, .deb cache, device nodes
 * and resolver file, as one layer under the layout tag `base`.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { currentRecord, type ImageCache, recordBuild } from "./cache.js";
import { baseKey, listsFingerprint } from "./cache-key.js";
import {
  APT_ENV,
  DEFAULT_MIRROR,
  DPKG_PACKAGE_VERSION,
  debootstrapArgv,
  SUITE,
  unshareArgv,
} from "./commands.js";
import { run } from "./exec.js";

export const BASE_REF = "base";

const SOURCES = (mirror: string) =>
  [
    `deb ${mirror} ${SUITE} main`,
    `deb ${mirror} ${SUITE}-updates main`,
    `deb ${mirror.replace(/\/debian\/?$/, "/debian-security")} ${SUITE}-security main`,
    "",
  ].join("\n");

const NODOC = [
  "path-exclude=/usr/share/doc/*",
  "path-include=/usr/share/doc/*/copyright",
  "path-exclude=/usr/share/man/*",
  "path-exclude=/usr/share/info/*",
  "path-exclude=/usr/share/locale/*",
  "path-include=/usr/share/locale/locale.alias",
  "path-exclude=/usr/share/lintian/*",
  "",
].join("\n");

/** Runs argv chrooted in `root` with /proc and the host's resolver, in a private namespace. */
export function inRoot(root: string, argv: readonly string[]): Promise<string> {
  const script = [
    "root=$1; shift",
    'mount -t proc proc "$root/proc"',
    'cp /etc/resolv.conf "$root/etc/resolv.conf"',
    'exec chroot "$root" "$@"',
  ].join("\n");
  return run(unshareArgv(script, [root, ...argv]), { env: { ...process.env, ...APT_ENV } });
}

export interface BuilderRoot {
  root: string;
  /** The base image's key: what is installed in the root, and its sources. */
  key: string;
  /** The fingerprint of its apt lists (`listsFingerprint`). */
  lists: string;
}

export interface RootOptions {
  mirror?: string;
  /** Run `apt-get update` in an existing root (new package versions → new image keys). */
  refresh?: boolean;
  log?: (line: string) => void;
}

function removeDocs(root: string): void {
  for (const dir of ["usr/share/man", "usr/share/info", "usr/share/lintian"])
    rmSync(join(root, dir), { recursive: true, force: true });
  return;
}

async function debootstrap(cache: ImageCache, mirror: string, log: (l: string) => void) {
  const tmp = `${cache.root}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  log(`debootstrap --variant=minbase ${SUITE} (once; about a minute)`);
  await run(debootstrapArgv(tmp, mirror));
  writeFileSync(join(tmp, "etc/apt/sources.list"), SOURCES(mirror));
  writeFileSync(join(tmp, "etc/dpkg/dpkg.cfg.d/01-hearth-nodoc"), NODOC);
  writeFileSync(
    join(tmp, "etc/apt/apt.conf.d/01-hearth"),
    'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n',
  );
  removeDocs(tmp);
  await run([
    "sh",
    "-euc",
    'cd "$1" && find usr/share/doc -type f ! -name copyright -delete && find usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +',
    "sh",
    tmp,
  ]);
  await inRoot(tmp, ["apt-get", "update", "-q"]);
  renameSync(tmp, cache.root);
}

/** The builder root, made if missing; its key. */
export async function ensureBuilderRoot(
  cache: ImageCache,
  opts: RootOptions = {},
): Promise<BuilderRoot> {
  const log = opts.log ?? (() => {});
  mkdirSync(cache.dir, { recursive: true });
  if (!existsSync(join(cache.root, "etc/apt/sources.list")))
    await debootstrap(cache, opts.mirror ?? DEFAULT_MIRROR, log);
  else if (opts.refresh) {
    log("apt-get update in the builder root");
    await inRoot(cache.root, ["apt-get", "update", "-q"]);
  }
  const installed = await run([
    "chroot",
    cache.root,
    "dpkg-query",
    "-W",
    "-f",
    DPKG_PACKAGE_VERSION,
  ]);
  const sources = readFileSync(join(cache.root, "etc/apt/sources.list"), "utf8");
  const listsDir = join(cache.root, "var/lib/apt/lists");
  const releases = new Map(
    readdirSync(listsDir)
      .filter((f) => f.endsWith("InRelease"))
      .map((f) => [f, readFileSync(join(listsDir, f), "utf8")] as const),
  );
  return { root: cache.root, key: baseKey(installed, sources), lists: listsFingerprint(releases) };
}

/** The base image in the layout, made from the builder root unless current. */
export async function ensureBaseImage(
  cache: ImageCache,
  root: BuilderRoot,
  log: (l: string) => void,
) {
  if (currentRecord(cache, BASE_REF, root.key)) return;
  const started = Date.now();
  log("base image from the builder root");
  const stage = join(cache.work, BASE_REF);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(cache.work, { recursive: true });
  await run(["cp", "-a", root.root, stage]);
  await run([
    "sh",
    "-euc",
    'cd "$1" && rm -rf var/lib/apt/lists/* var/cache/apt/* dev/* tmp/* etc/resolv.conf etc/hostname',
    "sh",
    stage,
  ]);
  mkdirSync(join(stage, "var/lib/apt/lists/partial"), { recursive: true });
  mkdirSync(join(stage, "var/cache/apt/archives/partial"), { recursive: true });
  await ensureLayout(cache);
  await run(["umoci", "rm", "--image", `${cache.layout}:${BASE_REF}`]).catch(() => "");
  await run(["umoci", "new", "--image", `${cache.layout}:${BASE_REF}`]);
  await run(["umoci", "insert", "--image", `${cache.layout}:${BASE_REF}`, stage, "/"]);
  rmSync(stage, { recursive: true, force: true });
  recordBuild(cache, { ref: BASE_REF, key: root.key, versions: [] }, started);
}

export async function ensureLayout(cache: ImageCache): Promise<void> {
  if (!existsSync(join(cache.layout, "index.json"))) {
    rmSync(cache.layout, { recursive: true, force: true });
    await run(["umoci", "init", "--layout", cache.layout]);
  }
}
