/**
 * What an Etcd app renders (Cozystack packages/extra/etcd, on Hearth's etcd
 * operator): the EtcdCluster `etcd` (quota 95 % of the volume, periodic
 * auto-compaction every 5 minutes, snapshot count 10000, auth on, TLS from the
 * five Secrets the operator creates and issues), the DataStore Kamaji control
 * planes of the tenant's subtree use, and the hourly defrag CronJob, which
 * runs `hearth etcd-defrag` against the client Service (found through its
 * service-link variable, as Hearth has no DNS) with the client certificate,
 * and the WorkloadMonitor of the member pods (operational while a quorum of
 * them is Ready), from which the app's `WorkloadsReady` comes.
 */

import type { KubeObject } from "../../../api/index.js";
import { quantityMilliValue, quantityValue } from "../../../api/index.js";
import { DATASTORE_API_VERSION, type DataStore } from "../../datastore/index.js";
import type { App, SpecShape } from "../../engine/module.js";
import {
  CLIENT_PORT,
  clientServiceName,
  clusterLabels,
  ETCD_API_VERSION,
  type EtcdCluster,
} from "../../operators/etcd/index.js";
import { WORKLOAD_MONITOR, type WorkloadMonitor } from "../../workloads-api.js";
import { DEFAULT_DEFRAG_RULE } from "./defrag-rule.js";
import { clientEndpoint, dataStoreName, defragCronJobName, TLS_SECRETS } from "./naming.js";

export interface EtcdAppSpec {
  version?: string;
  size?: string | number;
  storageClass?: string;
  replicas?: number;
  resources?: { cpu?: string | number; memory?: string | number };
}

/** Cozystack's defaults (the definition's schema applies them too). */
const DEFAULTS = { size: "4Gi", replicas: 3, cpu: "1000m", memory: "512Mi" };
/** cozy-lib's cpu-allocation-ratio: a container requests a tenth of its cpu limit. */
const CPU_ALLOCATION_RATIO = 10n;
const DEFRAG_SCHEDULE = "0 * * * *";
// Under /var, a tmpfs in the node agent's sandbox (/etc is the host's, read-only).
const CLIENT_TLS_DIR = "/var/run/etcd/client-tls";
const CA_DIR = "/var/run/etcd/ca";

/** 95 % of the volume, in bytes: etcd refuses writes before the disk is full. */
export function quotaBackendBytes(size: string | number): number {
  return Number((quantityValue(size) * 95n) / 100n);
}

function resources(spec: EtcdAppSpec) {
  const cpu = String(spec.resources?.cpu ?? DEFAULTS.cpu);
  const memory = String(spec.resources?.memory ?? DEFAULTS.memory);
  const cpuRequest = `${quantityMilliValue(cpu) / CPU_ALLOCATION_RATIO}m`;
  return { limits: { cpu, memory }, requests: { cpu: cpuRequest, memory } };
}

function etcdCluster(app: App<EtcdAppSpec>, spec: EtcdAppSpec): EtcdCluster {
  const size = String(spec.size ?? DEFAULTS.size);
  return {
    apiVersion: ETCD_API_VERSION,
    kind: "EtcdCluster",
    metadata: { name: app.metadata.name!, namespace: app.metadata.namespace! },
    spec: {
      replicas: spec.replicas ?? DEFAULTS.replicas,
      storage: { size, ...(spec.storageClass ? { storageClassName: spec.storageClass } : {}) },
      tls: {
        client: {
          caSecretRef: { name: TLS_SECRETS.ca },
          serverSecretRef: { name: TLS_SECRETS.server },
          clientSecretRef: { name: TLS_SECRETS.client },
        },
        peer: { caSecretRef: { name: TLS_SECRETS.peerCa }, secretRef: { name: TLS_SECRETS.peer } },
      },
      auth: { enabled: true },
      options: {
        quotaBackendBytes: quotaBackendBytes(size),
        autoCompactionMode: "periodic",
        autoCompactionRetention: "5m",
        snapshotCount: 10000,
      },
      resources: resources(spec),
    },
  };
}

