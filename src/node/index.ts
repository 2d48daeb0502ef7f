/**
 * The node agent: runs the Pods bound to this node as sandboxed processes
 * (bubblewrap), each on its own loopback IP, with volumes, probes, restarts
 * and logs, and adopts them after its own restart; and the service proxy that
 * forwards each Service's ClusterIP:port to its ready endpoints. See
 * docs/node-agent.md and docs/services-and-scheduling.md. Not wired yet: the
 * CRI client and the containerd supervisor pods will run on, and the Service
 * rules in nftables that will replace the userspace proxy (issue 14).
 */
export { NodeAgent, podsOf } from "./agent.js";
export {
  bridgeName,
  type ContainerdOptions,
  ContainerdSupervisor,
  checkCanRun,
  checkPodCidrFree,
  containerdLayout,
  DEFAULT_CRI_POD_CIDR,
  ensurePodBridge,
  type InsecureRegistry,
  mirrorPathOf,
  parseInsecureRegistry,
  parsePodCidr,
  removePodNetwork,
  SANDBOX_IMAGE,
  writePodNetwork,
  writeRegistryHosts,
} from "./containerd/index.js";
export {
  type ContainerConfig,
  CriClient,
  CriError,
  type PodDnsSettings,
  type PodSandboxConfig,
} from "./cri/index.js";
export { readCriLog } from "./cri-log.js";
export * from "./dns/index.js";
export { DEFAULT_IMAGE_TABLE, HEARTH_ROOT, ImageTable } from "./image-table.js";
export {
  type LogFormat,
  type LogLookup,
  LogServer,
  type LogServerOptions,
  type LogTarget,
} from "./log-server.js";
export {
  applyScript,
  deleteTable,
  NftError,
  registerServiceRules,
  renderRuleset,
  type ServiceRulesOptions,
  startServiceRules,
  tableContents,
  tableExists,
  tableNameFor,
} from "./nft/index.js";
export {
  type AgentOptions,
  type CriAgentOptions,
  DEFAULT_POD_CIDR,
  defaultNodeName,
} from "./options.js";
export { loadState, PodDirs, type PodState } from "./pod-state.js";
export { isRunning, readStat, signalGroup } from "./proc.js";
export {
  HEARTH_ROUTE_PROTOCOL,
  listRoutes,
  type PodRoute,
  podRoutes,
  readRouteInventory,
  registerPodRoutes,
  routeInventoryPath,
} from "./routes/index.js";
export { registerServiceProxy, type ServiceProxy, startServiceProxy } from "./service-proxy.js";
export type { Summary, SummaryJson } from "./stats/index.js";
