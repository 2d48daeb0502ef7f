/**
 * The core/v1 Node kind (cluster-scoped), registered by node agents: kube's
 * table columns (STATUS from the Ready condition, ROLES from
 * `node-role.kubernetes.io/*` labels, VERSION; wide: addresses, OS, kernel,
 * runtime), the `spec.unschedulable` field selector, and `nodes/proxy` (node-proxy.ts).
 */
import type { KubeObject, Node } from "../../api/index.js";
import { nodeSchema } from "../schemas/index.js";
import { handleNodeProxy } from "./node-proxy.js";
import { validateNode } from "./node-validation.js";
import { type ResourceType, STANDARD_VERBS } from "./resource-type.js";
import { ageColumn } from "./table.js";

const none = (v: string | undefined) => (v ? v : "<none>");

function nodeStatus(o: KubeObject): string {
  const node = o as Node;
  const ready = node.status?.conditions?.find((c) => c.type === "Ready");
  // As kubectl's printer: any Ready condition but True (False or Unknown) reads NotReady.
  let status = !ready ? "Unknown" : ready.status === "True" ? "Ready" : "NotReady";
  if (node.spec?.unschedulable) status += ",SchedulingDisabled";
  return status;
}

function roles(o: KubeObject): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
    if (k.startsWith("node-role.kubernetes.io/"))
      out.push(k.slice("node-role.kubernetes.io/".length));
    else if (k === "kubernetes.io/role" && v) out.push(v);
  }
  return out.length ? out.sort().join(",") : "<none>";
}

const address = (type: string) => (o: KubeObject) =>
  none((o as Node).status?.addresses?.find((a) => a.type === type)?.address);
const info = (key: string) => (o: KubeObject) => none((o as Node).status?.nodeInfo?.[key]);

export const nodeType: ResourceType = {
  group: "",
  version: "v1",
  kind: "Node",
  listKind: "NodeList",
  plural: "nodes",
  singular: "node",
  namespaced: false,
  shortNames: ["no"],
  categories: [],
  verbs: STANDARD_VERBS,
  status: true,
  subresourceHandlers: { proxy: handleNodeProxy },
  nameRule: "dns1123-subdomain",
  strategicMergePatch: true,
  schema: nodeSchema,
  validate: validateNode,
  columns: [
    { name: "Status", type: "string", description: "The status of the node", cell: nodeStatus },
    { name: "Roles", type: "string", description: "The roles of the node", cell: roles },
    ageColumn,
    {
      name: "Version",
      type: "string",
      description: "Kubelet Version reported by the node.",
      cell: info("kubeletVersion"),
    },
    {
      name: "Internal-IP",
      type: "string",
      priority: 1,
      description: "List of addresses reachable to the node.",
      cell: address("InternalIP"),
    },
    {
      name: "External-IP",
      type: "string",
      priority: 1,
      description: "List of addresses reachable to the node.",
      cell: address("ExternalIP"),
    },
    {
      name: "OS-Image",
      type: "string",
      priority: 1,
      description:
        "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
      cell: info("osImage"),
    },
    {
      name: "Kernel-Version",
      type: "string",
      priority: 1,
      description:
        "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
      cell: info("kernelVersion"),
    },
    {
      name: "Container-Runtime",
      type: "string",
      priority: 1,
      description:
        "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
      cell: info("containerRuntimeVersion"),
    },
  ],
  selectableFields: (o) => ({
    "spec.unschedulable": String((o as Node).spec?.unschedulable ?? false),
  }),
};
