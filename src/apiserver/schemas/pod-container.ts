/**
 * core/v1 `Container` as Hearth serves it: name, image, command, args,
 * workingDir, env, envFrom, ports, resources, volumeMounts, the three
 * probes, securityContext, stdin, stdinOnce and tty, with kube's SMP/SSA keys (env by name, ports by containerPort,
 * volumeMounts by mountPath).
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, mapList, object, str, stringList } from "./builders.js";
import { envFromSource, envVar, quantity } from "./pod-env.js";
import { probe } from "./pod-probe.js";
import { securityContext } from "./pod-security-context.js";

const containerPort: Schema = object(
  "ContainerPort represents a network port in a single container.",
  {
    containerPort: int32(
      "Number of port to expose on the pod's IP address. This must be a valid port number, 0 < x < 65536.",
    ),
    hostIP: str("What host IP to bind the external port to."),
    hostPort: int32(
      "Number of port to expose on the host. If specified, this must be a valid port number, 0 < x < 65536. Most containers do not need this.",
    ),
    name: str(
      "If specified, this must be an IANA_SVC_NAME and unique within the pod. Each named port in a pod must have a unique name. Name for the port that can be referred to by services.",
    ),
    protocol: str('Protocol for port. Must be UDP, TCP, or SCTP. Defaults to "TCP".', {
      enum: ["SCTP", "TCP", "UDP"],
    }),
  },
  ["containerPort"],
);

function resourceList(description: string): Schema {
  return { type: "object", description, additionalProperties: quantity("") };
}

const resources: Schema = object(
  "ResourceRequirements describes the compute resource requirements.",
  {
    limits: resourceList(
      "Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
    ),
    requests: resourceList(
      "Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
    ),
  },
);

const volumeMount: Schema = object(
  "VolumeMount describes a mounting of a Volume within a container.",
  {
    mountPath: str(
      "Path within the container at which the volume should be mounted.  Must not contain ':'.",
    ),
    name: str("This must match the Name of a Volume."),
    readOnly: bool(
      "Mounted read-only if true, read-write otherwise (false or unspecified). Defaults to false.",
    ),
    subPath: str(
      "Path within the volume from which the container's volume should be mounted. Defaults to \"\" (volume's root).",
    ),
  },
  ["name", "mountPath"],
);

export const container: Schema = object(
  "A single application container that you want to run within a pod.",
  {
    args: stringList(
      'Arguments to the entrypoint. The container image\'s CMD is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container\'s environment. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. "$$(VAR_NAME)" will produce the string literal "$(VAR_NAME)". Escaped references will never be expanded, regardless of whether the variable exists or not. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell',
    ),
    command: stringList(
      "Entrypoint array. Not executed within a shell. The container image's ENTRYPOINT is used if this is not provided. Variable references $(VAR_NAME) are expanded using the container's environment. Cannot be updated. More info: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#running-a-command-in-a-shell",
    ),
    env: mapList(
      "List of environment variables to set in the container. Cannot be updated.",
      "name",
      envVar,
    ),
    envFrom: {
      type: "array",
      description:
        "List of sources to populate environment variables in the container. The keys defined within a source must be a C_IDENTIFIER. All invalid keys will be reported as an event when the container is starting. When a key exists in multiple sources, the value associated with the last source will take precedence. Values defined by an Env with a duplicate key will take precedence. Cannot be updated.",
      items: envFromSource,
      "x-kubernetes-list-type": "atomic",
    },
    image: str(
      "Container image name. More info: https://kubernetes.io/docs/concepts/containers/images This field is optional to allow higher level config management to default or override container images in workload controllers like Deployments and StatefulSets.",
    ),
    imagePullPolicy: str(
      "Image pull policy. One of Always, Never, IfNotPresent. Defaults to Always if :latest tag is specified, or IfNotPresent otherwise. Cannot be updated. More info: https://kubernetes.io/docs/concepts/containers/images#updating-images",
      { enum: ["Always", "IfNotPresent", "Never"] },
    ),
    livenessProbe: {
      ...probe,
      description:
        "Periodic probe of container liveness. Container will be restarted if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
    },
    name: str(
      "Name of the container specified as a DNS_LABEL. Each container in a pod must have a unique name (DNS_LABEL). Cannot be updated.",
    ),
    ports: mapList(
      "List of ports to expose from the container. Not specifying a port here DOES NOT prevent that port from being exposed. Cannot be updated.",
      "containerPort",
      containerPort,
    ),
    readinessProbe: {
      ...probe,
      description:
        "Periodic probe of container service readiness. Container will be removed from service endpoints if the probe fails. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
    },
    resources: {
      ...resources,
      description:
        "Compute Resources required by this container. Requests are used for scheduling and set CPU shares; limits become the container's cgroup limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
    },
    securityContext: {
      ...securityContext,
      description:
        "SecurityContext defines the security options the container should be run with. If set, the fields of SecurityContext override the equivalent fields of PodSecurityContext. Checked by Pod Security admission; not yet applied by Hearth's node agent. More info: https://kubernetes.io/docs/tasks/configure-pod-container/security-context/",
    },
    startupProbe: {
      ...probe,
      description:
        "StartupProbe indicates that the Pod has successfully initialized. If specified, no other probes are executed until this completes successfully. If this probe fails, the Pod will be restarted, just as if the livenessProbe failed. Cannot be updated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
    },
    stdin: bool(
      "Whether this container should allocate a buffer for stdin in the container runtime. If this is not set, reads from stdin in the container will always result in EOF. Default is false.",
    ),
    stdinOnce: bool(
      "Whether the container runtime should close the stdin channel after it has been opened by a single attach. When stdin is true the stdin stream will remain open across multiple attach sessions. If stdinOnce is set to true, stdin is opened on container start, is empty until the first client attaches to stdin, and then remains open and accepts data until the client disconnects, at which time stdin is closed and remains closed until the container is restarted. If this flag is false, a container processes that reads from stdin will never receive an EOF. Default is false",
    ),
    tty: bool(
      "Whether this container should allocate a TTY for itself, also requires 'stdin' to be true. Default is false.",
    ),
    volumeMounts: mapList(
      "Pod volumes to mount into the container's filesystem. Cannot be updated.",
      "mountPath",
      volumeMount,
    ),
    workingDir: str(
      "Container's working directory. If not specified, the container runtime's default will be used, which might be configured in the container image. Cannot be updated.",
    ),
  },
  ["name"],
);
