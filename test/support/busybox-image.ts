/**
 * A minimal OCI image for container tests, made offline from Debian's
 * busybox-static: `umoci init/new/unpack`, /bin/busybox plus one symlink per
 * applet, `umoci repack`, a config whose CMD is `/bin/sleep 2147483647` (so
 * the same image serves as the CRI sandbox — "pause" — image for now), then
 * `skopeo copy` to a docker-archive named BUSYBOX_IMAGE and `ctr images
 * import` into a containerd's `k8s.io` namespace, where CRI sees it. The
 * registry name `.invalid` never resolves, so nothing is ever pulled.
 * (The real image pipeline is src/images/; this is only a test fixture.)
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";

export const BUSYBOX_IMAGE = "hearth.invalid/busybox:test";
export const BUSYBOX_BIN = "/bin/busybox";

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Why the image cannot be built here, or undefined when it can. */
export function busyboxImageMissing(): string | undefined {
  for (const tool of ["umoci", "skopeo", "ctr"])
    try {
      run(tool, ["--version"]);
    } catch {
      return `${tool} is not installed`;
    }
  // Debian's busybox-static; the dynamic `busybox` package would find no libc in the image.
  if (!existsSync(BUSYBOX_BIN)) return `${BUSYBOX_BIN} is missing (Debian package busybox-static)`;
  return undefined;
}

/** Builds the image under `workDir` (removed afterwards); returns the docker-archive path. */
export function buildBusyboxArchive(workDir: string): string {
  const layout = join(workDir, "oci");
  const bundle = join(workDir, "bundle");
  const image = `${layout}:busybox`;
  const archive = join(workDir, "busybox.tar");
  mkdirSync(workDir, { recursive: true });
  run("umoci", ["init", "--layout", layout]);
  run("umoci", ["new", "--image", image]);
  run("umoci", ["unpack", "--image", image, bundle]);
  const rootfs = join(bundle, "rootfs");
  for (const d of ["bin", "etc", "tmp", "proc", "dev", "sys"])
    mkdirSync(join(rootfs, d), { recursive: true });
  copyFileSync(BUSYBOX_BIN, join(rootfs, "bin/busybox"));
  for (const applet of run(BUSYBOX_BIN, ["--list"]).split("\n"))
    if (applet && applet !== "busybox") symlinkSync("busybox", join(rootfs, "bin", applet));
  run("umoci", ["repack", "--image", image, bundle]);
  run("umoci", [
    "config",
    "--image",
    image,
    "--config.env",
    "PATH=/bin",
    "--config.cmd",
    "/bin/sleep",
    "--config.cmd",
    "2147483647",
  ]);
  run("skopeo", ["copy", `oci:${image}`, `docker-archive:${archive}:${BUSYBOX_IMAGE}`]);
  rmSync(layout, { recursive: true, force: true });
  rmSync(bundle, { recursive: true, force: true });
  return archive;
}

/** Imports a docker-archive into the containerd on `socket` (namespace k8s.io, unpacked). */
export function importImage(socket: string, archive: string): void {
  run("ctr", ["--address", socket, "--namespace", "k8s.io", "images", "import", archive]);
}
