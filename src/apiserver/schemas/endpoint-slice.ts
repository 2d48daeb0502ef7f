/**
 * discovery.k8s.io/v1 EndpointSlice, as kube v1.32 publishes it (descriptions
 * shortened): a Service's endpoints with their readiness conditions, labelled
 * `kubernetes.io/service-name`.
 */
import type { Schema } from "../../api/index.js";
import { bool, object, str, stringList, stringMap } from "./builders.js";
import { endpointPort } from "./endpoints.js";
import { kindSchema } from "./kind.js";
import { objectReference } from "./references.js";

const conditions = object("EndpointConditions represents the current condition of an endpoint.", {
  ready: bool(
    "ready indicates that this endpoint is ready to receive traffic, according to whatever system is managing the endpoint.",
  ),
  serving: bool(
    "serving indicates that this endpoint is able to receive traffic, according to whatever system is managing the endpoint.",
  ),
  terminating: bool("terminating indicates that this endpoint is terminating."),
});

const hints = object(
  "EndpointHints provides hints describing how an endpoint should be consumed.",
  {
    forZones: {
      type: "array",
      description:
        "forZones indicates the zone(s) this endpoint should be consumed by to enable topology aware routing.",
      items: object(
        "ForZone provides information about which zones should consume this endpoint.",
        { name: str("name represents the name of the zone.") },
        ["name"],
      ),
      "x-kubernetes-list-type": "atomic",
    },
  },
);

const endpoint = object(
  'Endpoint represents a single logical "backend" implementing a service.',
  {
    addresses: stringList(
      'addresses of this endpoint. For EndpointSlices of addressType "IPv4" or "IPv6", the values are IP addresses in canonical form.',
      "set",
    ),
    conditions,
    deprecatedTopology: stringMap(
      "deprecatedTopology contains topology information part of the v1beta1 API.",
    ),
    hints,
    hostname: str(
      "hostname of this endpoint. This field may be used by consumers of endpoints to distinguish endpoints from each other (e.g. in DNS names).",
    ),
    nodeName: str("nodeName represents the name of the Node hosting this endpoint."),
    targetRef: objectReference(
      "targetRef is a reference to a Kubernetes object that represents this endpoint.",
    ),
    zone: str("zone is the name of the Zone this endpoint exists in."),
  },
  ["addresses"],
);

export const endpointSliceSchema: Schema = kindSchema(
  { group: "discovery.k8s.io", version: "v1", kind: "EndpointSlice" },
  "EndpointSlice represents a set of service endpoints. Most EndpointSlices are created by the EndpointSlice controller to represent the Pods selected by Service objects.",
  {
    addressType: str(
      "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4 * IPv6 * FQDN",
    ),
    endpoints: {
      type: "array",
      description:
        "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.",
      items: endpoint,
      "x-kubernetes-list-type": "atomic",
    },
    ports: {
      type: "array",
      description:
        "ports specifies the list of network ports exposed by each endpoint in this slice.",
      items: endpointPort,
      "x-kubernetes-list-type": "atomic",
    },
  },
  ["addressType", "endpoints"],
);
