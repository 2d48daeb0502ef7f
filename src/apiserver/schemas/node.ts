/**
 * core/v1 Node (cluster-scoped): spec with pod CIDRs, taints and
 * unschedulable; status with capacity, allocatable, conditions (merged by
 * type), addresses (merged by type), the kubelet endpoint and node info.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, mapList, object, str, stringList, time } from "./builders.js";
import { kindSchema } from "./kind.js";
import { quantity } from "./pod-env.js";

function resourceList(description: string): Schema {
  return { type: "object", description, additionalProperties: quantity("") };
}

const taint: Schema = object(
  'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.',
  {
    effect: str(
      "Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.",
    ),
    key: str("Required. The taint key to be applied to a node."),
    timeAdded: time("TimeAdded represents the time at which the taint was added."),
    value: str("The taint value corresponding to the taint key."),
  },
  ["key", "effect"],
);

const nodeSpec: Schema = object("NodeSpec describes the attributes that a node is created with.", {
  podCIDR: str("PodCIDR represents the pod IP range assigned to the node."),
  podCIDRs: {
    ...stringList(
      "podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node. If this field is specified, the 0th entry must match the podCIDR field.",
      "set",
    ),
    "x-kubernetes-patch-strategy": "merge",
  },
  providerID: str(
    "ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>",
  ),
  taints: {
    type: "array",
    description: "If specified, the node's taints.",
    items: taint,
    "x-kubernetes-list-type": "atomic",
  },
  unschedulable: bool(
    "Unschedulable controls node schedulability of new pods. By default, node is schedulable. More info: https://kubernetes.io/docs/concepts/nodes/node/#manual-node-administration",
  ),
});

const nodeCondition: Schema = object(
  "NodeCondition contains condition information for a node.",
  {
    lastHeartbeatTime: time("Last time we got an update on a given condition."),
    lastTransitionTime: time("Last time the condition transit from one status to another."),
    message: str("Human readable message indicating details about last transition."),
    reason: str("(brief) reason for the condition's last transition."),
    status: str("Status of the condition, one of True, False, Unknown."),
    type: str("Type of node condition."),
  },
  ["type", "status"],
);

const nodeAddress: Schema = object(
  "NodeAddress contains information for the node's address.",
  {
    address: str("The node address."),
    type: str("Node address type, one of Hostname, ExternalIP or InternalIP."),
  },
  ["type", "address"],
);

const info = (d: string) => str(d);

const nodeSystemInfo: Schema = object(
  "NodeSystemInfo is a set of ids/uuids to uniquely identify the node.",
  {
    architecture: info("The Architecture reported by the node"),
    bootID: info("Boot ID reported by the node."),
    containerRuntimeVersion: info(
      "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).",
    ),
    kernelVersion: info(
      "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
    ),
    kubeProxyVersion: info("Deprecated: KubeProxy Version reported by the node."),
    kubeletVersion: info("Kubelet Version reported by the node."),
    machineID: info(
      "MachineID reported by the node. For unique machine identification in the cluster this field is preferred.",
    ),
    operatingSystem: info("The Operating System reported by the node"),
    osImage: info(
      "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
    ),
    systemUUID: info(
      "SystemUUID reported by the node. For unique machine identification MachineID is preferred.",
    ),
  },
  [
    "machineID",
    "systemUUID",
    "bootID",
    "kernelVersion",
    "osImage",
    "containerRuntimeVersion",
    "kubeletVersion",
    "kubeProxyVersion",
    "operatingSystem",
    "architecture",
  ],
);

const nodeStatus: Schema = object("NodeStatus is information about the current status of a node.", {
  addresses: mapList(
    "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses",
    "type",
    nodeAddress,
  ),
  allocatable: resourceList(
    "Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.",
  ),
  capacity: resourceList(
    "Capacity represents the total resources of a node. More info: https://kubernetes.io/docs/reference/node/node-status/#capacity",
  ),
  conditions: mapList(
    "Conditions is an array of current observed node conditions. More info: https://kubernetes.io/docs/reference/node/node-status/#condition",
    "type",
    nodeCondition,
  ),
  daemonEndpoints: object("Endpoints of daemons running on the Node.", {
    kubeletEndpoint: object(
      "Endpoint on which Kubelet is listening.",
      {
        Port: int32("Port number of the given endpoint."),
      },
      ["Port"],
    ),
  }),
  nodeInfo: nodeSystemInfo,
  phase: str(
    "NodePhase is the recently observed lifecycle phase of the node. The field is never populated, and now is deprecated.",
  ),
});

export const nodeSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Node" },
  "Node is a worker node in Kubernetes. Each node will have a unique identifier in the cache (i.e. in etcd).",
  {
    spec: {
      ...nodeSpec,
      description:
        "Spec defines the behavior of a node. https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
    status: {
      ...nodeStatus,
      description:
        "Most recently observed status of the node. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
  },
);
