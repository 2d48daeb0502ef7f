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

/** One hosts.toml: the fallback server (if any) and the local registry as a pull mirror. */
export function renderHostsToml(server: string, mirror?: string): string {
  const lines = [
    "# Written by Hearth (src/node/containerd/registry-hosts.ts) on every start; edits are lost.",
    `server = ${tomlString(server)}`,
  ];
  if (mirror !== undefined)
    lines.push(
      "",
      `[host.${tomlString(`http://${mirror}`)}]`,
      '  capabilities = ["pull", "resolve"]',
    );
  return `${lines.join("\n")}\n`;
}

/**
 * Writes the hosts files for a local registry on `address` (`127.0.0.1:PORT`)
 * into `configDir`, replacing whatever was there (a previous start's port).
 */
export function writeRegistryHosts(configDir: string, address: string): void {
  rmSync(configDir, { recursive: true, force: true });
  const write = (host: string, text: string) => {
    mkdirSync(join(configDir, host), { recursive: true });
    writeFileSync(join(configDir, host, "hosts.toml"), text);
  };
  for (const [host, server] of Object.entries(MIRRORED_REGISTRIES))
    write(host, renderHostsToml(server, address));
  write(address, renderHostsToml(`http://${address}`));
}
