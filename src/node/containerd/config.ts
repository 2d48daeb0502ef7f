/**
 * Renders the configuration (version 2 TOML) of a Hearth's own containerd:
 * root, state and sockets from the layout; the CRI plugin on the overlayfs
 * snapshotter with runc as its one runtime (cgroupfs, `SystemdCgroup =
 * false`: no systemd here, cgroups v1); CNI directories under DIR (cni.ts
 * writes the pod network there) and sandboxes' network namespaces under its
 * state; registry hosts under DIR (registry-hosts.ts); the sandbox ("pause")
 * image, pulled through those hosts when absent; the stream server on
 * 127.0.0.1 on a free port; no debug or metrics socket. The snapshotters this
 * machine cannot use are disabled; the legacy v1 runtime cannot be (1.6's
 * tasks service requires it), so its runc root is moved under DIR too:
 * nothing falls back to the host-wide /run/containerd or /var/lib/containerd.
 *
 * Without any CNI network configuration, containerd 1.6 starts and reports
 * `NetworkReady=false`; a sandbox in the node's network namespace
 * (NamespaceMode NODE) still runs, one with its own network namespace fails
 * with "cni plugin not initialized" until a configuration exists.
 */
import type { ContainerdLayout } from "./layout.js";

export interface ContainerdConfigOptions {
  /** The image CRI starts as each sandbox's first process; never pulled if present. */
  sandboxImage: string;
  /** `info` (default) or `debug`. */
  logLevel?: "debug" | "info" | "warn" | "error";
}

/** Plugins that would fail here or act outside DIR; disabling them keeps the log clean. */
export const DISABLED_PLUGINS = [
  "io.containerd.snapshotter.v1.aufs",
  "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper",
  "io.containerd.snapshotter.v1.zfs",
  "io.containerd.tracing.processor.v1.otlp",
  "io.containerd.internal.v1.tracing",
] as const;

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}

export function renderContainerdConfig(
  layout: ContainerdLayout,
  opts: ContainerdConfigOptions,
): string {
  const s = tomlString;
  const cri = '[plugins."io.containerd.grpc.v1.cri"';
  return [
    "# Written by Hearth (src/node/containerd/config.ts) on every start; edits are lost.",
    "version = 2",
    `root = ${s(layout.root)}`,
    `state = ${s(layout.state)}`,
    `disabled_plugins = [${DISABLED_PLUGINS.map(s).join(", ")}]`,
    "",
    "[grpc]",
    `  address = ${s(layout.socket)}`,
    "",
    "[ttrpc]",
    `  address = ${s(layout.ttrpcSocket)}`,
    "",
    "[debug]",
    '  address = ""',
    `  level = ${s(opts.logLevel ?? "info")}`,
    "",
    "[metrics]",
    '  address = ""',
    "",
    '[plugins."io.containerd.runtime.v1.linux"]',
    `  runtime_root = ${s(layout.runcV1Root)}`,
    "",
    '[plugins."io.containerd.internal.v1.opt"]',
    `  path = ${s(layout.opt)}`,
    "",
    `${cri}]`,
    `  sandbox_image = ${s(opts.sandboxImage)}`,
    '  stream_server_address = "127.0.0.1"',
    '  stream_server_port = "0"',
    "  enable_selinux = false",
    // Sandboxes' network namespaces under DIR's state, not the host-wide /run/netns.
    "  netns_mounts_under_state_dir = true",
    // Without it, CRI gives each sandbox oom_score_adj -998, which runc cannot
    // set where root lacks CAP_SYS_RESOURCE (this VM): every RunPodSandbox fails.
    "  restrict_oom_score_adj = true",
    "",
    `${cri}.containerd]`,
    '  snapshotter = "overlayfs"',
    '  default_runtime_name = "runc"',
    "",
    `${cri}.containerd.runtimes.runc]`,
    '  runtime_type = "io.containerd.runc.v2"',
    "",
    `${cri}.containerd.runtimes.runc.options]`,
    "  SystemdCgroup = false",
    `  Root = ${s(layout.runcRoot)}`,
    "",
    `${cri}.cni]`,
    `  bin_dir = ${s(layout.cniBinDir)}`,
    `  conf_dir = ${s(layout.cniConfDir)}`,
    "",
    `${cri}.registry]`,
    `  config_path = ${s(layout.registryConfigDir)}`,
    "",
  ].join("\n");
}
