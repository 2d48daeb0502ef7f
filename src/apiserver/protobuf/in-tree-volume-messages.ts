/**
 * Field tables for the in-tree volume plugins' sources in
 * k8s.io/api/core/v1/generated.proto (GCE PD, AWS EBS, gitRepo, NFS, iSCSI,
 * Glusterfs, RBD, FlexVolume, Cinder, CephFS, Flocker, FC, Azure File/Disk,
 * vSphere, Quobyte, Photon, Portworx, ScaleIO, StorageOS). Hearth mounts none of
 * them, but a pod template naming one must reach validation intact.
 * Numbers are the proto's and every field of k8s.io/api v0.32 is listed (an unlisted
 * field would be dropped silently); emit rules follow the json tags in types.go.
 */
import { LocalObjectReference } from "./core-messages.js";
import { always, list, listOrNull, map, message, omitEmpty, pointer } from "./schema.js";

export const GCEPersistentDiskVolumeSource = message("GCEPersistentDiskVolumeSource", [
  always(1, "pdName", "string"),
  omitEmpty(2, "fsType", "string"),
  omitEmpty(3, "partition", "int32"),
  omitEmpty(4, "readOnly", "bool"),
]);

export const AWSElasticBlockStoreVolumeSource = message("AWSElasticBlockStoreVolumeSource", [
  always(1, "volumeID", "string"),
  omitEmpty(2, "fsType", "string"),
  omitEmpty(3, "partition", "int32"),
  omitEmpty(4, "readOnly", "bool"),
]);

export const GitRepoVolumeSource = message("GitRepoVolumeSource", [
  always(1, "repository", "string"),
  omitEmpty(2, "revision", "string"),
  omitEmpty(3, "directory", "string"),
]);

export const NFSVolumeSource = message("NFSVolumeSource", [
  always(1, "server", "string"),
  always(2, "path", "string"),
  omitEmpty(3, "readOnly", "bool"),
]);

export const ISCSIVolumeSource = message("ISCSIVolumeSource", [
  always(1, "targetPortal", "string"),
  always(2, "iqn", "string"),
  always(3, "lun", "int32"),
  omitEmpty(4, "iscsiInterface", "string"),
  omitEmpty(5, "fsType", "string"),
  omitEmpty(6, "readOnly", "bool"),
  list(7, "portals", "string"),
  omitEmpty(8, "chapAuthDiscovery", "bool"),
  omitEmpty(11, "chapAuthSession", "bool"),
  pointer(10, "secretRef", LocalObjectReference),
  pointer(12, "initiatorName", "string"),
]);

export const GlusterfsVolumeSource = message("GlusterfsVolumeSource", [
  always(1, "endpoints", "string"),
  always(2, "path", "string"),
  omitEmpty(3, "readOnly", "bool"),
]);

export const RBDVolumeSource = message("RBDVolumeSource", [
  listOrNull(1, "monitors", "string"),
  always(2, "image", "string"),
  omitEmpty(3, "fsType", "string"),
  omitEmpty(4, "pool", "string"),
  omitEmpty(5, "user", "string"),
  omitEmpty(6, "keyring", "string"),
  pointer(7, "secretRef", LocalObjectReference),
  omitEmpty(8, "readOnly", "bool"),
]);

export const FlexVolumeSource = message("FlexVolumeSource", [
  always(1, "driver", "string"),
  omitEmpty(2, "fsType", "string"),
  pointer(3, "secretRef", LocalObjectReference),
  omitEmpty(4, "readOnly", "bool"),
  map(5, "options", "string"),
]);

export const CinderVolumeSource = message("CinderVolumeSource", [
  always(1, "volumeID", "string"),
  omitEmpty(2, "fsType", "string"),
  omitEmpty(3, "readOnly", "bool"),
  pointer(4, "secretRef", LocalObjectReference),
]);

export const CephFSVolumeSource = message("CephFSVolumeSource", [
  listOrNull(1, "monitors", "string"),
  omitEmpty(2, "path", "string"),
  omitEmpty(3, "user", "string"),
  omitEmpty(4, "secretFile", "string"),
  pointer(5, "secretRef", LocalObjectReference),
  omitEmpty(6, "readOnly", "bool"),
]);

export const FlockerVolumeSource = message("FlockerVolumeSource", [
  omitEmpty(1, "datasetName", "string"),
  omitEmpty(2, "datasetUUID", "string"),
]);

export const FCVolumeSource = message("FCVolumeSource", [
  list(1, "targetWWNs", "string"),
  pointer(2, "lun", "int32"),
  omitEmpty(3, "fsType", "string"),
  omitEmpty(4, "readOnly", "bool"),
  list(5, "wwids", "string"),
]);

export const AzureFileVolumeSource = message("AzureFileVolumeSource", [
  always(1, "secretName", "string"),
  always(2, "shareName", "string"),
  omitEmpty(3, "readOnly", "bool"),
]);

export const VsphereVirtualDiskVolumeSource = message("VsphereVirtualDiskVolumeSource", [
  always(1, "volumePath", "string"),
  omitEmpty(2, "fsType", "string"),
  omitEmpty(3, "storagePolicyName", "string"),
  omitEmpty(4, "storagePolicyID", "string"),
]);

export const QuobyteVolumeSource = message("QuobyteVolumeSource", [
  always(1, "registry", "string"),
  always(2, "volume", "string"),
  omitEmpty(3, "readOnly", "bool"),
  omitEmpty(4, "user", "string"),
  omitEmpty(5, "group", "string"),
  omitEmpty(6, "tenant", "string"),
]);

export const AzureDiskVolumeSource = message("AzureDiskVolumeSource", [
  always(1, "diskName", "string"),
  always(2, "diskURI", "string"),
  pointer(3, "cachingMode", "string"),
  pointer(4, "fsType", "string"),
  pointer(5, "readOnly", "bool"),
  pointer(6, "kind", "string"),
]);

export const PhotonPersistentDiskVolumeSource = message("PhotonPersistentDiskVolumeSource", [
  always(1, "pdID", "string"),
  omitEmpty(2, "fsType", "string"),
]);

export const PortworxVolumeSource = message("PortworxVolumeSource", [
  always(1, "volumeID", "string"),
  omitEmpty(2, "fsType", "string"),
  omitEmpty(3, "readOnly", "bool"),
]);

export const ScaleIOVolumeSource = message("ScaleIOVolumeSource", [
  always(1, "gateway", "string"),
  always(2, "system", "string"),
  pointer(3, "secretRef", LocalObjectReference),
  omitEmpty(4, "sslEnabled", "bool"),
  omitEmpty(5, "protectionDomain", "string"),
  omitEmpty(6, "storagePool", "string"),
  omitEmpty(7, "storageMode", "string"),
  omitEmpty(8, "volumeName", "string"),
  omitEmpty(9, "fsType", "string"),
  omitEmpty(10, "readOnly", "bool"),
]);

export const StorageOSVolumeSource = message("StorageOSVolumeSource", [
  omitEmpty(1, "volumeName", "string"),
  omitEmpty(2, "volumeNamespace", "string"),
  omitEmpty(3, "fsType", "string"),
  omitEmpty(4, "readOnly", "bool"),
  pointer(5, "secretRef", LocalObjectReference),
]);
