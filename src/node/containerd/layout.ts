/**
 * Where a Hearth's own containerd keeps everything, all under the Hearth
 * data directory so two Hearths on one machine never share a containerd:
 *
 *   DIR/containerd/config.toml     the configuration this supervisor writes
 *   DIR/containerd/root/           containerd's root (content, snapshots, metadata)
 *   DIR/containerd/state/          its state (task bundles, CRI sandboxes' shm, runc's root)
 *   DIR/containerd/cni/net.d/      the pod network's CNI conflist (cni.ts)
 *   DIR/containerd/cni/ipam/       host-local IPAM's leases (instead of /var/lib/cni)
 *   DIR/containerd/certs.d/        registry hosts configuration (registry-hosts.ts)
 *   DIR/containerd/containerd.log  its stdout and stderr
 *   DIR/containerd/containerd.pid  the pid and start time of the process serving the socket
 *   DIR/containerd/c.sock          the gRPC socket (and c.sock.ttrpc)
 *
 * A unix socket path has at most 107 bytes (sun_path is 108 with the NUL).
 * When `DIR/containerd/c.sock.ttrpc` would be longer, both sockets move to
 * `/run/hearth/<first 16 hex of sha256(DIR)>/` instead (root-only, 0700),
 * which is as private and as stable for the same DIR.
 *
 * Outside DIR, containerd 1.6 itself puts its shims' sockets under
 * `/run/containerd/s/` (a hard-coded root; each name hashes the containerd
 * socket path, so Hearths do not collide); each is removed with its shim.
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";

export const SOCKET_PATH_MAX = 107;

export interface ContainerdLayout {
  dir: string;
  config: string;
  root: string;
  state: string;
  /** Root of runc's state for the CRI runtime (instead of /run/containerd/runc). */
  runcRoot: string;
  /** The same for containerd's legacy v1 runtime, which 1.6 cannot run without. */
  runcV1Root: string;
  /** containerd's plugin `opt` directory (instead of /opt/containerd). */
  opt: string;
  cniConfDir: string;
  /** host-local IPAM's `dataDir`: one file per leased pod address. */
  cniIpamDir: string;
  /** CNI plugin programs: Debian's containernetworking-plugins, read-only, nothing of ours. */
  cniBinDir: string;
  registryConfigDir: string;
  log: string;
  pidFile: string;
  socket: string;
  ttrpcSocket: string;
}

export const DEBIAN_CNI_BIN_DIR = "/usr/lib/cni";

/** The socket path for DIR: `DIR/containerd/c.sock` when it fits, else under /run/hearth. */
export function socketPathFor(dataDir: string): string {
  const dir = resolve(dataDir);
  const local = join(dir, "containerd", "c.sock");
  if (Buffer.byteLength(`${local}.ttrpc`) <= SOCKET_PATH_MAX) return local;
  const hash = createHash("sha256").update(dir).digest("hex").slice(0, 16);
  return join("/run/hearth", hash, "c.sock");
}

export function containerdLayout(dataDir: string): ContainerdLayout {
  const dir = join(resolve(dataDir), "containerd");
  const socket = socketPathFor(dataDir);
  return {
    dir,
    config: join(dir, "config.toml"),
    root: join(dir, "root"),
    state: join(dir, "state"),
    runcRoot: join(dir, "state", "runc"),
    runcV1Root: join(dir, "state", "runc-v1"),
    opt: join(dir, "opt"),
    cniConfDir: join(dir, "cni", "net.d"),
    cniIpamDir: join(dir, "cni", "ipam"),
    cniBinDir: DEBIAN_CNI_BIN_DIR,
    registryConfigDir: join(dir, "certs.d"),
    log: join(dir, "containerd.log"),
    pidFile: join(dir, "containerd.pid"),
    socket,
    ttrpcSocket: `${socket}.ttrpc`,
  };
}
