/** ControllerRevisions of StatefulSets and DaemonSets (kube's controller history). */
export {
  ensureUpdateRevision,
  type HistoryOwner,
  listRevisions,
  revisionData,
  sameData,
  templateOf,
  truncateHistory,
  type UpdateRevision,
} from "./history.js";
export { revisionHash, revisionName } from "./revision-hash.js";
