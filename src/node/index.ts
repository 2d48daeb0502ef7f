/**
 * The node agent: runs the Pods bound to this node as containers through CRI
 * on a containerd (its own, supervised, or one it is pointed at), each in its
 * own network namespace on the node's pod CIDR, with volumes, probes,
 * restarts and logs, and adopts them after its own restart; the node's
 * Services as nftables rules (kube-proxy's nftables mode) and the routes to
 * other nodes' pod CIDRs. See docs/node-agent.md and docs/networking.md.
 */
export { NodeAgent } from "./agent.js";
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
export { HEARTH_ROOT } from "./hearth-root.js";
export {
  type LogLookup,
  LogServer,
  type LogServerOptions,
  type LogTarget,
  type NodeApiTls,
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
  defaultNodeName,
} from "./options.js";
export { podsOf } from "./pod-scope.js";
export { PodDirs, type PodState } from "./pod-state.js";
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
export type { Summary, SummaryJson } from "./stats/index.js";
export { StreamServer } from "./streaming/index.js";
