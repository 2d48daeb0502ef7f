/**
 * Hearth's own containerd: its layout under the data directory, its
 * configuration, its pod network (CNI) and registry hosts, and the supervisor that starts (or adopts), watches and
 * stops it. See supervisor.ts for what survives a `kill -9` of Hearth.
 */
export {
  bridgeName,
  checkPodCidrFree,
  DEFAULT_CRI_POD_CIDR,
  ensurePodBridge,
  parsePodCidr,
  removePodNetwork,
  writePodNetwork,
} from "./cni.js";
export { type ContainerdConfigOptions, renderContainerdConfig } from "./config.js";
export { type ContainerdLayout, containerdLayout, socketPathFor } from "./layout.js";
export {
  type InsecureRegistry,
  mirrorPathOf,
  parseInsecureRegistry,
  SANDBOX_IMAGE,
  writeRegistryHosts,
} from "./registry-hosts.js";
export { type ContainerdOptions, ContainerdSupervisor, checkCanRun } from "./supervisor.js";
