/**
 * Hearth's own containerd: its layout under the data directory, its
 * configuration, and the supervisor that starts (or adopts), watches and
 * stops it. See supervisor.ts for what survives a `kill -9` of Hearth.
 */
export { type ContainerdConfigOptions, renderContainerdConfig } from "./config.js";
export { type ContainerdLayout, containerdLayout, socketPathFor } from "./layout.js";
export { type ContainerdOptions, ContainerdSupervisor, checkCanRun } from "./supervisor.js";
