/** core/v1 Event: a report of something that happened to `involvedObject`. */
import type { Schema } from "../../api/index.js";
import { int32, microTime, object, str, time } from "./builders.js";
import { kindSchema } from "./kind.js";
import { objectReference } from "./references.js";

export const eventSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Event" },
  "Event is a report of an event somewhere in the cluster. Events have a limited retention time and triggers and messages may evolve with time.",
  {
    action: str("What action was taken/failed regarding to the Regarding object."),
    count: int32("The number of times this event has occurred."),
    eventTime: microTime("Time when this Event was first observed."),
    firstTimestamp: time(
      "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
    ),
    involvedObject: objectReference("The object that this event is about."),
    lastTimestamp: time("The time at which the most recent occurrence of this event was recorded."),
    message: str("A human-readable description of the status of this operation."),
    reason: str(
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    related: objectReference("Optional secondary object for more complex actions."),
    reportingComponent: str(
      "Name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`.",
    ),
    reportingInstance: str("ID of the controller instance, e.g. `kubelet-xyzf`."),
    series: object(
      "Data about the Event series this event represents or nil if it's a singleton Event.",
      {
        count: int32("Number of occurrences in this series up to the last heartbeat time"),
        lastObservedTime: microTime("Time of the last occurrence observed"),
      },
    ),
    source: object(
      "The component reporting this event. Should be a short machine understandable string.",
      {
        component: str("Component from which the event is generated."),
        host: str("Node name on which the event is generated."),
      },
    ),
    type: str("Type of this event (Normal, Warning), new types could be added in the future"),
  },
  ["metadata", "involvedObject"],
);
