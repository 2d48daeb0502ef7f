/**
 * The etcd operator: runs the EtcdCluster and EtcdMember controllers on
 * informers — a cluster is looked at when it, one of its members or one of
 * its pods changes (and periodically, for health); a member when it or its
 * pod changes. Its CRDs are installed before it starts (`crds.ts`).
 */
import type { KubeObject } from "../../../api/index.js";
import { type Client, EventRecorder } from "../../../client/index.js";
import { Controller, Informer, objectKey } from "../../../runtime/index.js";
import { ClusterReconciler } from "./cluster-reconciler.js";
import { MemberReconciler } from "./member-reconciler.js";
import {
  ETCD_API_VERSION,
  type EtcdMember,
  LABEL_CLUSTER,
  LABEL_COMPONENT,
  LABEL_MANAGED_BY,
  MANAGER,
} from "./types.js";

export interface EtcdOperatorOptions {
  log?(msg: string, err?: unknown): void;
}

/** Runs until `signal` aborts. */
export async function runEtcdOperator(
  client: Client,
  signal: AbortSignal,
  opts: EtcdOperatorOptions = {},
): Promise<void> {
  const log = opts.log ?? (() => {});
  const events = new EventRecorder(client, {
    component: MANAGER,
    onError: (e) => log("etcd operator: event", e),
  });
  const clusters = new Controller(new ClusterReconciler(client, events), {
    name: "etcdcluster",
    workers: 2,
    onError: (key, err) => log(`EtcdCluster ${key}`, err),
  });
  const members = new Controller(new MemberReconciler(client, events), {
    name: "etcdmember",
    workers: 2,
    onError: (key, err) => log(`EtcdMember ${key}`, err),
  });
  const informer = (apiVersion: string, kind: string, labelSelector?: string) =>
    new Informer(client, {
      apiVersion,
      kind,
      ...(labelSelector ? { labelSelector } : {}),
      onError: (e) => log(`etcd operator: ${kind} informer`, e),
    });
  const clusterInformer = informer(ETCD_API_VERSION, "EtcdCluster");
  const memberInformer = informer(ETCD_API_VERSION, "EtcdMember");
  const podInformer = informer("v1", "Pod", `${LABEL_MANAGED_BY}=${MANAGER}`);

  // A cluster's change (replicas, deletion) matters to its members too.
  const onCluster = (o: KubeObject) => {
    clusters.enqueue(objectKey(o));
    for (const m of memberInformer.list())
      if (
        m.metadata.namespace === o.metadata.namespace &&
        (m as EtcdMember).spec.cluster === o.metadata.name
      )
        members.enqueue(objectKey(m));
  };
  clusterInformer.addHandlers({
    onAdd: onCluster,
    onUpdate: (_o, n) => onCluster(n),
    onDelete: onCluster,
  });
  const onMember = (o: KubeObject) => {
    members.enqueue(objectKey(o));
    clusters.enqueue(`${o.metadata.namespace}/${(o as EtcdMember).spec.cluster}`);
  };
  memberInformer.addHandlers({
    onAdd: onMember,
    onUpdate: (_o, n) => onMember(n),
    onDelete: onMember,
  });
  const onPod = (o: KubeObject) => {
    const labels = o.metadata.labels ?? {};
    const ns = o.metadata.namespace;
    if (labels[LABEL_COMPONENT]) members.enqueue(`${ns}/${labels[LABEL_COMPONENT]}`);
    if (labels[LABEL_CLUSTER]) clusters.enqueue(`${ns}/${labels[LABEL_CLUSTER]}`);
  };
  podInformer.addHandlers({ onAdd: onPod, onUpdate: (_o, n) => onPod(n), onDelete: onPod });

  const informers = [clusterInformer, memberInformer, podInformer];
  const running = informers.map((i) => i.run(signal));
  const synced = await Promise.all(informers.map((i) => i.waitForSync(signal)));
  if (synced.every(Boolean)) await Promise.all([clusters.run(signal), members.run(signal)]);
  await Promise.all(running);
  await events.flush();
}