function dataStore(app: App<EtcdAppSpec>): DataStore {
  const ns = app.metadata.namespace!;
  const key = (name: string, keyPath: string) => ({
    secretReference: { name, namespace: ns, keyPath },
  });
  return {
    apiVersion: DATASTORE_API_VERSION,
    kind: "DataStore",
    // Cluster-scoped: an empty namespace keeps the engine from putting it in the app's.
    metadata: { name: dataStoreName(ns), namespace: "" },
    spec: {
      driver: "etcd",
      endpoints: [clientEndpoint(clientServiceName(app.metadata.name!), ns)],
      tlsConfig: {
        certificateAuthority: {
          certificate: key(TLS_SECRETS.ca, "tls.crt"),
          privateKey: key(TLS_SECRETS.ca, "tls.key"),
        },
        clientCertificate: {
          certificate: key(TLS_SECRETS.client, "tls.crt"),
          privateKey: key(TLS_SECRETS.client, "tls.key"),
        },
      },
    },
  };
}

/** `ETCD_CLIENT_SERVICE_HOST` for the client Service `etcd-client`. */
const serviceHostVar = (service: string) =>
  `${service.toUpperCase().replaceAll("-", "_")}_SERVICE_HOST`;

function defragCronJob(app: App<EtcdAppSpec>, spec: EtcdAppSpec): KubeObject {
  const cluster = app.metadata.name!;
  const host = `$(${serviceHostVar(clientServiceName(cluster))})`;
  return {
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name: defragCronJobName(cluster), namespace: app.metadata.namespace! },
    spec: {
      schedule: DEFRAG_SCHEDULE,
      concurrencyPolicy: "Forbid",
      successfulJobsHistoryLimit: 1,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        spec: {
          backoffLimit: 0,
          template: {
            spec: {
              restartPolicy: "Never",
              containers: [
                {
                  name: "etcd-defrag",
                  image: "hearth",
                  args: [
                    "etcd-defrag",
                    `--endpoints=https://${host}:${CLIENT_PORT}`,
                    `--cacert=${CA_DIR}/ca.crt`,
                    `--cert=${CLIENT_TLS_DIR}/tls.crt`,
                    `--key=${CLIENT_TLS_DIR}/tls.key`,
                    "--cluster",
                    "--compaction",
                    `--defrag-rule=${DEFAULT_DEFRAG_RULE}`,
                    `--etcd-storage-quota-bytes=${quotaBackendBytes(spec.size ?? DEFAULTS.size)}`,
                  ],
                  volumeMounts: [
                    { name: "client-certificate", mountPath: CLIENT_TLS_DIR, readOnly: true },
                    { name: "ca-certificate", mountPath: CA_DIR, readOnly: true },
                  ],
                },
              ],
              volumes: [
                { name: "client-certificate", secret: { secretName: TLS_SECRETS.client } },
                {
                  // Only the CA's certificate: its key stays out of the job.
                  name: "ca-certificate",
                  secret: {
                    secretName: TLS_SECRETS.ca,
                    items: [{ key: "tls.crt", path: "ca.crt" }],
                  },
                },
              ],
            },
          },
        },
      },
    },
  };
}

/** The kinds `renderEtcd` returns, whose events wake the app. */
export const ETCD_CHILD_KINDS = [
  { apiVersion: ETCD_API_VERSION, kind: "EtcdCluster" },
  { apiVersion: DATASTORE_API_VERSION, kind: "DataStore" },
  { apiVersion: "batch/v1", kind: "CronJob" },
  { apiVersion: WORKLOAD_MONITOR.apiVersion, kind: WORKLOAD_MONITOR.kind },
];

/** EtcdAppSpec as the Etcd definition declares it (checked by the engine once). */
export const ETCD_SPEC: SpecShape<EtcdAppSpec> = {
  version: "string",
  size: "int-or-string",
  storageClass: "string",
  replicas: "integer",
  resources: "object",
};

/** A majority of `replicas`: fewer Ready members cannot serve. */
export const quorum = (replicas: number) => Math.floor(replicas / 2) + 1;

/** `WorkloadMonitor <name>` of the member pods (Cozystack's etcd chart has none; shaped as its others). */
function workloadMonitor(app: App<EtcdAppSpec>, spec: EtcdAppSpec): WorkloadMonitor {
  const replicas = spec.replicas ?? DEFAULTS.replicas;
  return {
    ...WORKLOAD_MONITOR,
    metadata: { name: app.metadata.name!, namespace: app.metadata.namespace! },
    spec: {
      kind: "etcd",
      type: "etcd",
      replicas,
      minReplicas: quorum(replicas),
      selector: clusterLabels(app.metadata.name!),
    },
  };
}

export function renderEtcd(app: App<EtcdAppSpec>): KubeObject[] {
  const spec = app.spec ?? {};
  return [
    etcdCluster(app, spec),
    dataStore(app),
    defragCronJob(app, spec),
    workloadMonitor(app, spec),
  ];
}
