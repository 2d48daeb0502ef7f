/**
 * The conversion between core/v1 Event (the stored form) and events.k8s.io/v1
 * Event, field for field as kube's `events/v1` conversion: `message`↔`note`,
 * `involvedObject`↔`regarding`, `source`↔`deprecatedSource`,
 * `firstTimestamp`/`lastTimestamp`/`count`↔`deprecated*`,
 * `reportingComponent`↔`reportingController`; the rest keep their names.
 * Absent fields stay absent both ways; metadata is shared.
 */
import type { KubeObject } from "../../api/index.js";

export const EVENTS_API_VERSION = "events.k8s.io/v1";

/** core field → events.k8s.io/v1 field, for fields that are renamed. */
const RENAMED: Record<string, string> = {
  message: "note",
  involvedObject: "regarding",
  source: "deprecatedSource",
  firstTimestamp: "deprecatedFirstTimestamp",
  lastTimestamp: "deprecatedLastTimestamp",
  count: "deprecatedCount",
  reportingComponent: "reportingController",
};

/** Fields with the same name in both versions. */
const SHARED = ["action", "eventTime", "reason", "related", "reportingInstance", "series", "type"];

const BACK: Record<string, string> = Object.fromEntries(
  Object.entries(RENAMED).map(([core, events]) => [events, core]),
);

function copyFields(from: KubeObject, names: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [src, dst] of Object.entries(names)) if (from[src] !== undefined) out[dst] = from[src];
  for (const key of SHARED) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** A core/v1 Event as events.k8s.io/v1. */
export function coreToEventsV1(event: KubeObject): KubeObject {
  return {
    apiVersion: EVENTS_API_VERSION,
    kind: "Event",
    metadata: event.metadata,
    ...copyFields(event, RENAMED),
  };
}

/** An events.k8s.io/v1 Event as core/v1; `involvedObject` is always present there. */
export function eventsV1ToCore(event: KubeObject): KubeObject {
  const fields = copyFields(event, BACK);
  return {
    apiVersion: "v1",
    kind: "Event",
    metadata: event.metadata,
    involvedObject: {},
    ...fields,
  };
}
