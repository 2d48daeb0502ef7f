/**
 * core/v1 Endpoints, as kube v1.32 publishes it (descriptions shortened): the
 * addresses and ports of a Service's pods, grouped into subsets that share ports.
 */
import type { Schema } from "../../api/index.js";
import { int32, object, str } from "./builders.js";
import { kindSchema } from "./kind.js";
import { objectReference } from "./references.js";

const atomicList = (description: string, items: Schema): Schema => ({
  type: "array",
  description,
  items,
  "x-kubernetes-list-type": "atomic",
});

const endpointAddress = {
  ...object(
    "EndpointAddress is a tuple that describes single IP address.",
    {
      hostname: str("The Hostname of this endpoint"),
      ip: str(
        "The IP of this endpoint. May not be loopback (127.0.0.0/8 or ::1), link-local (169.254.0.0/16 or fe80::/10), or link-local multicast (224.0.0.0/24 or ff02::/16).",
      ),
      nodeName: str(
        "Optional: Node hosting this endpoint. This can be used to determine endpoints local to a node.",
      ),
      targetRef: objectReference("Reference to object providing the endpoint."),
    },
    ["ip"],
  ),
  "x-kubernetes-map-type": "atomic",
} satisfies Schema;

/** core/v1 EndpointPort; discovery.k8s.io/v1 EndpointPort has the same fields. */
export const endpointPort: Schema = {
  ...object("EndpointPort is a tuple that describes a single port.", {
    appProtocol: str("The application protocol for this port."),
    name: str(
      "The name of this port. This must match the 'name' field in the corresponding ServicePort. Must be a DNS_LABEL. Optional only if one port is defined.",
    ),
    port: int32("The port number of the endpoint."),
    protocol: str("The IP protocol for this port. Must be UDP, TCP, or SCTP. Default is TCP."),
  }),
  "x-kubernetes-map-type": "atomic",
};

const endpointSubset = object(
  "EndpointSubset is a group of addresses with a common set of ports. The expanded set of endpoints is the Cartesian product of Addresses x Ports.",
  {
    addresses: atomicList(
      "IP addresses which offer the related ports that are marked as ready.",
      endpointAddress,
    ),
    notReadyAddresses: atomicList(
      "IP addresses which offer the related ports but are not currently marked as ready because they have not yet finished starting, have recently failed a readiness check, or have recently failed a liveness check.",
      endpointAddress,
    ),
    ports: atomicList("Port numbers available on the related IP addresses.", endpointPort),
  },
);

export const endpointsSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Endpoints" },
  "Endpoints is a collection of endpoints that implement the actual service.",
  {
    subsets: atomicList(
      "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share.",
      endpointSubset,
    ),
  },
);
