/**
 * core/v1 `Probe` and its handlers (`exec`, `tcpSocket`, `httpGet`), and
 * `IntOrString` ports, as kube v1.32 publishes them. gRPC probes and lifecycle
 * hooks are not served.
 */
import type { Schema } from "../../api/index.js";
import { int32, object, str, stringList } from "./builders.js";

/** `intstr.IntOrString`: a port number or an IANA_SVC_NAME. */
export function intOrString(description: string): Schema {
  return { description, "x-kubernetes-int-or-string": true };
}

const execAction: Schema = object('ExecAction describes a "run in container" action.', {
  command: stringList(
    "Command is the command line to execute inside the container, the working directory for the command  is root ('/') in the container's filesystem. The command is simply exec'd, it is not run inside a shell, so traditional shell instructions ('|', etc) won't work. To use a shell, you need to explicitly call out to that shell. Exit status of 0 is treated as live/healthy and non-zero is unhealthy.",
  ),
});

const tcpSocketAction: Schema = object(
  "TCPSocketAction describes an action based on opening a socket",
  {
    host: str("Optional: Host name to connect to, defaults to the pod IP."),
    port: intOrString(
      "Number or name of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.",
    ),
  },
  ["port"],
);

const httpHeader: Schema = object(
  "HTTPHeader describes a custom header to be used in HTTP probes",
  {
    name: str(
      "The header field name. This will be canonicalized upon output, so case-variant names will be understood as the same header.",
    ),
    value: str("The header field value"),
  },
  ["name", "value"],
);

const httpGetAction: Schema = object(
  "HTTPGetAction describes an action based on HTTP Get requests.",
  {
    host: str(
      'Host name to connect to, defaults to the pod IP. You probably want to set "Host" in httpHeaders instead.',
    ),
    httpHeaders: {
      type: "array",
      description: "Custom headers to set in the request. HTTP allows repeated headers.",
      items: httpHeader,
      "x-kubernetes-list-type": "atomic",
    },
    path: str("Path to access on the HTTP server."),
    port: intOrString(
      "Name or number of the port to access on the container. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME.",
    ),
    scheme: str(
      'Scheme to use for connecting to the host. Defaults to HTTP.\n\nPossible enum values:\n - `"HTTP"` means that the scheme used will be http://\n - `"HTTPS"` means that the scheme used will be https://',
      { enum: ["HTTP", "HTTPS"] },
    ),
  },
  ["port"],
);

export const probe: Schema = object(
  "Probe describes a health check to be performed against a container to determine whether it is alive or ready to receive traffic.",
  {
    exec: { ...execAction, description: "Exec specifies a command to execute in the container." },
    failureThreshold: int32(
      "Minimum consecutive failures for the probe to be considered failed after having succeeded. Defaults to 3. Minimum value is 1.",
    ),
    httpGet: { ...httpGetAction, description: "HTTPGet specifies an HTTP GET request to perform." },
    initialDelaySeconds: int32(
      "Number of seconds after the container has started before liveness probes are initiated. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
    ),
    periodSeconds: int32(
      "How often (in seconds) to perform the probe. Default to 10 seconds. Minimum value is 1.",
    ),
    successThreshold: int32(
      "Minimum consecutive successes for the probe to be considered successful after having failed. Defaults to 1. Must be 1 for liveness and startup. Minimum value is 1.",
    ),
    tcpSocket: {
      ...tcpSocketAction,
      description: "TCPSocket specifies a connection to a TCP port.",
    },
    terminationGracePeriodSeconds: {
      type: "integer",
      format: "int64",
      description:
        "Optional duration in seconds the pod needs to terminate gracefully upon probe failure. If this value is nil, the pod's terminationGracePeriodSeconds will be used.",
    },
    timeoutSeconds: int32(
      "Number of seconds after which the probe times out. Defaults to 1 second. Minimum value is 1. More info: https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle#container-probes",
    ),
  },
);
