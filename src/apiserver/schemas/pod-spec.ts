/**
 * core/v1 `PodSpec` as Hearth serves it: containers and initContainers (merged
 * by name), volumes (merged by name), restartPolicy, grace period, deadline,
 * scheduling (nodeName, nodeSelector, tolerations, node affinity, pod
 * anti-affinity), the
 * pod's hostname/subdomain/setHostnameAsFQDN, its DNS (dnsPolicy, dnsConfig,
 * hostAliases), the pull secrets of its images (imagePullSecrets),
 * and what Pod Security admission checks: the pod's
 * securityContext, host namespaces (hostNetwork, hostPID, hostIPC), hostUsers
 * and os. Fields outside this subset are pruned with a
 * warning, as for any unknown field.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, int64, mapList, object, str, stringList, stringMap } from "./builders.js";
import { labelSelector } from "./label-selector.js";
import { container } from "./pod-container.js";
import { hostAlias, podDNSConfig } from "./pod-dns.js";
import { podSecurityContext } from "./pod-security-context.js";
import { volume } from "./pod-volume.js";
import { localObjectReference } from "./references.js";
import { nodeSelectorTerm } from "./volume-common.js";

const podAffinityTerm: Schema = object(
  "Defines a set of pods (namely those matching the labelSelector relative to the given namespace(s)) that this pod should be co-located (affinity) or not co-located (anti-affinity) with, where co-located is defined as running on a node whose value of the label with key <topologyKey> matches that of any node on which a pod of the set of pods is running",
  {
    labelSelector: {
      ...labelSelector,
      description:
        "A label query over a set of resources, in this case pods. If it's null, this PodAffinityTerm matches with no Pods.",
    },
    namespaces: stringList(
      'namespaces specifies a static list of namespace names that the term applies to. The term is applied to the union of the namespaces listed in this field and the ones selected by namespaceSelector. null or empty namespaces list and null namespaceSelector means "this pod\'s namespace".',
    ),
    topologyKey: str(
      "This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces, where co-located is defined as running on a node whose value of the label with key topologyKey matches that of any node on which any of the selected pods is running. Empty topologyKey is not allowed.",
    ),
  },
  ["topologyKey"],
);

const weightedPodAffinityTerm: Schema = object(
  "The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s)",
  {
    podAffinityTerm: {
      ...podAffinityTerm,
      description: "Required. A pod affinity term, associated with the corresponding weight.",
    },
    weight: int32(
      "weight associated with matching the corresponding podAffinityTerm, in the range 1-100.",
    ),
  },
  ["weight", "podAffinityTerm"],
);

function termList(description: string, items: Schema): Schema {
  return { type: "array", description, items, "x-kubernetes-list-type": "atomic" };
}

const nodeAffinity: Schema = object("Describes node affinity scheduling rules for the pod.", {
  preferredDuringSchedulingIgnoredDuringExecution: termList(
    "The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions. (Accepted; Hearth's scheduler does not score nodes.)",
    object(
      "An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).",
      {
        preference: {
          ...nodeSelectorTerm,
          description: "A node selector term, associated with the corresponding weight.",
        },
        weight: int32(
          "Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.",
        ),
      },
      ["weight", "preference"],
    ),
  ),
  requiredDuringSchedulingIgnoredDuringExecution: {
    ...object(
      "If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.",
      {
        nodeSelectorTerms: termList(
          "Required. A list of node selector terms. The terms are ORed.",
          nodeSelectorTerm,
        ),
      },
      ["nodeSelectorTerms"],
    ),
    "x-kubernetes-map-type": "atomic",
  },
});

const affinity: Schema = object("Affinity is a group of affinity scheduling rules.", {
  nodeAffinity,
  podAntiAffinity: object(
    "Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s)).",
    {
      preferredDuringSchedulingIgnoredDuringExecution: termList(
        "The scheduler will prefer to schedule pods to nodes that satisfy the anti-affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.",
        weightedPodAffinityTerm,
      ),
      requiredDuringSchedulingIgnoredDuringExecution: termList(
        "If the anti-affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.",
        podAffinityTerm,
      ),
    },
  ),
});

const toleration: Schema = object(
  "The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.",
  {
    effect: str(
      "Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.",
    ),
    key: str(
      "Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.",
    ),
    operator: str(
      "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal.",
    ),
    tolerationSeconds: int64(
      "TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint.",
    ),
    value: str(
      "Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.",
    ),
  },
);

export const podSpec: Schema = object(
  "PodSpec is a description of a pod.",
  {
    activeDeadlineSeconds: int64(
      "Optional duration in seconds the pod may be active on the node relative to StartTime before the system will actively try to mark it failed and kill associated containers. Value must be a positive integer.",
    ),
    affinity: { ...affinity, description: "If specified, the pod's scheduling constraints" },
    automountServiceAccountToken: bool(
      "AutomountServiceAccountToken indicates whether a service account token should be automatically mounted. Hearth mounts no token.",
    ),
    containers: mapList(
      "List of containers belonging to the pod. Containers cannot currently be added or removed. There must be at least one container in a Pod. Cannot be updated.",
      "name",
      container,
    ),
    dnsConfig: {
      ...podDNSConfig,
      description:
        "Specifies the DNS parameters of a pod. Parameters specified here will be merged to the generated DNS configuration based on DNSPolicy.",
    },
    dnsPolicy: str(
      "Set DNS policy for the pod. Defaults to \"ClusterFirst\". Valid values are 'ClusterFirstWithHostNet', 'ClusterFirst', 'Default' or 'None'. DNS parameters given in DNSConfig will be merged with the policy selected with DNSPolicy. To have DNS options set along with hostNetwork, you have to specify DNS policy explicitly to 'ClusterFirstWithHostNet'.",
      { enum: ["ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"] },
    ),
    enableServiceLinks: bool(
      "EnableServiceLinks indicates whether information about services should be injected into pod's environment variables, matching the syntax of Docker links. Optional: Defaults to true. Hearth injects no service variables.",
    ),
    hostAliases: mapList(
      "HostAliases is an optional list of hosts and IPs that will be injected into the pod's hosts file if specified.",
      "ip",
      hostAlias,
    ),
    hostIPC: bool("Use the host's ipc namespace. Optional: Default to false."),
    hostNetwork: bool(
      "Host networking requested for this pod. Use the host's network namespace. If this option is set, the ports that will be used must be specified. Default to false.",
    ),
    hostPID: bool("Use the host's pid namespace. Optional: Default to false."),
    hostUsers: bool(
      "Use the host's user namespace. Optional: Default to true. If set to true or not present, the pod will be run in the host user namespace. Setting false is useful for mitigating container breakout vulnerabilities even allowing users to run their containers as root without actually having root privileges on the host.",
    ),
    hostname: str(
      "Specifies the hostname of the Pod If not specified, the pod's hostname will be set to a system-defined value.",
    ),
    imagePullSecrets: {
      type: "array",
      description:
        "ImagePullSecrets is an optional list of references to secrets in the same namespace to use for pulling any of the images used by this PodSpec. If specified, these secrets will be passed to individual puller implementations for them to use. More info: https://kubernetes.io/docs/concepts/containers/images#specifying-imagepullsecrets-on-a-pod",
      items: localObjectReference(
        "LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.",
      ),
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "name",
    },
    initContainers: mapList(
      "List of initialization containers belonging to the pod. Init containers are executed in order prior to containers being started. If any init container fails, the pod is considered to have failed and is handled according to its restartPolicy. More info: https://kubernetes.io/docs/concepts/workloads/pods/init-containers/",
      "name",
      container,
    ),
    nodeName: str(
      "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod.",
    ),
    nodeSelector: {
      ...stringMap(
        "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
      ),
      "x-kubernetes-map-type": "atomic",
    },
    os: object(
      "Specifies the OS of the containers in the pod. If the OS field is set to windows, some pod and container fields are restricted.",
      {
        name: str(
          "Name is the name of the operating system. The currently supported values are linux and windows.",
        ),
      },
      ["name"],
    ),
    restartPolicy: str(
      'Restart policy for all containers within the pod. One of Always, OnFailure, Never. Default to Always. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#restart-policy\n\nPossible enum values:\n - `"Always"`\n - `"Never"`\n - `"OnFailure"`',
      { enum: ["Always", "Never", "OnFailure"] },
    ),
    schedulerName: str(
      "If specified, the pod will be dispatched by specified scheduler. If not specified, the pod will be dispatched by default scheduler.",
    ),
    securityContext: {
      ...podSecurityContext,
      description:
        "SecurityContext holds pod-level security attributes and common container settings. Optional: Defaults to empty.  See type description for default values of each field. Checked by Pod Security admission; not yet applied by Hearth's node agent.",
    },
    serviceAccount: str(
      "DeprecatedServiceAccount is a deprecated alias for ServiceAccountName. Deprecated: Use serviceAccountName instead.",
    ),
    serviceAccountName: str(
      "ServiceAccountName is the name of the ServiceAccount to use to run this pod. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/",
    ),
    shareProcessNamespace: bool(
      "Share a single process namespace between all of the containers in a pod. When this is set containers will be able to view and signal processes from other containers in the same pod, and the first process in each container will not be assigned PID 1. HostPID and ShareProcessNamespace cannot both be set. Optional: Default to false.",
    ),
    setHostnameAsFQDN: bool(
      "If true the pod's hostname will be configured as the pod's FQDN, rather than the leaf name (the default). In Linux containers, this means setting the FQDN in the hostname field of the kernel (the nodename field of struct utsname). Default to false.",
    ),
    subdomain: str(
      'If specified, the fully qualified Pod hostname will be "<hostname>.<subdomain>.<pod namespace>.svc.<cluster domain>". If not specified, the pod will not have a domainname at all.',
    ),
    terminationGracePeriodSeconds: int64(
      "Optional duration in seconds the pod needs to terminate gracefully. May be decreased in delete request. Value must be non-negative integer. The value zero indicates stop immediately via the kill signal (no opportunity to shut down). If this value is nil, the default grace period will be used instead. Defaults to 30 seconds.",
    ),
    tolerations: termList("If specified, the pod's tolerations.", toleration),
    volumes: {
      ...mapList(
        "List of volumes that can be mounted by containers belonging to the pod. More info: https://kubernetes.io/docs/concepts/storage/volumes",
        "name",
        volume,
      ),
      "x-kubernetes-patch-strategy": "merge,retainKeys",
    },
  },
  ["containers"],
);
