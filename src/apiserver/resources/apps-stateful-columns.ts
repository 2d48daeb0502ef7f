/**
 * The columns `kubectl get` prints for apps/v1 StatefulSets, DaemonSets and
 * ControllerRevisions, as kube's printers compute them: statefulsets NAME READY
 * AGE (CONTAINERS IMAGES wide); daemonsets NAME DESIRED CURRENT READY
 * UP-TO-DATE AVAILABLE NODE SELECTOR AGE (CONTAINERS IMAGES SELECTOR wide);
 * controllerrevisions NAME CONTROLLER REVISION AGE.
 */
import type { ControllerRevision, DaemonSet, KubeObject, StatefulSet } from "../../api/index.js";
import { wideColumns } from "./batch-columns.js";
import type { TableColumn } from "./resource-type.js";
import { ageColumn } from "./table.js";

const int = (name: string, description: string, cell: (o: KubeObject) => unknown) =>
  ({ name, type: "integer", description, cell }) as TableColumn;

export const STATEFULSET_COLUMNS: TableColumn[] = [
  {
    name: "Ready",
    type: "string",
    description: "Number of the pod with ready state",
    cell: (o) => {
      const sts = o as StatefulSet;
      return `${sts.status?.readyReplicas ?? 0}/${sts.spec?.replicas ?? 0}`;
    },
  },
  ageColumn,
  ...wideColumns((o) => (o as StatefulSet).spec).slice(0, 2),
];

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
function formatLabels(labels: Record<string, string> | undefined): string {
  const pairs = Object.entries(labels ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`);
  return pairs.length === 0 ? "<none>" : pairs.join(",");
}

const ds = (o: KubeObject) => (o as DaemonSet).status ?? {};

export const DAEMONSET_COLUMNS: TableColumn[] = [
  int(
    "Desired",
    "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).",
    (o) => ds(o).desiredNumberScheduled ?? 0,
  ),
  int(
    "Current",
    "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
    (o) => ds(o).currentNumberScheduled ?? 0,
  ),
  int(
    "Ready",
    "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.",
    (o) => ds(o).numberReady ?? 0,
  ),
  int(
    "Up-to-date",
    "The total number of nodes that are running updated daemon pod",
    (o) => ds(o).updatedNumberScheduled ?? 0,
  ),
  int(
    "Available",
    "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
    (o) => ds(o).numberAvailable ?? 0,
  ),
  {
    name: "Node Selector",
    type: "string",
    description:
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node.",
    cell: (o) =>
      formatLabels(
        (o as DaemonSet).spec?.template?.spec?.nodeSelector as Record<string, string> | undefined,
      ),
  },
  ageColumn,
  ...wideColumns((o) => (o as DaemonSet).spec),
];

/** printControllerRevision's CONTROLLER: `<kind>.<group>/<name>` in lower case, or `<none>`. */
function controllerCell(o: KubeObject): string {
  const ref = o.metadata.ownerReferences?.find((r) => r.controller === true);
  if (!ref) return "<none>";
  const group = ref.apiVersion.includes("/") ? ref.apiVersion.split("/")[0] : "";
  return `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
}

export const CONTROLLER_REVISION_COLUMNS: TableColumn[] = [
  {
    name: "Controller",
    type: "string",
    description: "Controller of the object",
    cell: controllerCell,
  },
  int(
    "Revision",
    "Revision indicates the revision of the state represented by Data.",
    (o) => (o as ControllerRevision).revision ?? 0,
  ),
  ageColumn,
];
