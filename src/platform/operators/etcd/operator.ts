/**
 * The etcd operator on the platform's Manager: the EtcdCluster and EtcdMember
 * controllers. A cluster is looked at when it, one of its members or one of
 * its pods changes (and periodically, for etcd's health, which no event tells
 * of); a member when it, its cluster, its pod or its Service changes. The
 * operator's pods are watched (and cached) with its own selector; Services
 * with every other controller's (one shared informer). The leave deadline of
 * a member runs on the Manager's Clock. Its CRDs are installed before it starts
 * (`crds.ts`).
 */
import type { KubeObject } from "../../../api/index.js";
import { EventRecorder } from "../../../client/index.js";
import { type Manager, type Request, requestOf } from "../../../runtime/index.js";
import { flushOnStop } from "../../events-runnable.js";
import { ClusterReconciler } from "./cluster-reconciler.js";
import { MemberReconciler } from "./member-reconciler.js";
import {
  ETCD_API_VERSION,
  type EtcdMember,
  LABEL_CLUSTER,
  LABEL_COMPONENT,
  MANAGER,
  OPERATOR_PODS,
} from "./types.js";

export interface EtcdOperatorOptions {
  log?(msg: string, err?: unknown): void;
}

const CLUSTER = { apiVersion: ETCD_API_VERSION, kind: "EtcdCluster" };
const MEMBER = { apiVersion: ETCD_API_VERSION, kind: "EtcdMember" };
const POD = { apiVersion: "v1", kind: "Pod" };
const SERVICE = { apiVersion: "v1", kind: "Service" };

/** The request for the object named by `label` in `obj`'s namespace, if it has the label. */
const byLabel =
  (label: string) =>
  (obj: KubeObject): Request[] => {
    const name = obj.metadata.labels?.[label];
    const namespace = obj.metadata.namespace;
    return name && namespace ? [{ namespace, name }] : [];
  };

/** Builds the operator's two controllers on `manager`. */
export function registerEtcdOperator(manager: Manager, opts: EtcdOperatorOptions = {}): void {
  const log = opts.log ?? (() => {});
  const { client, cache, clock } = manager;
  const events = new EventRecorder(client, {
    component: MANAGER,
    onError: (e) => log("etcd operator: event", e),
  });
  const clusterOf = (m: KubeObject): Request[] => [
    { namespace: m.metadata.namespace ?? "", name: (m as EtcdMember).spec.cluster },
  ];
  // A cluster's change (replicas, deletion) matters to its members too.
  const membersOf = (c: KubeObject): Request[] =>
    cache
      .informer(MEMBER)
      .informer.list()
      .filter(
        (m) =>
          m.metadata.namespace === c.metadata.namespace &&
          (m as EtcdMember).spec.cluster === c.metadata.name,
      )
      .map(requestOf);
  manager
    .controller("etcdcluster")
    .for(CLUSTER)
    .watches(MEMBER, clusterOf)
    .watches(POD, byLabel(LABEL_CLUSTER), { scope: OPERATOR_PODS })
    .workers(2)
    .complete(new ClusterReconciler(client, events, cache));
  manager
    .controller("etcdmember")
    .for(MEMBER)
    .watches(CLUSTER, membersOf)
    .watches(POD, byLabel(LABEL_COMPONENT), { scope: OPERATOR_PODS })
    // Its Service (read from the cache): the member starts once it has an address.
    .owns(SERVICE)
    .workers(2)
    .complete(new MemberReconciler(client, events, { cache, clock }));
  manager.add(flushOnStop(events));
}
