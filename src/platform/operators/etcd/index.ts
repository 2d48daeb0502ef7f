/** The etcd operator: EtcdCluster and EtcdMember (`etcd.hearth.io/v1alpha1`) and their controllers. */
import type { Component } from "../../component.js";
import { ETCD_CRDS } from "./crds.js";
import { registerEtcdOperator } from "./operator.js";

export { ETCD_CLUSTER_CRD, ETCD_CRDS, ETCD_MEMBER_CRD } from "./crds.js";
export { effectiveOptions } from "./member-pod.js";
export { type EtcdOperatorOptions, registerEtcdOperator } from "./operator.js";
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

export const etcdOperatorComponent: Component = {
  name: "etcd-operator",
  crds: ETCD_CRDS,
  controllers: [{ name: "etcd-operator", register: registerEtcdOperator }],
};
export { dialEtcd, type EtcdCredentials } from "./etcd-api.js";
export { CLIENT_PORT, dataClaimName } from "./types.js";
