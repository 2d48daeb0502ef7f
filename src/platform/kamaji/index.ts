/**
 * Kamaji's TenantControlPlane kind (`kamaji.clastix.io/v1alpha1`): its CRD
 * and types. The controller that runs control planes comes later (issue 17);
 * the DataStore controller (`../datastore/`) already counts their users.
 */
import type { Component } from "../component.js";
import { TENANT_CONTROL_PLANE_CRD } from "./tcp-crd.js";

export { TENANT_CONTROL_PLANE_CRD } from "./tcp-crd.js";
export {
  dataStoreOf,
  KAMAJI_API_VERSION,
  KAMAJI_GROUP,
  type SecretStatus,
  TCP_VERSION_STATUSES,
  type TcpVersionStatus,
  TENANT_CONTROL_PLANE,
  type TenantControlPlane,
  type TenantControlPlaneSpec,
  type TenantControlPlaneStatus,
} from "./tcp-types.js";

export const kamajiComponent: Component = { name: "kamaji", crds: [TENANT_CONTROL_PLANE_CRD] };
