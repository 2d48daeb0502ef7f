/**
 * Field tables for a pod's volumes in k8s.io/api/core/v1/generated.proto:
 * Volume with its inline VolumeSource and the sources Kubernetes itself
 * provides (hostPath, emptyDir, secret, configMap, downwardAPI, projected,
 * persistentVolumeClaim, ephemeral, csi, image).
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { LocalObjectReference } from "./core-messages.js";
import {
  AWSElasticBlockStoreVolumeSource,
  AzureDiskVolumeSource,
  AzureFileVolumeSource,
  CephFSVolumeSource,
  CinderVolumeSource,
  FCVolumeSource,
  FlexVolumeSource,
  FlockerVolumeSource,
  GCEPersistentDiskVolumeSource,
  GitRepoVolumeSource,
  GlusterfsVolumeSource,
  ISCSIVolumeSource,
  NFSVolumeSource,
  PhotonPersistentDiskVolumeSource,
  PortworxVolumeSource,
  QuobyteVolumeSource,
  RBDVolumeSource,
  ScaleIOVolumeSource,
  StorageOSVolumeSource,
  VsphereVirtualDiskVolumeSource,
} from "./in-tree-volume-messages.js";
import { LabelSelector, ObjectMeta } from "./meta-messages.js";
import { always, inline, list, listOrNull, map, message, omitEmpty, pointer } from "./schema.js";

const HostPathVolumeSource = message("HostPathVolumeSource", [
  always(1, "path", "string"),
  pointer(2, "type", "string"),
]);

const EmptyDirVolumeSource = message("EmptyDirVolumeSource", [
  omitEmpty(1, "medium", "string"),
  pointer(2, "sizeLimit", "quantity"),
]);

const KeyToPath = message("KeyToPath", [
  always(1, "key", "string"),
  always(2, "path", "string"),
  pointer(3, "mode", "int32"),
]);

const SecretVolumeSource = message("SecretVolumeSource", [
  omitEmpty(1, "secretName", "string"),
  list(2, "items", KeyToPath),
  pointer(3, "defaultMode", "int32"),
  pointer(4, "optional", "bool"),
]);

const PersistentVolumeClaimVolumeSource = message("PersistentVolumeClaimVolumeSource", [
  always(1, "claimName", "string"),
  omitEmpty(2, "readOnly", "bool"),
]);

export const ObjectFieldSelector = message("ObjectFieldSelector", [
  omitEmpty(1, "apiVersion", "string"),
  always(2, "fieldPath", "string"),
]);

export const ResourceFieldSelector = message("ResourceFieldSelector", [
  omitEmpty(1, "containerName", "string"),
  always(2, "resource", "string"),
  always(3, "divisor", "quantity"),
]);

const DownwardAPIVolumeFile = message("DownwardAPIVolumeFile", [
  always(1, "path", "string"),
  pointer(2, "fieldRef", ObjectFieldSelector),
  pointer(3, "resourceFieldRef", ResourceFieldSelector),
  pointer(4, "mode", "int32"),
]);

const DownwardAPIVolumeSource = message("DownwardAPIVolumeSource", [
  list(1, "items", DownwardAPIVolumeFile),
  pointer(2, "defaultMode", "int32"),
]);

const ConfigMapVolumeSource = message("ConfigMapVolumeSource", [
  inline(1, LocalObjectReference),
  list(2, "items", KeyToPath),
  pointer(3, "defaultMode", "int32"),
  pointer(4, "optional", "bool"),
]);

const SecretProjection = message("SecretProjection", [
  inline(1, LocalObjectReference),
  list(2, "items", KeyToPath),
  pointer(4, "optional", "bool"),
]);

const DownwardAPIProjection = message("DownwardAPIProjection", [
  list(1, "items", DownwardAPIVolumeFile),
]);

const ConfigMapProjection = message("ConfigMapProjection", [
  inline(1, LocalObjectReference),
  list(2, "items", KeyToPath),
  pointer(4, "optional", "bool"),
]);

const ServiceAccountTokenProjection = message("ServiceAccountTokenProjection", [
  omitEmpty(1, "audience", "string"),
  pointer(2, "expirationSeconds", "int64"),
  always(3, "path", "string"),
]);

const ClusterTrustBundleProjection = message("ClusterTrustBundleProjection", [
  pointer(1, "name", "string"),
  pointer(2, "signerName", "string"),
  pointer(3, "labelSelector", LabelSelector),
  pointer(5, "optional", "bool"),
  always(4, "path", "string"),
]);

const VolumeProjection = message("VolumeProjection", [
  pointer(1, "secret", SecretProjection),
  pointer(2, "downwardAPI", DownwardAPIProjection),
  pointer(3, "configMap", ConfigMapProjection),
  pointer(4, "serviceAccountToken", ServiceAccountTokenProjection),
  pointer(5, "clusterTrustBundle", ClusterTrustBundleProjection),
]);

const ProjectedVolumeSource = message("ProjectedVolumeSource", [
  listOrNull(1, "sources", VolumeProjection),
  pointer(2, "defaultMode", "int32"),
]);

const CSIVolumeSource = message("CSIVolumeSource", [
  always(1, "driver", "string"),
  pointer(2, "readOnly", "bool"),
  pointer(3, "fsType", "string"),
  map(4, "volumeAttributes", "string"),
  pointer(5, "nodePublishSecretRef", LocalObjectReference),
]);

const VolumeResourceRequirements = message("VolumeResourceRequirements", [
  map(1, "limits", "quantity"),
  map(2, "requests", "quantity"),
]);

const TypedLocalObjectReference = message("TypedLocalObjectReference", [
  pointer(1, "apiGroup", "string"),
  always(2, "kind", "string"),
  always(3, "name", "string"),
]);

const TypedObjectReference = message("TypedObjectReference", [
  pointer(1, "apiGroup", "string"),
  always(2, "kind", "string"),
  always(3, "name", "string"),
  pointer(4, "namespace", "string"),
]);

const PersistentVolumeClaimSpec = message("PersistentVolumeClaimSpec", [
  list(1, "accessModes", "string"),
  pointer(4, "selector", LabelSelector),
  always(2, "resources", VolumeResourceRequirements),
  omitEmpty(3, "volumeName", "string"),
  pointer(5, "storageClassName", "string"),
  pointer(6, "volumeMode", "string"),
  pointer(7, "dataSource", TypedLocalObjectReference),
  pointer(8, "dataSourceRef", TypedObjectReference),
  pointer(9, "volumeAttributesClassName", "string"),
]);

const PersistentVolumeClaimTemplate = message("PersistentVolumeClaimTemplate", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", PersistentVolumeClaimSpec),
]);

const EphemeralVolumeSource = message("EphemeralVolumeSource", [
  pointer(1, "volumeClaimTemplate", PersistentVolumeClaimTemplate),
]);

const ImageVolumeSource = message("ImageVolumeSource", [
  omitEmpty(1, "reference", "string"),
  omitEmpty(2, "pullPolicy", "string"),
]);

const VolumeSource = message("VolumeSource", [
  pointer(1, "hostPath", HostPathVolumeSource),
  pointer(2, "emptyDir", EmptyDirVolumeSource),
  pointer(3, "gcePersistentDisk", GCEPersistentDiskVolumeSource),
  pointer(4, "awsElasticBlockStore", AWSElasticBlockStoreVolumeSource),
  pointer(5, "gitRepo", GitRepoVolumeSource),
  pointer(6, "secret", SecretVolumeSource),
  pointer(7, "nfs", NFSVolumeSource),
  pointer(8, "iscsi", ISCSIVolumeSource),
  pointer(9, "glusterfs", GlusterfsVolumeSource),
  pointer(10, "persistentVolumeClaim", PersistentVolumeClaimVolumeSource),
  pointer(11, "rbd", RBDVolumeSource),
  pointer(12, "flexVolume", FlexVolumeSource),
  pointer(13, "cinder", CinderVolumeSource),
  pointer(14, "cephfs", CephFSVolumeSource),
  pointer(15, "flocker", FlockerVolumeSource),
  pointer(16, "downwardAPI", DownwardAPIVolumeSource),
  pointer(17, "fc", FCVolumeSource),
  pointer(18, "azureFile", AzureFileVolumeSource),
  pointer(19, "configMap", ConfigMapVolumeSource),
  pointer(20, "vsphereVolume", VsphereVirtualDiskVolumeSource),
  pointer(21, "quobyte", QuobyteVolumeSource),
  pointer(22, "azureDisk", AzureDiskVolumeSource),
  pointer(23, "photonPersistentDisk", PhotonPersistentDiskVolumeSource),
  pointer(26, "projected", ProjectedVolumeSource),
  pointer(24, "portworxVolume", PortworxVolumeSource),
  pointer(25, "scaleIO", ScaleIOVolumeSource),
  pointer(27, "storageos", StorageOSVolumeSource),
  pointer(28, "csi", CSIVolumeSource),
  pointer(29, "ephemeral", EphemeralVolumeSource),
  pointer(30, "image", ImageVolumeSource),
]);

export const Volume = message("Volume", [always(1, "name", "string"), inline(2, VolumeSource)]);
