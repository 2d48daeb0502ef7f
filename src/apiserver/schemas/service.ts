/**
 * core/v1 Service, as kube v1.32 publishes it (descriptions shortened). Hearth
 * serves the ClusterIP type (and headless, `clusterIP: None`); the other types'
 * fields are accepted by the schema and refused by validation.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, object, str, stringList, stringMap } from "./builders.js";
import { kindSchema } from "./kind.js";

export function intOrString(description: string): Schema {
  return { description, "x-kubernetes-int-or-string": true };
}

export const servicePort: Schema = object(
  "ServicePort contains information on service's port.",
  {
    appProtocol: str("The application protocol for this port."),
    name: str(
      "The name of this port within the service. This must be a DNS_LABEL. All ports within a ServiceSpec must have unique names. Optional if only one ServicePort is defined on this service.",
    ),
    nodePort: int32(
      "The port on each node on which this service is exposed when type is NodePort or LoadBalancer.",
    ),
    port: int32("The port that will be exposed by this service."),
    protocol: str(
      'The IP protocol for this port. Supports "TCP", "UDP", and "SCTP". Default is TCP.',
      { default: "TCP" },
    ),
    targetPort: intOrString(
      "Number or name of the port to access on the pods targeted by the service. Number must be in the range 1 to 65535. Name must be an IANA_SVC_NAME. If this is a string, it will be looked up as a named port in the target Pod's container ports. If this is not specified, the value of the 'port' field is used (an identity map).",
    ),
  },
  ["port"],
);

const sessionAffinityConfig = object(
  "SessionAffinityConfig represents the configurations of session affinity.",
  {
    clientIP: object("clientIP contains the configurations of Client IP based session affinity.", {
      timeoutSeconds: int32(
        'timeoutSeconds specifies the seconds of ClientIP type session sticky time. The value must be >0 && <=86400(for 1 day) if ServiceAffinity == "ClientIP". Default value is 10800(for 3 hours).',
      ),
    }),
  },
);

const serviceSpec = object(
  "ServiceSpec describes the attributes that a user creates on a service.",
  {
    allocateLoadBalancerNodePorts: bool(
      "allocateLoadBalancerNodePorts defines if NodePorts will be automatically allocated for services with type LoadBalancer.",
    ),
    clusterIP: str(
      'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName. Valid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.',
    ),
    clusterIPs: stringList(
      "ClusterIPs is a list of IP addresses assigned to this service, and are usually assigned randomly. If this field is specified, it must agree with the clusterIP field.",
    ),
    externalIPs: stringList(
      "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.",
    ),
    externalName: str(
      'externalName is the external reference that discovery mechanisms will return as an alias for this service (e.g. a DNS CNAME record). Requires `type` to be "ExternalName".',
    ),
    externalTrafficPolicy: str(
      'externalTrafficPolicy describes how nodes distribute service traffic they receive on one of the Service\'s "externally-facing" addresses.',
    ),
    healthCheckNodePort: int32(
      "healthCheckNodePort specifies the healthcheck nodePort for the service.",
    ),
    internalTrafficPolicy: str(
      "InternalTrafficPolicy describes how nodes distribute service traffic they receive on the ClusterIP.",
    ),
    ipFamilies: stringList(
      "IPFamilies is a list of IP families (e.g. IPv4, IPv6) assigned to this service. This field is usually assigned automatically based on cluster configuration and the ipFamilyPolicy field.",
    ),
    ipFamilyPolicy: str(
      'IPFamilyPolicy represents the dual-stack-ness requested or required by this Service. Valid values are "SingleStack", "PreferDualStack", and "RequireDualStack".',
    ),
    loadBalancerClass: str(
      "loadBalancerClass is the class of the load balancer implementation this Service belongs to.",
    ),
    loadBalancerIP: str("Only applies to Service Type: LoadBalancer. Deprecated."),
    loadBalancerSourceRanges: stringList(
      "If specified and supported by the platform, this will restrict traffic through the cloud-provider load-balancer will be restricted to the specified client IPs.",
    ),
    ports: {
      type: "array",
      description: "The list of ports that are exposed by this service.",
      items: servicePort,
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["port", "protocol"],
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "port",
    },
    publishNotReadyAddresses: bool(
      "publishNotReadyAddresses indicates that any agent which deals with endpoints for this Service should disregard any indications of ready/not-ready.",
    ),
    selector: {
      ...stringMap(
        "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify.",
      ),
      "x-kubernetes-map-type": "atomic",
    },
    sessionAffinity: str(
      'Supports "ClientIP" and "None". Used to maintain session affinity. Enable client IP based session affinity. Must be ClientIP or None. Defaults to None.',
    ),
    sessionAffinityConfig,
    trafficDistribution: str(
      "TrafficDistribution offers a way to express preferences for how traffic is distributed to Service endpoints.",
    ),
    type: str(
      "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.",
    ),
  },
);

const serviceStatus = object("ServiceStatus represents the current status of a service.", {
  conditions: {
    type: "array",
    description: "Current service state",
    items: object(
      "Condition contains details for one aspect of the current state of this API Resource.",
      {
        lastTransitionTime: {
          type: "string",
          format: "date-time",
          description:
            "lastTransitionTime is the last time the condition transitioned from one status to another.",
        },
        message: str(
          "message is a human readable message indicating details about the transition.",
        ),
        observedGeneration: {
          type: "integer",
          format: "int64",
          description:
            "observedGeneration represents the .metadata.generation that the condition was set based upon.",
        },
        reason: str(
          "reason contains a programmatic identifier indicating the reason for the condition's last transition.",
        ),
        status: str("status of the condition, one of True, False, Unknown."),
        type: str("type of condition in CamelCase or in foo.example.com/CamelCase."),
      },
      ["type", "status", "lastTransitionTime", "reason", "message"],
    ),
    "x-kubernetes-list-type": "map",
    "x-kubernetes-list-map-keys": ["type"],
    "x-kubernetes-patch-strategy": "merge",
    "x-kubernetes-patch-merge-key": "type",
  },
  loadBalancer: object(
    "LoadBalancer contains the current status of the load-balancer, if one is present.",
    {
      ingress: {
        type: "array",
        description: "Ingress is a list containing ingress points for the load-balancer.",
        items: object(
          "LoadBalancerIngress represents the status of a load-balancer ingress point.",
          {
            hostname: str("Hostname is set for load-balancer ingress points that are DNS based."),
            ip: str("IP is set for load-balancer ingress points that are IP based."),
            ipMode: str("IPMode specifies how the load-balancer IP behaves."),
          },
        ),
        "x-kubernetes-list-type": "atomic",
      },
    },
  ),
});

export const serviceSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Service" },
  "Service is a named abstraction of software service (for example, mysql) consisting of local port (for example 3306) that the proxy listens on, and the selector that determines which pods will answer requests sent through the proxy.",
  { spec: serviceSpec, status: serviceStatus },
);
