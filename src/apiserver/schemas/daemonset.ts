/**
 * apps/v1 DaemonSet and ControllerRevision, as kube v1.32 publishes them,
 * descriptions shortened. The template's pod spec is the Pod kind's.
 */
import type { Schema } from "../../api/index.js";
import { int32, int64, object, str } from "./builders.js";
import { podTemplateSpec } from "./job.js";
import { kindSchema } from "./kind.js";
import { labelSelector } from "./label-selector.js";
import { intOrString } from "./pod-probe.js";
import { appsConditions } from "./statefulset.js";

const daemonSetSpec: Schema = object(
  "DaemonSetSpec is the specification of a daemon set.",
  {
    minReadySeconds: int32(
      "The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0.",
    ),
    revisionHistoryLimit: int32(
      "The number of old history to retain to allow rollback. Defaults to 10.",
    ),
    selector: {
      ...labelSelector,
      description:
        "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels.",
    },
    template: {
      ...podTemplateSpec,
      description:
        'An object that describes the pod that will be created. The DaemonSet will create exactly one copy of this pod on every node that matches the template\'s node selector (or on every node if no node selector is specified). The only allowed template.spec.restartPolicy value is "Always".',
    },
    updateStrategy: object("An update strategy to replace existing DaemonSet pods with new pods.", {
      rollingUpdate: object("Spec to control the desired behavior of daemon set rolling update.", {
        maxSurge: intOrString(
          "The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Default value is 0.",
        ),
        maxUnavailable: intOrString(
          "The maximum number of DaemonSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of total number of DaemonSet pods at the start of the update (ex: 10%). Default value is 1.",
        ),
      }),
      type: str(
        'Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.',
      ),
    }),
  },
  ["selector", "template"],
);

const daemonSetStatus: Schema = object(
  "DaemonSetStatus represents the current status of a daemon set.",
  {
    collisionCount: int32("Count of hash collisions for the DaemonSet."),
    conditions: appsConditions("DaemonSet"),
    currentNumberScheduled: int32(
      "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.",
    ),
    desiredNumberScheduled: int32(
      "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).",
    ),
    numberAvailable: int32(
      "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)",
    ),
    numberMisscheduled: int32(
      "The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod.",
    ),
    numberReady: int32(
      "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.",
    ),
    numberUnavailable: int32(
      "The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)",
    ),
    observedGeneration: int64("The most recent generation observed by the daemon set controller."),
    updatedNumberScheduled: int32("The total number of nodes that are running updated daemon pod"),
  },
  ["currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"],
);

export const daemonSetSchema: Schema = kindSchema(
  { group: "apps", version: "v1", kind: "DaemonSet" },
  "DaemonSet represents the configuration of a daemon set.",
  {
    spec: {
      ...daemonSetSpec,
      description: "The desired behavior of this daemon set.",
    },
    status: {
      ...daemonSetStatus,
      description: "The current status of this daemon set. Populated by the system.",
    },
  },
);

export const controllerRevisionSchema: Schema = kindSchema(
  { group: "apps", version: "v1", kind: "ControllerRevision" },
  "ControllerRevision implements an immutable snapshot of state data. Clients are responsible for serializing and deserializing the objects that contain their internal state. Once a ControllerRevision has been successfully created, it can not be updated.",
  {
    data: {
      type: "object",
      description: "Data is the serialized representation of the state.",
      "x-kubernetes-preserve-unknown-fields": true,
    },
    revision: int64("Revision indicates the revision of the state represented by Data."),
  },
  ["revision"],
);
