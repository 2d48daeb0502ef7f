/**
 * The node lifecycle controller: node health from Leases (Ready=Unknown and the
 * unreachable taints for a silent node), taint eviction, and pod GC of pods
 * whose node is gone or unreachable. See docs/node-lifecycle.md.
 */
export {
  NodeLifecycleController,
  type NodeLifecycleLoops,
  type NodeLifecycleOptions,
} from "./node-lifecycle-controller.js";
