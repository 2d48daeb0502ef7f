/**
 * The bubblewrap command line that runs one container. The pod's root is built
 * from read-only binds (`/usr`, `/etc`, and `/lib`, `/bin`… as the host has
 * them: symlinks where the host has merged-/usr symlinks), a fresh `/proc` and
 * `/dev`, and tmpfs at `/tmp`, `/var` and `/run`, so that a volume bound at
 * `/var/lib/x` gets its mount point inside the tmpfs and nothing is created on
 * the host. No `--bind / /`: that would create mount points on the host.
 *
 * The container runs in a new session (`--new-session`: its process group is
 * its pid, so a signal to the group reaches its children but not bwrap), with
 * its own hostname (`--unshare-uts`), and `--json-status-fd` reports its pid and
 * later its exit code to a file even while no agent is watching. No
 * `--die-with-parent`: pods outlive an agent crash (probes, which must not, use it).
 */
import { lstatSync, readlinkSync } from "node:fs";

export interface Mount {
  source: string;
  target: string;
  readOnly: boolean;
}

export interface SandboxSpec {
  /** argv of the container process (argv[0] is looked up in PATH when not absolute). */
  command: string[];
  hostname: string;
  workingDir: string;
  mounts: Mount[];
  /** The child fd on which bwrap writes its JSON status (pid, exit code). */
  statusFd?: number;
  /** Probes: the sandbox dies with the agent. */
  dieWithParent?: boolean;
}

/** How the host lays out `/lib`, `/bin`…: a symlink's target, or "dir" for a real directory. */
export type HostLayout = Record<string, string>;

const TOP_LEVEL = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

export function hostLayout(): HostLayout {
  const out: HostLayout = {};
  for (const p of TOP_LEVEL) {
    try {
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[p] = readlinkSync(p);
      else if (st.isDirectory()) out[p] = "dir";
    } catch {
      // absent on this host: not in the sandbox either
    }
  }
  return out;
}

/** Parents before children, so a mount inside another volume lands on top of it. */
function byDepth(a: Mount, b: Mount): number {
  const depth = (m: Mount) => m.target.split("/").filter(Boolean).length;
  return depth(a) - depth(b) || a.target.localeCompare(b.target);
}

export function sandboxArgs(spec: SandboxSpec, layout: HostLayout): string[] {
  const args = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"];
  for (const [path, kind] of Object.entries(layout).sort()) {
    if (kind === "dir") args.push("--ro-bind", path, path);
    else args.push("--symlink", kind, path);
  }
  args.push(
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--tmpfs",
    "/var",
    "--tmpfs",
    "/run",
    "--symlink",
    "../run",
    "/var/run",
    "--dir",
    "/root",
  );
  for (const m of [...spec.mounts].sort(byDepth))
    args.push(m.readOnly ? "--ro-bind" : "--bind", m.source, m.target);
  args.push("--chdir", spec.workingDir || "/");
  args.push("--unshare-uts", "--hostname", spec.hostname);
  args.push("--new-session");
  if (spec.dieWithParent) args.push("--die-with-parent");
  if (spec.statusFd !== undefined) args.push("--json-status-fd", String(spec.statusFd));
  args.push("--", ...spec.command);
  return args;
}

/** Mount targets bwrap cannot create: below the read-only `/usr` and `/etc` binds. */
export function isUnderReadOnlyRoot(target: string): boolean {
  return /^\/(usr|etc)(\/|$)/.test(target);
}
