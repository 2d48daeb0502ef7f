/**
 * The TenantControlPlane CustomResourceDefinition: Kamaji's group, names
 * (short name `tcp`, category `kamaji`), printer columns, `status` and
 * `/scale` (on `spec.controlPlane.deployment.replicas`) subresources, the
 * spec schema of `tcp-spec-schema.ts` and Kamaji's status fields. The status
 * is typed where Hearth writes it (storage, kubeconfig, endpoint, version,
 * conditions) and open below that (certificates, addons, the Deployment's
 * and Service's mirrors), so a controller may add Kamaji's other fields.
 */
import type { KubeObject } from "../../api/index.js";
import { rootSchema } from "../definitions.js";
import { TCP_SPEC_SCHEMA } from "./tcp-spec-schema.js";
import { KAMAJI_GROUP, TCP_VERSION_STATUSES } from "./tcp-types.js";

type Schema = Record<string, unknown>;

const str: Schema = { type: "string" };
const open: Schema = { type: "object", "x-kubernetes-preserve-unknown-fields": true };
const secretStatus: Schema = {
  type: "object",
  properties: {
    secretName: str,
    checksum: str,
    lastUpdate: { type: "string", format: "date-time" },
  },
};

const status: Record<string, Schema> = {
  observedGeneration: { type: "integer", format: "int64" },
  storage: {
    type: "object",
    properties: {
      driver: str,
      dataStoreName: str,
      config: { type: "object", properties: { secretName: str, checksum: str } },
      setup: {
        type: "object",
        properties: {
          schema: str,
          user: str,
          checksum: str,
          lastUpdate: { type: "string", format: "date-time" },
        },
      },
      certificate: secretStatus,
    },
  },
  certificates: open,
  kubeconfig: {
    type: "object",
    properties: { admin: secretStatus, controllerManager: secretStatus, scheduler: secretStatus },
  },
  kubeadmconfig: open,
  kubeadmPhase: open,
  controlPlaneEndpoint: str,
  addons: open,
  kubernetesResources: {
    type: "object",
    properties: {
      version: {
        type: "object",
        properties: {
          version: str,
          status: { type: "string", enum: [...TCP_VERSION_STATUSES], default: "Provisioning" },
        },
      },
      deployment: open,
      service: open,
      ingress: open,
      gateway: open,
    },
  },
  conditions: { type: "array", items: open },
};

const column = (name: string, jsonPath: string, description: string, type = "string") => ({
  name,
  type,
  jsonPath,
  description,
});

export const TENANT_CONTROL_PLANE_CRD: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `tenantcontrolplanes.${KAMAJI_GROUP}` },
  spec: {
    group: KAMAJI_GROUP,
    scope: "Namespaced",
    names: {
      kind: "TenantControlPlane",
      listKind: "TenantControlPlaneList",
      plural: "tenantcontrolplanes",
      singular: "tenantcontrolplane",
      shortNames: ["tcp"],
      categories: ["kamaji"],
    },
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: {
            specReplicasPath: ".spec.controlPlane.deployment.replicas",
            statusReplicasPath: ".status.kubernetesResources.deployment.replicas",
            labelSelectorPath: ".status.kubernetesResources.deployment.selector",
          },
        },
        additionalPrinterColumns: [
          column("Version", ".spec.kubernetes.version", "Kubernetes version"),
          column(
            "Installed Version",
            ".status.kubernetesResources.version.version",
            "The actual installed Kubernetes version from status",
          ),
          column("Status", ".status.kubernetesResources.version.status", "Status"),
          column(
            "Control-Plane endpoint",
            ".status.controlPlaneEndpoint",
            "Tenant Control Plane Endpoint (API server)",
          ),
          column(
            "Kubeconfig",
            ".status.kubeconfig.admin.secretName",
            "Secret which contains admin kubeconfig",
          ),
          column("Datastore", ".status.storage.dataStoreName", "DataStore actually used"),
          column("Age", ".metadata.creationTimestamp", "Age", "date"),
        ],
        schema: {
          openAPIV3Schema: rootSchema({ spec: TCP_SPEC_SCHEMA }, { required: ["spec"], status }),
        },
      },
    ],
  },
};
