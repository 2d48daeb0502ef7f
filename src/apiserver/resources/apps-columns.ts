/**
 * The columns `kubectl get` prints for apps/v1 Deployments and ReplicaSets,
 * as kube's printers (printDeployment, printReplicaSet) compute them:
 * deployments NAME READY UP-TO-DATE AVAILABLE AGE, replicasets NAME DESIRED
 * CURRENT READY AGE, both with CONTAINERS IMAGES SELECTOR in wide output.
 */
import type { Deployment, KubeObject, ReplicaSet } from "../../api/index.js";
import { wideColumns } from "./batch-columns.js";
import type { TableColumn } from "./resource-type.js";
import { ageColumn } from "./table.js";

const deployment = (o: KubeObject) => o as Deployment;
const replicaSet = (o: KubeObject) => o as ReplicaSet;

export const DEPLOYMENT_COLUMNS: TableColumn[] = [
  {
    name: "Ready",
    type: "string",
    description: "Number of the pod with ready state",
    cell: (o) => `${deployment(o).status?.readyReplicas ?? 0}/${deployment(o).spec?.replicas ?? 0}`,
  },
  {
    name: "Up-to-date",
    type: "string",
    description:
      "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
    cell: (o) => deployment(o).status?.updatedReplicas ?? 0,
  },
  {
    name: "Available",
    type: "string",
    description:
      "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
    cell: (o) => deployment(o).status?.availableReplicas ?? 0,
  },
  ageColumn,
  ...wideColumns((o) => deployment(o).spec),
];

export const REPLICA_SET_COLUMNS: TableColumn[] = [
  {
    name: "Desired",
    type: "integer",
    description:
      "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
    cell: (o) => replicaSet(o).spec?.replicas ?? 0,
  },
  {
    name: "Current",
    type: "integer",
    description:
      "Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller",
    cell: (o) => replicaSet(o).status?.replicas ?? 0,
  },
  {
    name: "Ready",
    type: "integer",
    description: "The number of ready replicas for this replica set.",
    cell: (o) => replicaSet(o).status?.readyReplicas ?? 0,
  },
  ageColumn,
  ...wideColumns((o) => replicaSet(o).spec),
];
