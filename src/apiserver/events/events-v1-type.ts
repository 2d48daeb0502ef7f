/**
 * events.k8s.io/v1 Event, served over the same stored objects as core/v1 Event
 * (kube keeps one `events` resource and converts per request): its storage
 * mapping, the strict validation kube applies to Events written through this
 * API, and the table kube prints for Events.
 */
import type { KubeObject } from "../../api/index.js";
import { type ResourceType, STANDARD_VERBS } from "../resources/resource-type.js";
import { eventsV1EventSchema } from "../schemas/index.js";
import { eventColumns, str } from "./columns.js";
import { coreToEventsV1, eventsV1ToCore } from "./conversion.js";
import { strictEventCreateErrors, strictEventUpdateErrors } from "./validation.js";

function lastSeen(o: KubeObject): string {
  const series = o.series as { lastObservedTime?: string } | undefined;
  return str(
    series?.lastObservedTime ||
      o.deprecatedLastTimestamp ||
      o.eventTime ||
      o.metadata.creationTimestamp,
  );
}

const columns = eventColumns({ lastSeen, regarding: (o) => o.regarding, message: (o) => o.note });

export const eventsV1Type: ResourceType = {
  group: "events.k8s.io",
  version: "v1",
  kind: "Event",
  listKind: "EventList",
  plural: "events",
  singular: "event",
  namespaced: true,
  shortNames: ["ev"],
  categories: [],
  verbs: STANDARD_VERBS,
  status: false,
  nameRule: "dns1123-subdomain",
  schema: eventsV1EventSchema,
  strategicMergePatch: true,
  ownColumns: true,
  columns,
  storage: {
    resource: { group: "", plural: "events" },
    fromStorage: coreToEventsV1,
    toStorage: eventsV1ToCore,
  },
  selectableFields: (o) => {
    const ref = (o.regarding ?? {}) as Record<string, unknown>;
    const out: Record<string, string> = {
      reason: str(o.reason),
      type: str(o.type),
      reportingController: str(o.reportingController),
    };
    for (const k of [
      "kind",
      "namespace",
      "name",
      "uid",
      "apiVersion",
      "resourceVersion",
      "fieldPath",
    ])
      out[`regarding.${k}`] = str(ref[k]);
    return out;
  },
  validate: (obj, old) =>
    old
      ? strictEventUpdateErrors(eventsV1ToCore(obj), eventsV1ToCore(old))
      : strictEventCreateErrors(eventsV1ToCore(obj)),
};
