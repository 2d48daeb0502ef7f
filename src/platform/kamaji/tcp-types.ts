/**
 * Kamaji's TenantControlPlane (`kamaji.clastix.io/v1alpha1`, namespaced,
 * short name `tcp`): the types of the fields Hearth reads and writes, with
 * Kamaji's names. Fields Hearth has no use for (kubelet patches, konnectivity,
 * kube-proxy, registry settings, …) are kept by the schema but not typed here.
 */
import type { KubeObject } from "../../api/index.js";
import type { Condition } from "../../runtime/index.js";

export const KAMAJI_GROUP = "kamaji.clastix.io";
export const KAMAJI_API_VERSION = `${KAMAJI_GROUP}/v1alpha1`;
export const TENANT_CONTROL_PLANE = {
  apiVersion: KAMAJI_API_VERSION,
  kind: "TenantControlPlane",
} as const;

/** `status.kubernetesResources.version.status`, Kamaji's values. */
export const TCP_VERSION_STATUSES = [
  "Unknown",
  "Provisioning",
  "CertificateAuthorityRotating",
  "Upgrading",
  "Migrating",
  "Ready",
  "NotReady",
  "Sleeping",
  "WriteLimited",
  // Hearth's: the control plane is being torn down (issue 17).
  "Deleting",
] as const;
export type TcpVersionStatus = (typeof TCP_VERSION_STATUSES)[number];

/** A Secret a status points at, with the checksum of what was written into it. */
export interface SecretStatus {
  secretName?: string;
  checksum?: string;
  lastUpdate?: string;
}

export interface TenantControlPlaneSpec {
  dataStore?: string;
  dataStoreSchema?: string;
  dataStoreUsername?: string;
  dataStoreOverrides?: { resource?: string; dataStore?: string }[];
  controlPlane: {
    deployment?: {
      replicas?: number;
      extraArgs?: Partial<
        Record<"apiServer" | "controllerManager" | "scheduler" | "kine", string[]>
      >;
      [field: string]: unknown;
    };
    service: { serviceType: "ClusterIP" | "NodePort" | "LoadBalancer"; [field: string]: unknown };
    [field: string]: unknown;
  };
  kubernetes: {
    version: string;
    kubelet?: Record<string, unknown>;
    admissionControllers?: string[];
  };
  networkProfile?: {
    address?: string;
    advertiseAddress?: string;
    port?: number;
    certSANs?: string[];
    serviceCidr?: string;
    podCidr?: string;
    dnsServiceIPs?: string[];
    clusterDomain?: string;
    [field: string]: unknown;
  };
  addons?: Record<string, unknown>;
  writePermissions?: { blockCreation?: boolean; blockUpdate?: boolean; blockDeletion?: boolean };
}

export interface TenantControlPlaneStatus {
  observedGeneration?: number;
  storage?: {
    driver?: string;
    dataStoreName?: string;
    config?: { secretName?: string; checksum?: string };
    setup?: { schema?: string; user?: string; checksum?: string; lastUpdate?: string };
    certificate?: SecretStatus;
  };
  kubeconfig?: { admin?: SecretStatus; controllerManager?: SecretStatus; scheduler?: SecretStatus };
  controlPlaneEndpoint?: string;
  kubernetesResources?: {
    version?: { version?: string; status?: TcpVersionStatus };
    [field: string]: unknown;
  };
  conditions?: Condition[];
  [field: string]: unknown;
}

export interface TenantControlPlane extends KubeObject {
  spec: TenantControlPlaneSpec;
  status?: TenantControlPlaneStatus;
}

/**
 * The DataStore a control plane uses: the one its setup was done on
 * (`status.storage.dataStoreName`), else, before any setup, the one its spec
 * names. Empty when it names none.
 */
export function dataStoreOf(tcp: TenantControlPlane): string {
  return tcp.status?.storage?.dataStoreName || tcp.spec?.dataStore || "";
}
