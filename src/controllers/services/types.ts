/**
 * The fields of Services, Pods, Endpoints and EndpointSlices the services
 * controllers and the resolver read and write, as typed views over the API's
 * open objects.
 */
import type { KubeObject } from "../../api/index.js";

export const SERVICE_NAME_LABEL = "kubernetes.io/service-name";
export const MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
export const MANAGED_BY = "endpointslice-controller.k8s.io";
export const HEADLESS_LABEL = "service.kubernetes.io/headless";

export interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
  appProtocol?: string;
  targetPort?: number | string;
}

export interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string>;
    clusterIP?: string;
    ports?: ServicePort[];
    publishNotReadyAddresses?: boolean;
  };
}

export interface PodView extends KubeObject {
  spec?: {
    hostname?: string;
    subdomain?: string;
    nodeName?: string;
    containers?: { ports?: { name?: string; containerPort: number; protocol?: string }[] }[];
  };
  status?: {
    phase?: string;
    podIP?: string;
    conditions?: { type: string; status: string }[];
  };
}

export interface ObjectRef {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
}

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectRef;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  nodeName?: string;
  targetRef?: ObjectRef;
}

export interface EndpointSlice extends KubeObject {
  addressType: string;
  endpoints: SliceEndpoint[];
  ports: EndpointPort[];
}

/** True for a headless Service (`clusterIP: None`). */
export function isHeadless(svc: Service): boolean {
  return svc.spec?.clusterIP === "None";
}
