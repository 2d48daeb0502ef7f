/**
 * core/v1 `SecurityContext` (a container's) and `PodSecurityContext`, as kube
 * v1.32 publishes them: user and group ids, privilege, capabilities, seccomp,
 * AppArmor and SELinux profiles, /proc mount, sysctls, fsGroup and Windows
 * options. They are served (stored, typed, patched) so that Pod Security
 * admission can check them; Hearth's node agent does not apply them yet.
 */
import type { Schema } from "../../api/index.js";
import { bool, int64, object, str, stringList } from "./builders.js";

function profile(what: string, types: string[]): Schema {
  return object(
    `${what} defines a pod or container's ${what} settings. Only one profile source may be set.`,
    {
      localhostProfile: str(
        'localhostProfile indicates a profile loaded on the node that should be used. The profile must be preconfigured on the node to work. Must be set if type is "Localhost". Must NOT be set for any other type.',
      ),
      type: str("type indicates which kind of profile will be applied.", { enum: types }),
    },
    ["type"],
  );
}

const seccompProfile = profile("SeccompProfile", ["Localhost", "RuntimeDefault", "Unconfined"]);
const appArmorProfile = profile("AppArmorProfile", ["Localhost", "RuntimeDefault", "Unconfined"]);

const seLinuxOptions: Schema = object(
  "SELinuxOptions are the labels to be applied to the container",
  {
    level: str("Level is SELinux level label that applies to the container."),
    role: str("Role is a SELinux role label that applies to the container."),
    type: str("Type is a SELinux type label that applies to the container."),
    user: str("User is a SELinux user label that applies to the container."),
  },
);

const windowsOptions: Schema = object(
  "WindowsSecurityContextOptions contain Windows-specific options and credentials.",
  {
    gmsaCredentialSpec: str(
      "GMSACredentialSpec is where the GMSA admission webhook inlines the contents of the GMSA credential spec named by the GMSACredentialSpecName field.",
    ),
    gmsaCredentialSpecName: str(
      "GMSACredentialSpecName is the name of the GMSA credential spec to use.",
    ),
    hostProcess: bool(
      "HostProcess determines if a container should be run as a 'Host Process' container.",
    ),
    runAsUserName: str(
      "The UserName in Windows to run the entrypoint of the container process. Defaults to the user specified in image metadata if unspecified.",
    ),
  },
);

const capabilities: Schema = object(
  "Adds and removes POSIX capabilities from running containers.",
  {
    add: stringList("Added capabilities"),
    drop: stringList("Removed capabilities"),
  },
);

/** The fields a pod's and a container's security context share. */
const common = {
  appArmorProfile: {
    ...appArmorProfile,
    description:
      "appArmorProfile is the AppArmor options to use by this container. If set, this profile overrides the pod's appArmorProfile. Note that this field cannot be set when spec.os.name is windows.",
  },
  runAsGroup: int64(
    "The GID to run the entrypoint of the container process. Uses runtime default if unset. Note that this field cannot be set when spec.os.name is windows.",
  ),
  runAsNonRoot: bool(
    "Indicates that the container must run as a non-root user. If true, the Kubelet will validate the image at runtime to ensure that it does not run as UID 0 (root) and fail to start the container if it does.",
  ),
  runAsUser: int64(
    "The UID to run the entrypoint of the container process. Defaults to user specified in image metadata if unspecified. Note that this field cannot be set when spec.os.name is windows.",
  ),
  seLinuxOptions: {
    ...seLinuxOptions,
    description:
      "The SELinux context to be applied to the container. If unspecified, the container runtime will allocate a random SELinux context for each container. Note that this field cannot be set when spec.os.name is windows.",
  },
  seccompProfile: {
    ...seccompProfile,
    description:
      "The seccomp options to use by this container. If seccomp options are provided at both the pod & container level, the container options override the pod options. Note that this field cannot be set when spec.os.name is windows.",
  },
  windowsOptions: {
    ...windowsOptions,
    description:
      "The Windows specific settings applied to all containers. If unspecified, the options from the PodSecurityContext will be used. Note that this field cannot be set when spec.os.name is linux.",
  },
};

export const securityContext: Schema = object(
  "SecurityContext holds security configuration that will be applied to a container. Some fields are present in both SecurityContext and PodSecurityContext. When both are set, the values in SecurityContext take precedence.",
  {
    ...common,
    allowPrivilegeEscalation: bool(
      "AllowPrivilegeEscalation controls whether a process can gain more privileges than its parent process. AllowPrivilegeEscalation is true always when the container is: 1) run as Privileged 2) has CAP_SYS_ADMIN. Note that this field cannot be set when spec.os.name is windows.",
    ),
    capabilities: {
      ...capabilities,
      description:
        "The capabilities to add/drop when running containers. Defaults to the default set of capabilities granted by the container runtime. Note that this field cannot be set when spec.os.name is windows.",
    },
    privileged: bool(
      "Run container in privileged mode. Processes in privileged containers are essentially equivalent to root on the host. Defaults to false. Note that this field cannot be set when spec.os.name is windows.",
    ),
    procMount: str(
      "procMount denotes the type of proc mount to use for the containers. The default value is Default which uses the container runtime defaults for readonly paths and masked paths. Note that this field cannot be set when spec.os.name is windows.",
      { enum: ["Default", "Unmasked"] },
    ),
    readOnlyRootFilesystem: bool(
      "Whether this container has a read-only root filesystem. Default is false. Note that this field cannot be set when spec.os.name is windows.",
    ),
  },
);

const sysctl: Schema = object(
  "Sysctl defines a kernel parameter to be set",
  {
    name: str("Name of a property to set"),
    value: str("Value of a property to set"),
  },
  ["name", "value"],
);

export const podSecurityContext: Schema = object(
  "PodSecurityContext holds pod-level security attributes and common container settings. Some fields are also present in container.securityContext.  Field values of container.securityContext take precedence over field values of PodSecurityContext.",
  {
    ...common,
    fsGroup: int64(
      "A special supplemental group that applies to all containers in a pod. Some volume types allow the Kubelet to change the ownership of that volume to be owned by the pod. Note that this field cannot be set when spec.os.name is windows.",
    ),
    fsGroupChangePolicy: str(
      'fsGroupChangePolicy defines behavior of changing ownership and permission of the volume before being exposed inside Pod. Valid values are "OnRootMismatch" and "Always". If not specified, "Always" is used. Note that this field cannot be set when spec.os.name is windows.',
      { enum: ["Always", "OnRootMismatch"] },
    ),
    seLinuxChangePolicy: str(
      'seLinuxChangePolicy defines how the container\'s SELinux label is applied to all volumes used by the Pod. Valid values are "MountOption" and "Recursive".',
    ),
    supplementalGroups: {
      type: "array",
      description:
        "A list of groups applied to the first process run in each container, in addition to the container's primary GID and fsGroup (if specified). Note that this field cannot be set when spec.os.name is windows.",
      items: { type: "integer", format: "int64" },
      "x-kubernetes-list-type": "atomic",
    },
    supplementalGroupsPolicy: str(
      'Defines how supplemental groups of the first container processes are calculated. Valid values are "Merge" and "Strict". If not specified, "Merge" is used.',
      { enum: ["Merge", "Strict"] },
    ),
    sysctls: {
      type: "array",
      description:
        "Sysctls hold a list of namespaced sysctls used for the pod. Pods with unsupported sysctls (by the container runtime) might fail to launch. Note that this field cannot be set when spec.os.name is windows.",
      items: sysctl,
      "x-kubernetes-list-type": "atomic",
    },
  },
);
