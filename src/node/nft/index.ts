/**
 * Services in the kernel, as kube-proxy's nftables mode: the ruleset of one
 * Hearth's table rendered from Services and EndpointSlices, the `nft` command
 * that applies it atomically, and the controller that keeps it current
 * (deleting the conntrack entries of UDP flows each rebuild leaves stale).
 * See docs/networking.md.
 */
export {
  applyScript,
  deleteTable,
  NftError,
  type NftOptions,
  tableContents,
  tableExists,
} from "./nft.js";
export { type Ruleset, renderRuleset } from "./ruleset.js";
export {
  registerServiceRules,
  type ServiceRulesOptions,
  startServiceRules,
  tableNameFor,
} from "./service-rules.js";
export type {
  EndpointSliceObject,
  NodeFacts,
  ServiceObject,
  TableContents,
} from "./types.js";
