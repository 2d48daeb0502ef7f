/**
 * Registry hosts of a Hearth's containerd: `hosts.toml` files in containerd
 * 1.6's `config_path` format (`DIR/containerd/certs.d/<host>/hosts.toml`),
 * so that the local registry (src/images, `docker-registry` on loopback) is
 * a pull mirror of the registries Hearth's images are published for:
 *
 * - `docker.io`: what `image: nginx:1.22` normalises to
 *   (`docker.io/library/nginx:1.22`); containerd asks the mirror for
 *   `/v2/library/nginx/manifests/1.22`, the path `publish` pushes to.
 * - `registry.k8s.io`: the CRI sandbox image, SANDBOX_IMAGE, asked for as
 *   `/v2/pause/manifests/3.9` (`mirrorPathOf`), so pause is published there too.
 * - `127.0.0.1:PORT` itself, over plain http, for images named by the local
 *   registry's own address.
 *
 * - each registry named with `--insecure-registry` (`InsecureRegistry`):
 *   its own server over plain http, or over https without verifying its
 *   certificate. containerd 1.6 reaches a host without a hosts.toml over
 *   https, except `localhost` and loopback addresses, which it asks over
 *   plain http by itself; any other plain-HTTP registry needs one.
 *
 * Each mirrored registry keeps its real `server` as the fallback, so the same
 * manifests work where it is reachable. Offline, the fallback costs little:
 * the mirror is asked first, and a name the mirror lacks fails on the
 * fallback's DNS lookup at once (measured here: no resolver answers, ~10 ms).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tomlString } from "./config.js";

/** The CRI sandbox ("pause") image, as containerd's `sandbox_image`. */
export const SANDBOX_IMAGE = "registry.k8s.io/pause:3.9";

/** Registries the local one mirrors, with the server each falls back to. */
export const MIRRORED_REGISTRIES: Readonly<Record<string, string>> = {
  "docker.io": "https://registry-1.docker.io",
  "registry.k8s.io": "https://registry.k8s.io",
};

/**
 * The repository path a mirror is asked for when containerd pulls `ref`:
 * `docker.io/library/nginx:1.22` and `nginx:1.22` → `library/nginx:1.22`,
 * `registry.k8s.io/pause:3.9` → `pause:3.9`.
 */
export function mirrorPathOf(ref: string): string {
  const first = ref.split("/")[0]!;
  const hasHost =
    ref.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost");
  if (!hasHost) return ref.includes("/") ? ref : `library/${ref}`;
  const path = ref.slice(first.length + 1);
  return first === "docker.io" && !path.includes("/") ? `library/${path}` : path;
}

/**
 * A registry pulled from without TLS verification, from `--insecure-registry
 * VALUE`: `HOST[:PORT]` or `http://HOST[:PORT]` over plain http,
 * `https://HOST[:PORT]` over TLS without verifying the certificate (a
 * self-signed one). A host only, as containerd configures registries per host.
 */
export interface InsecureRegistry {
  /** The host as image references name it: `127.0.0.1:5000`, `registry.lan`. */
  host: string;
  /** The `server` of its hosts.toml. */
  server: string;
  skipVerify: boolean;
}

const HOST_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d{1,5}))?$/;

/** The registry `--insecure-registry value` names, or why it cannot be one. */
export function parseInsecureRegistry(value: string): InsecureRegistry {
  const refuse = (why: string) => new Error(`--insecure-registry ${JSON.stringify(value)}: ${why}`);
  const scheme = /^(https?):\/\//.exec(value)?.[1];
  const host = scheme ? value.slice(scheme.length + 3).replace(/\/$/, "") : value;
  const m = HOST_PORT.exec(host);
  if (!m || Number(m[2] ?? 0) > 65535)
    throw refuse("must be HOST[:PORT], http://HOST[:PORT] or https://HOST[:PORT], with no path");
  // `reg/app:1` is docker.io/reg/app:1: an image names a registry by a ".", a ":port" or localhost.
  if (!host.includes(".") && !host.includes(":") && host !== "localhost")
    throw refuse('an image names its registry host with a "." or a ":PORT", or as localhost');
  if (host in MIRRORED_REGISTRIES)
    throw refuse("Hearth's local registry is its mirror; it cannot be an insecure registry");
  return { host, server: `${scheme ?? "http"}://${host}`, skipVerify: scheme === "https" };
}

/**
 * One hosts.toml: the server (not verifying its certificate if `skipVerify`),
 * with the local registry before it as a pull mirror, or else the server
 * itself as its one `[host]`: containerd 1.6 refuses a hosts.toml without a
 * `[host]` table ("failed to decode hosts.toml: invalid `host` tree") and
 * falls back to https on the registry's name, so a `server` alone is never read.
 */
export function renderHostsToml(server: string, mirror?: string, skipVerify = false): string {
  const lines = [
    "# Written by Hearth (src/node/containerd/registry-hosts.ts) on every start; edits are lost.",
    `server = ${tomlString(server)}`,
  ];
  if (skipVerify) lines.push("skip_verify = true");
  lines.push(
    "",
    `[host.${tomlString(mirror === undefined ? server : `http://${mirror}`)}]`,
    '  capabilities = ["pull", "resolve"]',
  );
  if (skipVerify && mirror === undefined) lines.push("  skip_verify = true");
  return `${lines.join("\n")}\n`;
}

/**
 * Writes the hosts files for a local registry on `address` (`127.0.0.1:PORT`)
 * and for the `insecure` registries into `configDir`, replacing whatever was
 * there (a previous start's port, a registry no longer named).
 */
export function writeRegistryHosts(
  configDir: string,
  address: string,
  insecure: readonly InsecureRegistry[] = [],
): void {
  rmSync(configDir, { recursive: true, force: true });
  const write = (host: string, text: string) => {
    mkdirSync(join(configDir, host), { recursive: true });
    writeFileSync(join(configDir, host, "hosts.toml"), text);
  };
  for (const [host, server] of Object.entries(MIRRORED_REGISTRIES))
    write(host, renderHostsToml(server, address));
  write(address, renderHostsToml(`http://${address}`));
  for (const r of insecure) write(r.host, renderHostsToml(r.server, undefined, r.skipVerify));
}
