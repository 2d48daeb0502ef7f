/**
 * The argv of every tool the image build and the registry run, as pure
 * functions of a spec and paths, so the exact command lines are tested
 * without running them.
 */
import type { ImageConfig, ImageSpec } from "./specs.js";

export const SUITE = "bookworm";
export const DEFAULT_MIRROR = "http://deb.debian.org/debian";

/** The environment of every apt/dpkg run: no prompts, messages in C. */
export const APT_ENV = { DEBIAN_FRONTEND: "noninteractive", LC_ALL: "C", LANG: "C" } as const;

/** dpkg-query formats (dpkg's own `${field}` syntax, not JavaScript's). */
export const DPKG_VERSION = "$" + "{Version}";
export const DPKG_PACKAGE_VERSION = "$" + "{Package} $" + "{Version}\n";

export function debootstrapArgv(root: string, mirror = DEFAULT_MIRROR): string[] {
  return ["debootstrap", "--variant=minbase", SUITE, root, mirror];
}

/** What apt would install on the minbase root, with versions (`Inst name (version …)` lines). */
export function aptSimulateArgv(root: string, packages: readonly string[]): string[] {
  return ["chroot", root, "apt-get", "install", "-s", "--no-install-recommends", ...packages];
}

/** The candidate version of each package (`apt-cache policy`). */
export function aptPolicyArgv(root: string, packages: readonly string[]): string[] {
  return ["chroot", root, "apt-cache", "policy", ...packages];
}

/** `umoci config` setting every field of `config` (the image starts with an empty config). */
export function umociConfigArgv(
  image: string,
  config: ImageConfig,
  labels: Readonly<Record<string, string>>,
): string[] {
  const argv = ["umoci", "config", "--image", image, "--author", "hearth images build"];
  for (const [k, v] of Object.entries(labels).sort()) argv.push("--config.label", `${k}=${v}`);
  for (const e of config.env ?? []) argv.push("--config.env", e);
  for (const a of config.entrypoint ?? []) argv.push("--config.entrypoint", a);
  for (const a of config.cmd ?? []) argv.push("--config.cmd", a);
  for (const p of config.exposedPorts ?? []) argv.push("--config.exposedports", p);
  for (const v of config.volumes ?? []) argv.push("--config.volume", v);
  if (config.user !== undefined) argv.push("--config.user", config.user);
  if (config.workingDir !== undefined) argv.push("--config.workingdir", config.workingDir);
  if (config.stopSignal !== undefined) argv.push("--config.stopsignal", config.stopSignal);
  return argv;
}

/** Where an image is published in a registry: `library/<name>:<tag>`, Docker Hub's official path. */
export function repositoryOf(spec: Pick<ImageSpec, "name" | "tag">): string {
  return `library/${spec.name}:${spec.tag}`;
}

/** `skopeo copy` of a tag of the cache's OCI layout into a registry on plain HTTP. */
export function publishArgv(
  layout: string,
  ref: string,
  registry: string,
  target: string,
): string[] {
  return [
    "skopeo",
    "copy",
    "--quiet",
    "--dest-tls-verify=false",
    `oci:${layout}:${ref}`,
    `docker://${registry}/${target}`,
  ];
}

/** The static pause binary from its C source on stdin. */
export function pauseCompileArgv(out: string): string[] {
  return ["gcc", "-static", "-Os", "-s", "-Wall", "-Werror", "-o", out, "-x", "c", "-"];
}

/**
 * The script that installs an apt image's packages into `$1` (an unpacked
 * bundle's rootfs): run under `unshare` in a private mount and PID namespace,
 * so the bind mounts of the builder root's apt lists (`$2`) and .deb cache
 * (`$3`), /dev and /proc vanish with it however it ends, and no daemon a
 * maintainer script starts outlives it. policy-rc.d stops services from
 * starting; the lists, the resolver file and apt/dpkg logs stay out of the layer.
 */
export function aptInstallScript(spec: ImageSpec): string {
  if (spec.source.kind !== "apt") throw new Error(`${spec.name}: not an apt image`);
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const inRoot = (lines: readonly string[] | undefined) =>
    lines && lines.length > 0 ? [`chroot "$root" /bin/sh -euc ${q(lines.join("\n"))}`] : [];
  return [
    "root=$1 lists=$2 debs=$3",
    'mount --bind "$lists" "$root/var/lib/apt/lists"',
    'mount --bind "$debs" "$root/var/cache/apt/archives"',
    'mount --rbind /dev "$root/dev"',
    'mount -t proc proc "$root/proc"',
    'cp /etc/resolv.conf "$root/etc/resolv.conf"',
    `printf '#!/bin/sh\\nexit 101\\n' > "$root/usr/sbin/policy-rc.d"`,
    'chmod 755 "$root/usr/sbin/policy-rc.d"',
    ...inRoot(spec.preinstall),
    `chroot "$root" apt-get install -y -q --no-install-recommends ${spec.source.packages.map(q).join(" ")}`,
    ...inRoot(spec.setup),
    'rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"',
    'rm -rf "$root"/var/log/apt/* "$root"/var/log/dpkg.log "$root"/var/log/alternatives.log',
    'rm -f "$root"/var/cache/apt/*.bin "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old "$root"/var/cache/ldconfig/aux-cache',
  ].join("\n");
}

/** Runs `script` with positional arguments in a private mount + PID namespace. */
export function unshareArgv(script: string, args: readonly string[]): string[] {
  return [
    "unshare",
    "--mount",
    "--propagation",
    "private",
    "--pid",
    "--fork",
    "--kill-child",
    "/bin/sh",
    "-euc",
    script,
    "sh",
    ...args,
  ];
}
