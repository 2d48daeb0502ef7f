/**
 * What one member runs: the Pod `<member>` with the real etcd (image `etcd`)
 * listening on its pod IP and advertising its Service's ClusterIP (the stable
 * address: Hearth has no DNS and a recreated pod gets a new IP), TLS on both
 * the client and the peer side with client-certificate checks, metrics and
 * probes on plain http :2381, and its data on the claim `data-<member>`.
 * The initial-* flags only matter on a first start: etcd ignores them once its
 * data directory holds a member, so a recreated pod comes back on its data.
 * The pod carries the app lineage labels of its EtcdCluster (as Cozystack's
 * lineage webhook stamps them), by which the app's WorkloadMonitor finds it.
 */

import type { PersistentVolumeClaim, Pod } from "../../../api/index.js";
import { quantityValue } from "../../../api/index.js";
import { LABEL_APP_GROUP, LABEL_APP_KIND, LABEL_APP_NAME } from "../../apps-api.js";
import { TYPED_OPTIONS } from "./crds.js";
import {
  CLIENT_PORT,
  clientUrl,
  dataClaimName,
  type EtcdCluster,
  type EtcdMember,
  METRICS_PORT,
  memberLabels,
  PEER_PORT,
  peerUrl,
} from "./types.js";

const DATA_DIR = "/var/lib/etcd";
const SERVER_TLS = "/var/run/etcd/server-tls";
const PEER_TLS = "/var/run/etcd/peer-tls";

/** `options` with the defaults filled in: quota 95 % of the volume, periodic 5m compaction, 10000 snapshots. */
export function effectiveOptions(cluster: EtcdCluster): Record<string, string> {
  const opts = cluster.spec.options ?? {};
  const quota = (quantityValue(cluster.spec.storage.size) * 95n) / 100n;
  const typed: Record<string, string | number> = {
    quotaBackendBytes: quota.toString(),
    autoCompactionMode: "periodic",
    autoCompactionRetention: "5m",
    snapshotCount: 10000,
  };
  const out: Record<string, string> = {};
  for (const [key, flag] of Object.entries(TYPED_OPTIONS))
    out[flag] = String(opts[key] ?? typed[key]);
  for (const [key, value] of Object.entries(opts))
    if (!(key in TYPED_OPTIONS)) out[key] = String(value);
  return out;
}

/** etcd's command line for `member` of `cluster` at `address` (its Service's ClusterIP). */
/** The image of every member: Hearth's build of Debian's etcd 3.4 (src/images/specs.ts). */
export const ETCD_IMAGE = "etcd:3.4";

export function etcdArgs(cluster: EtcdCluster, member: EtcdMember, address: string): string[] {
  const podUrl = (port: number) => `https://$(POD_IP):${port}`;
  return [
    `--name=${member.metadata.name}`,
    `--data-dir=${DATA_DIR}`,
    `--listen-client-urls=${podUrl(CLIENT_PORT)}`,
    `--advertise-client-urls=${clientUrl(address)}`,
    `--listen-peer-urls=${podUrl(PEER_PORT)}`,
    `--initial-advertise-peer-urls=${peerUrl(address)}`,
    `--listen-metrics-urls=http://$(POD_IP):${METRICS_PORT}`,
    `--initial-cluster=${member.spec.initialCluster}`,
    `--initial-cluster-state=${member.spec.initialClusterState ?? "new"}`,
    `--initial-cluster-token=${cluster.metadata.uid}`,
    `--cert-file=${SERVER_TLS}/tls.crt`,
    `--key-file=${SERVER_TLS}/tls.key`,
    `--trusted-ca-file=${SERVER_TLS}/ca.crt`,
    "--client-cert-auth",
    `--peer-cert-file=${PEER_TLS}/tls.crt`,
    `--peer-key-file=${PEER_TLS}/tls.key`,
    `--peer-trusted-ca-file=${PEER_TLS}/ca.crt`,
    "--peer-client-cert-auth",
    // Peers reach each other through the members' ClusterIPs, so a peer
    // connection comes from the peer's pod address, which its SANs do not name.
    "--experimental-peer-skip-client-san-verification",
    ...Object.entries(effectiveOptions(cluster)).map(([k, v]) => `--${k}=${v}`),
  ];
}

/** The app lineage labels (application kind, group, name) `cluster` carries. */
export function lineageLabels(cluster: EtcdCluster): Record<string, string> {
  const labels = cluster.metadata.labels ?? {};
  const out: Record<string, string> = {};
  for (const key of [LABEL_APP_KIND, LABEL_APP_GROUP, LABEL_APP_NAME])
    if (labels[key] !== undefined) out[key] = labels[key];
  return out;
}

export function memberPod(cluster: EtcdCluster, member: EtcdMember, address: string): Pod {
  const name = member.metadata.name!;
  const health = { httpGet: { path: "/health", port: METRICS_PORT } };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name,
      namespace: member.metadata.namespace!,
      labels: { ...lineageLabels(cluster), ...memberLabels(cluster.metadata.name!, name) },
      ownerReferences: [ownerRef(member)],
    },
    spec: {
      terminationGracePeriodSeconds: 10,
      containers: [
        {
          name: "etcd",
          // Hearth's etcd image, as its own: the binary is the CMD, so the pod names it.
          image: ETCD_IMAGE,
          command: ["etcd"],
          env: [{ name: "POD_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } }],
          args: etcdArgs(cluster, member, address),
          ports: [
            { name: "client", containerPort: CLIENT_PORT },
            { name: "peer", containerPort: PEER_PORT },
            { name: "metrics", containerPort: METRICS_PORT },
          ],
          readinessProbe: { ...health, periodSeconds: 1, failureThreshold: 3 },
          // Generous: /health fails while a quorum forms or is briefly lost,
          // which is no reason to restart the member.
          livenessProbe: {
            ...health,
            initialDelaySeconds: 30,
            periodSeconds: 5,
            failureThreshold: 12,
          },
          ...(cluster.spec.resources ? { resources: cluster.spec.resources } : {}),
          volumeMounts: [
            { name: "data", mountPath: DATA_DIR },
            { name: "server-tls", mountPath: SERVER_TLS, readOnly: true },
            { name: "peer-tls", mountPath: PEER_TLS, readOnly: true },
          ],
        },
      ],
      volumes: [
        { name: "data", persistentVolumeClaim: { claimName: dataClaimName(name) } },
        {
          name: "server-tls",
          secret: { secretName: cluster.spec.tls.client.serverSecretRef.name },
        },
        { name: "peer-tls", secret: { secretName: cluster.spec.tls.peer.secretRef.name } },
      ],
    },
  };
}

export function memberClaim(cluster: EtcdCluster, member: EtcdMember): PersistentVolumeClaim {
  const name = member.metadata.name!;
  const className = cluster.spec.storage.storageClassName;
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: {
      name: dataClaimName(name),
      namespace: member.metadata.namespace!,
      labels: memberLabels(cluster.metadata.name!, name),
      ownerReferences: [ownerRef(member)],
    },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: cluster.spec.storage.size } },
      ...(className ? { storageClassName: className } : {}),
    },
  };
}

/** The controller owner reference to `obj` (an EtcdCluster or EtcdMember). */
export function ownerRef(obj: EtcdCluster | EtcdMember) {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name!,
    uid: obj.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}
