/**
 * `hearth doctor`'s logic: which deletions are stuck, what holds them, who owns
 * each finalizer, and the one safe next step (docs/doctor.md). A client of the
 * API only: it reads through src/client and writes nothing.
 */
export { analyze, type Finding, type Hold, nextStep, removeCommand } from "./analysis.js";
export { type ClusterView, clusterView } from "./cluster-view.js";
export { collect, type Listed } from "./collect.js";
export {
  type DoctorOptions,
  type DoctorReport,
  diagnose,
  judge,
  somethingStuck,
} from "./diagnose.js";
export {
  CRD_CLEANUP_FINALIZER,
  FINALIZER_OWNERS,
  type FinalizerOwner,
  FOREGROUND_FINALIZER,
  NAMESPACE_FINALIZER,
  ORPHAN_FINALIZER,
  VOLUME_DIRECTORY_FINALIZER,
} from "./finalizers.js";
export { formatReport, formatSeconds } from "./format.js";
export { type NamespaceReport, namespaceReport } from "./namespace-report.js";
