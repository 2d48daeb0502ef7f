/** The etcd operator: EtcdCluster and EtcdMember (`etcd.hearth.io/v1alpha1`) and their controllers. */
export { ETCD_CLUSTER_CRD, ETCD_CRDS, ETCD_MEMBER_CRD } from "./crds.js";
export { effectiveOptions } from "./member-pod.js";
export { type EtcdOperatorOptions, runEtcdOperator } from "./operator.js";
export {
  clientServiceName,
  clusterLabels,
  ETCD_API_VERSION,
  ETCD_GROUP,
  type EtcdCluster,
  type EtcdClusterSpec,
  type EtcdMember,
  LABEL_CLUSTER,
  MANAGER as ETCD_OPERATOR_MANAGER,
} from "./types.js";
