/**
 * core/v1 `Volume` as Hearth serves it: emptyDir, secret, configMap,
 * persistentVolumeClaim, downwardAPI and hostPath sources.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, object, str } from "./builders.js";
import { objectFieldSelector, quantity, resourceFieldSelector } from "./pod-env.js";

const keyToPath: Schema = object(
  "Maps a string key to a path within a volume.",
  {
    key: str("key is the key to project."),
    mode: int32(
      "mode is Optional: mode bits used to set permissions on this file. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. If not specified, the volume defaultMode will be used.",
    ),
    path: str(
      "path is the relative path of the file to map the key to. May not be an absolute path. May not contain the path element '..'. May not start with the string '..'.",
    ),
  },
  ["key", "path"],
);

function items(description: string, of: Schema): Schema {
  return { type: "array", description, items: of, "x-kubernetes-list-type": "atomic" };
}

const DEFAULT_MODE =
  "defaultMode is optional: mode bits used to set permissions on created files by default. Must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. Defaults to 0644.";

const emptyDir: Schema = object(
  "emptyDir represents a temporary directory that shares a pod's lifetime. More info: https://kubernetes.io/docs/concepts/storage/volumes#emptydir",
  {
    medium: str(
      'medium represents what type of storage medium should back this directory. The default is "" which means to use the node\'s default medium. Must be an empty string (default) or Memory.',
    ),
    sizeLimit: quantity(
      "sizeLimit is the total amount of local storage required for this EmptyDir volume. Not enforced on Hearth.",
    ),
  },
);

const secret: Schema = object(
  "secret represents a secret that should populate this volume. More info: https://kubernetes.io/docs/concepts/storage/volumes#secret",
  {
    defaultMode: int32(DEFAULT_MODE),
    items: items(
      "items If unspecified, each key-value pair in the Data field of the referenced Secret will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present.",
      keyToPath,
    ),
    optional: bool("optional field specify whether the Secret or its keys must be defined"),
    secretName: str(
      "secretName is the name of the secret in the pod's namespace to use. More info: https://kubernetes.io/docs/concepts/storage/volumes#secret",
    ),
  },
);

const configMap: Schema = object(
  "configMap represents a configMap that should populate this volume",
  {
    defaultMode: int32(DEFAULT_MODE),
    items: items(
      "items if unspecified, each key-value pair in the Data field of the referenced ConfigMap will be projected into the volume as a file whose name is the key and content is the value. If specified, the listed keys will be projected into the specified paths, and unlisted keys will not be present.",
      keyToPath,
    ),
    name: str(
      "Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
    ),
    optional: bool("optional specify whether the ConfigMap or its keys must be defined"),
  },
);

const persistentVolumeClaim: Schema = object(
  "persistentVolumeClaimVolumeSource represents a reference to a PersistentVolumeClaim in the same namespace. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
  {
    claimName: str(
      "claimName is the name of a PersistentVolumeClaim in the same namespace as the pod using this volume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims",
    ),
    readOnly: bool("readOnly Will force the ReadOnly setting in VolumeMounts. Default false."),
  },
  ["claimName"],
);

const downwardAPIFile: Schema = object(
  "DownwardAPIVolumeFile represents information to create the file containing the pod field",
  {
    fieldRef: objectFieldSelector(
      "Required: Selects a field of the pod: only annotations, labels, name, namespace and uid are supported.",
    ),
    mode: int32(
      "Optional: mode bits used to set permissions on this file, must be an octal value between 0000 and 0777 or a decimal value between 0 and 511. If not specified, the volume defaultMode will be used.",
    ),
    path: str(
      "Required: Path is  the relative path name of the file to be created. Must not be absolute or contain the '..' path. Must be utf-8 encoded. The first item of the relative path must not start with '..'",
    ),
    resourceFieldRef: resourceFieldSelector(
      "Selects a resource of the container: only resources limits and requests (limits.cpu, limits.memory, requests.cpu and requests.memory) are currently supported.",
    ),
  },
  ["path"],
);

const downwardAPI: Schema = object(
  "downwardAPI represents downward API about the pod that should populate this volume",
  {
    defaultMode: int32(DEFAULT_MODE),
    items: items("Items is a list of downward API volume file", downwardAPIFile),
  },
);

const hostPath: Schema = object(
  "hostPath represents a pre-existing file or directory on the host machine that is directly exposed to the container. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath",
  {
    path: str(
      "path of the directory on the host. If the path is a symlink, it will follow the link to the real path. More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath",
    ),
    type: str(
      'type for HostPath Volume Defaults to "" More info: https://kubernetes.io/docs/concepts/storage/volumes#hostpath',
      {
        enum: [
          "",
          "BlockDevice",
          "CharDevice",
          "Directory",
          "DirectoryOrCreate",
          "File",
          "FileOrCreate",
          "Socket",
        ],
      },
    ),
  },
  ["path"],
);

export const volume: Schema = object(
  "Volume represents a named volume in a pod that may be accessed by any container in the pod.",
  {
    configMap,
    downwardAPI,
    emptyDir,
    hostPath,
    name: str(
      "name of the volume. Must be a DNS_LABEL and unique within the pod. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names",
    ),
    persistentVolumeClaim,
    secret,
  },
  ["name"],
);
