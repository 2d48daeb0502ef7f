/**
 * The service kinds: v1 Service (ClusterIP allocated from the service CIDR when
 * it is stored, see `cluster-ip.ts`), v1 Endpoints and discovery.k8s.io/v1
 * EndpointSlice, with kubectl's columns.
 */

import type { KubeObject } from "../../api/index.js";
import { endpointSliceSchema, endpointsSchema, serviceSchema } from "../schemas/index.js";
import { clusterIpAllocator, DEFAULT_SERVICE_CIDR, parseCidr } from "./cluster-ip.js";
import { defaultEndpointSlice, validateEndpointSlice } from "./endpoint-slice-validation.js";
import { defaultEndpoints, validateEndpoints } from "./endpoints-validation.js";
import { type ResourceType, STANDARD_VERBS } from "./resource-type.js";
import {
  endpointsCell,
  serviceExternalIp,
  servicePorts,
  serviceSelector,
  sliceEndpoints,
  slicePorts,
} from "./service-tables.js";
import { defaultService, keepAllocated, validateService } from "./service-validation.js";
import { ageColumn } from "./table.js";

type Base = Pick<ResourceType, "group" | "kind" | "plural" | "singular" | "schema"> &
  Partial<ResourceType>;

function kind(base: Base): ResourceType {
  return {
    version: "v1",
    listKind: `${base.kind}List`,
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    status: false,
    nameRule: "dns1123-subdomain",
    strategicMergePatch: true,
    columns: [],
    ...base,
  };
}

const spec = (o: KubeObject) => (o.spec ?? {}) as { type?: string; clusterIP?: string };

function serviceType(serviceCidr: string): ResourceType {
  return kind({
    group: "",
    kind: "Service",
    plural: "services",
    singular: "service",
    returnDeletedObject: true,
    shortNames: ["svc"],
    categories: ["all"],
    status: true,
    nameRule: "dns1123-label",
    schema: serviceSchema,
    columns: [
      { name: "Type", type: "string", cell: (o) => spec(o).type ?? "" },
      { name: "Cluster-IP", type: "string", cell: (o) => spec(o).clusterIP ?? "" },
      { name: "External-IP", type: "string", cell: serviceExternalIp },
      { name: "Port(s)", type: "string", cell: servicePorts },
      ageColumn,
      { name: "Selector", type: "string", priority: 1, cell: serviceSelector },
    ],
    selectableFields: (o) => ({
      "spec.clusterIP": spec(o).clusterIP ?? "",
      "spec.type": spec(o).type ?? "",
    }),
    prepareForCreate: defaultService,
    prepareForUpdate: keepAllocated,
    validate: validateService,
    storeCreate: clusterIpAllocator(parseCidr(serviceCidr)),
  });
}

const endpointsType = kind({
  group: "",
  kind: "Endpoints",
  plural: "endpoints",
  singular: "endpoints",
  shortNames: ["ep"],
  schema: endpointsSchema,
  columns: [{ name: "Endpoints", type: "string", cell: endpointsCell }],
  prepareForCreate: defaultEndpoints,
  prepareForUpdate: defaultEndpoints,
  validate: validateEndpoints,
});

const endpointSliceType = kind({
  group: "discovery.k8s.io",
  kind: "EndpointSlice",
  plural: "endpointslices",
  singular: "endpointslice",
  schema: endpointSliceSchema,
  columns: [
    { name: "AddressType", type: "string", cell: (o) => String(o.addressType ?? "") },
    { name: "Ports", type: "string", cell: slicePorts },
    { name: "Endpoints", type: "string", cell: sliceEndpoints },
  ],
  prepareForCreate: defaultEndpointSlice,
  prepareForUpdate: defaultEndpointSlice,
  validate: validateEndpointSlice,
});

/** Service (with its ClusterIP range), Endpoints and EndpointSlice. */
export function serviceTypes(serviceCidr = DEFAULT_SERVICE_CIDR): ResourceType[] {
  return [serviceType(serviceCidr), endpointsType, endpointSliceType];
}
