/**
 * apps/v1 Deployment and its parts (DeploymentSpec, DeploymentStrategy,
 * RollingUpdateDeployment, DeploymentStatus, DeploymentCondition), as kube
 * v1.32 publishes them. The template is the Job's PodTemplateSpec schema (the
 * Pod kind's spec), so a template is exactly as strict as a Pod.
 */
import type { Schema } from "../../api/index.js";
import { bool, int32, int64, object, str, time } from "./builders.js";
import { podTemplateSpec } from "./job.js";
import { kindSchema } from "./kind.js";
import { labelSelector } from "./label-selector.js";

const intOrString = (description: string): Schema => ({
  description,
  "x-kubernetes-int-or-string": true,
});

const SPEC_DOC =
  "Specification of the desired behavior of the Deployment. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status";

const rollingUpdate: Schema = object("Spec to control the desired behavior of rolling update.", {
  maxSurge: intOrString(
    "The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up. Defaults to 25%.",
  ),
  maxUnavailable: intOrString(
    "The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding down. This can not be 0 if MaxSurge is 0. Defaults to 25%.",
  ),
});

export const deploymentSpec: Schema = object(
  "DeploymentSpec is the specification of the desired behavior of the Deployment.",
  {
    minReadySeconds: int32(
      "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)",
    ),
    paused: bool("Indicates that the deployment is paused."),
    progressDeadlineSeconds: int32(
      "The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that progress will not be estimated during the time a deployment is paused. Defaults to 600s.",
    ),
    replicas: int32(
      "Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.",
    ),
    revisionHistoryLimit: int32(
      "The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.",
    ),
    selector: {
      ...labelSelector,
      description:
        "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.",
    },
    strategy: {
      ...object("DeploymentStrategy describes how to replace existing pods with new ones.", {
        rollingUpdate,
        type: str(
          'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.',
        ),
      }),
      "x-kubernetes-patch-strategy": "retainKeys",
    },
    template: {
      ...podTemplateSpec,
      description:
        'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".',
    },
  },
  ["selector", "template"],
);

const deploymentCondition: Schema = object(
  "DeploymentCondition describes the state of a deployment at a certain point.",
  {
    lastTransitionTime: time("Last time the condition transitioned from one status to another."),
    lastUpdateTime: time("The last time this condition was updated."),
    message: str("A human readable message indicating details about the transition."),
    reason: str("The reason for the condition's last transition."),
    status: str("Status of the condition, one of True, False, Unknown."),
    type: str("Type of deployment condition."),
  },
  ["type", "status"],
);

const conditions = (items: Schema): Schema => ({
  type: "array",
  description: "Represents the latest available observations of its current state.",
  items,
  "x-kubernetes-list-map-keys": ["type"],
  "x-kubernetes-list-type": "map",
  "x-kubernetes-patch-merge-key": "type",
  "x-kubernetes-patch-strategy": "merge",
});

const deploymentStatus: Schema = object(
  "DeploymentStatus is the most recently observed status of the Deployment.",
  {
    availableReplicas: int32(
      "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
    ),
    collisionCount: int32(
      "Count of hash collisions for the Deployment. The Deployment controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ReplicaSet.",
    ),
    conditions: conditions(deploymentCondition),
    observedGeneration: int64("The generation observed by the deployment controller."),
    readyReplicas: int32("Total number of ready pods targeted by this deployment."),
    replicas: int32(
      "Total number of non-terminated pods targeted by this deployment (their labels match the selector).",
    ),
    terminatingReplicas: int32(
      "Total number of terminating pods targeted by this deployment. Terminating pods have a non-null .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.",
    ),
    unavailableReplicas: int32(
      "Total number of unavailable pods targeted by this deployment. This is the total number of pods that are still required for the deployment to have 100% available capacity. They may either be pods that are running but not yet available or pods that still have not been created.",
    ),
    updatedReplicas: int32(
      "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
    ),
  },
);

export const deploymentSchema: Schema = kindSchema(
  { group: "apps", version: "v1", kind: "Deployment" },
  "Deployment enables declarative updates for Pods and ReplicaSets.",
  {
    spec: { ...deploymentSpec, description: SPEC_DOC },
    status: {
      ...deploymentStatus,
      description: "Most recently observed status of the Deployment.",
    },
  },
);

const replicaSetCondition: Schema = object(
  "ReplicaSetCondition describes the state of a replica set at a certain point.",
  {
    lastTransitionTime: time(
      "The last time the condition transitioned from one status to another.",
    ),
    message: str("A human readable message indicating details about the transition."),
    reason: str("The reason for the condition's last transition."),
    status: str("Status of the condition, one of True, False, Unknown."),
    type: str("Type of replica set condition."),
  },
  ["type", "status"],
);

const replicaSetSpec: Schema = object(
  "ReplicaSetSpec is the specification of a ReplicaSet.",
  {
    minReadySeconds: int32(
      "Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)",
    ),
    replicas: int32(
      "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#how-a-replicaset-works",
    ),
    selector: {
      ...labelSelector,
      description:
        "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    },
    template: {
      ...podTemplateSpec,
      description:
        "Template is the object that describes the pod that will be created if insufficient replicas are detected. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/#pod-template",
    },
  },
  ["selector"],
);

const replicaSetStatus: Schema = object(
  "ReplicaSetStatus represents the current status of a ReplicaSet.",
  {
    availableReplicas: int32(
      "The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.",
    ),
    conditions: conditions(replicaSetCondition),
    fullyLabeledReplicas: int32(
      "The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.",
    ),
    observedGeneration: int64(
      "ObservedGeneration reflects the generation of the most recently observed ReplicaSet.",
    ),
    readyReplicas: int32(
      "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
    ),
    replicas: int32(
      "Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset",
    ),
    terminatingReplicas: int32(
      "The number of terminating pods for this replica set. Terminating pods have a non-null .metadata.deletionTimestamp and have not yet reached the Failed or Succeeded .status.phase.",
    ),
  },
  ["replicas"],
);

export const replicaSetSchema: Schema = kindSchema(
  { group: "apps", version: "v1", kind: "ReplicaSet" },
  "ReplicaSet ensures that a specified number of pod replicas are running at any given time.",
  {
    spec: {
      ...replicaSetSpec,
      description:
        "Spec defines the specification of the desired behavior of the ReplicaSet. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
    status: {
      ...replicaSetStatus,
      description:
        "Status is the most recently observed status of the ReplicaSet. This data may be out of date by some window of time. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
  },
);
