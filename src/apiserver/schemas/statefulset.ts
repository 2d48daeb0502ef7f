/**
 * apps/v1 StatefulSet (spec, status, update strategy, PVC retention policy), as
 * kube v1.32 publishes it, descriptions shortened. The template's pod spec is
 * the Pod kind's, and each volumeClaimTemplate is a PersistentVolumeClaim.
 */
import type { Schema } from "../../api/index.js";
import { int32, object, str, time } from "./builders.js";
import { podTemplateSpec } from "./job.js";
import { kindSchema } from "./kind.js";
import { labelSelector } from "./label-selector.js";
import { persistentVolumeClaimSchema } from "./persistent-volume-claim.js";
import { intOrString } from "./pod-probe.js";

const { "x-kubernetes-group-version-kind": _gvk, ...claimSchema } = persistentVolumeClaimSchema;

/** The conditions list every apps/v1 status carries. */
export function appsConditions(what: string): Schema {
  return {
    type: "array",
    description: `Represents the latest available observations of a ${what}'s current state.`,
    items: object(
      `${what}Condition describes the state of a ${what} at a certain point.`,
      {
        lastTransitionTime: time(
          "Last time the condition transitioned from one status to another.",
        ),
        message: str("A human readable message indicating details about the transition."),
        reason: str("The reason for the condition's last transition."),
        status: str("Status of the condition, one of True, False, Unknown."),
        type: str(`Type of ${what} condition.`),
      },
      ["type", "status"],
    ),
    "x-kubernetes-list-map-keys": ["type"],
    "x-kubernetes-list-type": "map",
    "x-kubernetes-patch-merge-key": "type",
    "x-kubernetes-patch-strategy": "merge",
  };
}

const statefulSetSpec: Schema = object(
  "A StatefulSetSpec is the specification of a StatefulSet.",
  {
    minReadySeconds: int32(
      "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing for it to be considered available. Defaults to 0.",
    ),
    ordinals: object(
      "StatefulSetOrdinals describes the policy used for replica ordinal assignment.",
      {
        start: int32("start is the number representing the first replica's index. Defaults to 0."),
      },
    ),
    persistentVolumeClaimRetentionPolicy: object(
      "persistentVolumeClaimRetentionPolicy describes the lifecycle of persistent volume claims created from volumeClaimTemplates. By default, all persistent volume claims are created as needed and retained until manually deleted.",
      {
        whenDeleted: str(
          "WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is deleted. `Retain` (default) or `Delete`.",
        ),
        whenScaled: str(
          "WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is scaled down. `Retain` (default) or `Delete`.",
        ),
      },
    ),
    podManagementPolicy: str(
      "podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down. `OrderedReady` (default) or `Parallel`.",
    ),
    replicas: int32(
      "replicas is the desired number of replicas of the given Template. Defaults to 1.",
    ),
    revisionHistoryLimit: int32(
      "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. Defaults to 10.",
    ),
    selector: {
      ...labelSelector,
      description:
        "selector is a label query over pods that should match the replica count. It must match the pod template's labels.",
    },
    serviceName: str(
      "serviceName is the name of the service that governs this StatefulSet. Pods get DNS/hostnames that follow the pattern: pod-specific-string.serviceName.default.svc.cluster.local.",
    ),
    template: {
      ...podTemplateSpec,
      description:
        'template is the object that describes the pod that will be created if insufficient replicas are detected. The only allowed template.spec.restartPolicy value is "Always".',
    },
    updateStrategy: object(
      "updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.",
      {
        rollingUpdate: object(
          "RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.",
          {
            maxUnavailable: intOrString(
              "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Defaults to 1.",
            ),
            partition: int32(
              "Partition indicates the ordinal at which the StatefulSet should be partitioned for updates. Pods with an ordinal below it keep the current revision. Default value is 0.",
            ),
          },
        ),
        type: str(
          "Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate.",
        ),
      },
    ),
    volumeClaimTemplates: {
      type: "array",
      description:
        "volumeClaimTemplates is a list of claims that pods are allowed to reference. Every claim in this list must have at least one matching (by name) volumeMount in one container in the template.",
      items: claimSchema,
      "x-kubernetes-list-type": "atomic",
    },
  },
  ["selector", "template"],
);

const statefulSetStatus: Schema = object(
  "StatefulSetStatus represents the current state of a StatefulSet.",
  {
    availableReplicas: int32(
      "Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.",
    ),
    collisionCount: int32(
      "collisionCount is the count of hash collisions for the StatefulSet. The StatefulSet controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.",
    ),
    conditions: appsConditions("StatefulSet"),
    currentReplicas: int32(
      "currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.",
    ),
    currentRevision: str(
      "currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas).",
    ),
    observedGeneration: {
      type: "integer",
      format: "int64",
      description:
        "observedGeneration is the most recent generation observed for this StatefulSet. It corresponds to the StatefulSet's generation, which is updated on mutation by the API Server.",
    },
    readyReplicas: int32(
      "readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.",
    ),
    replicas: int32("replicas is the number of Pods created by the StatefulSet controller."),
    updateRevision: str(
      "updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)",
    ),
    updatedReplicas: int32(
      "updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.",
    ),
  },
  ["replicas"],
);

export const statefulSetSchema: Schema = kindSchema(
  { group: "apps", version: "v1", kind: "StatefulSet" },
  "StatefulSet represents a set of pods with consistent identities. Identities are defined as: - Network: A single stable DNS and hostname. - Storage: As many VolumeClaims as requested.\n\nThe StatefulSet guarantees that a given network identity will always map to the same storage identity.",
  {
    spec: {
      ...statefulSetSpec,
      description: "Spec defines the desired identities of pods in this set.",
    },
    status: {
      ...statefulSetStatus,
      description:
        "Status is the current status of Pods in this StatefulSet. This data may be out of date by some window of time.",
    },
  },
);
