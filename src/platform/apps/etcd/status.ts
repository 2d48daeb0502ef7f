/**
 * An Etcd app's workload report, read from its EtcdCluster: ready when the
 * operator has seen the current spec and says Ready (every member a ready
 * voter, auth on); otherwise the operator's own reason and message, with how
 * many members are ready.
 */
import { getOptional, type Reader } from "../../../client/index.js";
import type { App, WorkloadReport } from "../../engine/module.js";
import { ETCD_API_VERSION, type EtcdCluster } from "../../operators/etcd/index.js";

export async function etcdStatus(app: App, reader: Reader): Promise<WorkloadReport> {
  const name = app.metadata.name!;
  const cluster = await getOptional<EtcdCluster>(reader, {
    apiVersion: ETCD_API_VERSION,
    kind: "EtcdCluster",
    name,
    namespace: app.metadata.namespace,
  });
  if (!cluster)
    return {
      ready: false,
      reason: "EtcdClusterMissing",
      message: `EtcdCluster ${name} does not exist yet`,
    };
  const status = cluster.status ?? {};
  const members = `${status.readyMembers ?? 0}/${cluster.spec.replicas} members ready`;
  if ((status.observedGeneration ?? 0) < (cluster.metadata.generation ?? 0))
    return {
      ready: false,
      reason: "EtcdClusterProgressing",
      message: `the operator has not yet acted on the EtcdCluster's current spec; ${members}`,
    };
  const ready = status.conditions?.find((c) => c.type === "Ready");
  if (ready?.status === "True")
    return { ready: true, reason: "EtcdClusterReady", message: `etcd: ${members}` };
  return {
    ready: false,
    reason: ready?.reason ?? "EtcdClusterNotReady",
    message: `${ready?.message ?? "the EtcdCluster is not Ready"}; ${members}`,
  };
}
