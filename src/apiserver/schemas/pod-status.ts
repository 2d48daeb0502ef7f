/**
 * core/v1 `PodStatus`: phase, conditions (merged by type), IPs, start time,
 * container statuses with their states, and the QoS class.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, mapList, object, str, time } from "./builders.js";

const waiting: Schema = object("ContainerStateWaiting is a waiting state of a container.", {
  message: str("Message regarding why the container is not yet running."),
  reason: str("(brief) reason the container is not yet running."),
});

const running: Schema = object("ContainerStateRunning is a running state of a container.", {
  startedAt: time("Time at which the container was last (re-)started"),
});

const terminated: Schema = object(
  "ContainerStateTerminated is a terminated state of a container.",
  {
    containerID: str("Container's ID in the format '<type>://<container_id>'"),
    exitCode: int32("Exit status from the last termination of the container"),
    finishedAt: time("Time at which the container last terminated"),
    message: str("Message regarding the last termination of the container"),
    reason: str("(brief) reason from the last termination of the container"),
    signal: int32("Signal from the last termination of the container"),
    startedAt: time("Time at which previous execution of the container started"),
  },
  ["exitCode"],
);

function containerState(description: string): Schema {
  return object(description, {
    running: { ...running, description: "Details about a running container" },
    terminated: { ...terminated, description: "Details about a terminated container" },
    waiting: { ...waiting, description: "Details about a waiting container" },
  });
}

const containerStatus: Schema = object(
  "ContainerStatus contains details for the current status of this container.",
  {
    containerID: str(
      "ContainerID is the ID of the container in the format '<type>://<container_id>'. Where type is a container runtime identifier, returned from Version call of CRI API (for example \"containerd\").",
    ),
    image: str("Image is the name of container image that the container is running."),
    imageID: str("ImageID is the image ID of the container's image."),
    lastState: containerState(
      "LastTerminationState holds the last termination state of the container to help debug container crashes and restarts.",
    ),
    name: str("Name is a DNS_LABEL representing the unique name of the container."),
    ready: bool("Ready specifies whether the container is currently passing its readiness check."),
    restartCount: int32(
      "RestartCount holds the number of times the container has been restarted. Kubelet makes an effort to always increment the value, but there are cases when the state may be lost due to node restarts and then the value may be reset to 0. The value is never negative.",
    ),
    started: bool(
      "Started indicates whether the container has finished its postStart lifecycle hook and passed its startup probe.",
    ),
    state: containerState("State holds details about the container's current condition."),
  },
  ["name", "ready", "restartCount", "image", "imageID"],
);

function statusList(description: string): Schema {
  return {
    type: "array",
    description,
    items: containerStatus,
    "x-kubernetes-list-type": "atomic",
  };
}

const podCondition: Schema = object(
  "PodCondition contains details for the current condition of this pod.",
  {
    lastProbeTime: time("Last time we probed the condition."),
    lastTransitionTime: time("Last time the condition transitioned from one status to another."),
    message: str("Human-readable message indicating details about last transition."),
    reason: str("Unique, one-word, CamelCase reason for the condition's last transition."),
    status: str(
      "Status is the status of the condition. Can be True, False, Unknown. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions",
    ),
    type: str(
      "Type is the type of the condition. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions",
    ),
  },
  ["type", "status"],
);
podCondition.properties!.lastProbeTime!.nullable = true;

function ipList(description: string, of: string): Schema {
  return mapList(
    description,
    "ip",
    object(
      `${of} represents a single IP address allocated to the pod.`,
      { ip: str("IP is the IP address assigned to the pod") },
      ["ip"],
    ),
  );
}

export const podStatus: Schema = object(
  "PodStatus represents information about the status of a pod. Status may trail the actual state of a system, especially if the node that hosts the pod cannot contact the control plane.",
  {
    conditions: mapList(
      "Current service state of pod. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-conditions",
      "type",
      podCondition,
    ),
    containerStatuses: statusList(
      "The list has one entry per container in the manifest. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-and-container-status",
    ),
    hostIP: str(
      "hostIP holds the IP address of the host to which the pod is assigned. Empty if the pod has not started yet.",
    ),
    hostIPs: ipList(
      "hostIPs holds the IP addresses allocated to the host. If this field is specified, the first entry must match the hostIP field.",
      "HostIP",
    ),
    initContainerStatuses: statusList(
      "The list has one entry per init container in the manifest. The most recent successful init container will have ready = true, the most recently started container will have startTime set. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-and-container-status",
    ),
    message: str(
      "A human readable message indicating details about why the pod is in this condition.",
    ),
    nominatedNodeName: str(
      "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.",
    ),
    phase: str(
      "The phase of a Pod is a simple, high-level summary of where the Pod is in its lifecycle. One of Pending, Running, Succeeded, Failed, Unknown. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#pod-phase",
      { enum: ["Failed", "Pending", "Running", "Succeeded", "Unknown"] },
    ),
    podIP: str(
      "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
    ),
    podIPs: ipList(
      "podIPs holds the IP addresses allocated to the pod. If this field is specified, the 0th entry must match the podIP field. Pods may be allocated at most 1 value for each of IPv4 and IPv6. This list is empty if no IPs have been allocated yet.",
      "PodIP",
    ),
    qosClass: str(
      "The Quality of Service (QOS) classification assigned to the pod based on resource requirements.",
      { enum: ["BestEffort", "Burstable", "Guaranteed"] },
    ),
    reason: str(
      "A brief CamelCase message indicating details about why the pod is in this state. e.g. 'Evicted'",
    ),
    startTime: time(
      "RFC 3339 date and time at which the object was acknowledged by the Kubelet. This is before the Kubelet pulled the container image(s) for the pod.",
    ),
  },
);
