/**
 * kube's Event validation, on the core form whichever API an Event is written
 * through (so field paths name core fields, as kube's do). Every Event passes
 * the legacy checks; one created or updated through events.k8s.io/v1 must also
 * have eventTime, a Normal or Warning type and none of the deprecated fields
 * set on create, and may change only its series on update.
 */

import type { KubeObject } from "../../api/index.js";
import {
  dns1123Subdomain,
  type FieldError,
  invalidValue,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { isDeepEqual } from "../validation/json-equal.js";

const LIMITS = { reportingInstance: 128, action: 128, reason: 128, message: 1024 };

function text(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function ref(event: KubeObject): Record<string, unknown> {
  const r = event.involvedObject;
  return r !== null && typeof r === "object" ? (r as Record<string, unknown>) : {};
}

/** Checks every Event gets (`legacyValidateEvent`). */
export function legacyEventErrors(event: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const ns = event.metadata.namespace ?? "";
  const refNs = text(ref(event).namespace);
  const mismatch = () =>
    errors.push(invalidValue("involvedObject.namespace", refNs, "does not match event.namespace"));
  if (!event.eventTime) {
    if (refNs === "" ? ns !== "" && ns !== "default" : ns !== refNs) mismatch();
  } else {
    if (refNs === "" && ns !== "default" && ns !== "kube-system") mismatch();
    const controller = text(event.reportingComponent);
    if (controller === "") errors.push(requiredValue("reportingComponent"));
    for (const why of qualifiedName(controller))
      errors.push(invalidValue("reportingComponent", controller, why));
    for (const field of ["reportingInstance", "action", "reason"] as const) {
      const v = text(event[field]);
      if (v === "") errors.push(requiredValue(field));
      if (v.length > LIMITS[field])
        errors.push(invalidValue(field, "", `can have at most ${LIMITS[field]} characters`));
    }
    if (text(event.message).length > LIMITS.message)
      errors.push(invalidValue("message", "", `can have at most ${LIMITS.message} characters`));
  }
  for (const why of dns1123Subdomain(ns)) errors.push(invalidValue("namespace", ns, why));
  return errors;
}

function seriesErrors(event: KubeObject): FieldError[] {
  const series = event.series as { count?: number; lastObservedTime?: string } | undefined;
  if (!series) return [];
  const errors: FieldError[] = [];
  if ((series.count ?? 0) < 2)
    errors.push(invalidValue("series.count", "", "should be at least 2"));
  if (!series.lastObservedTime) errors.push(requiredValue("series.lastObservedTime"));
  return errors;
}

/** `ValidateEventCreate` for events.k8s.io/v1 (core form). */
export function strictEventCreateErrors(event: KubeObject): FieldError[] {
  const errors = [...legacyEventErrors(event), ...seriesErrors(event)];
  if (!event.eventTime) errors.push(requiredValue("eventTime"));
  if (event.type !== "Normal" && event.type !== "Warning")
    errors.push(invalidValue("type", "", `has invalid value: ${text(event.type)}`));
  for (const field of ["firstTimestamp", "lastTimestamp", "count"])
    if (event[field]) errors.push(invalidValue(field, "", "needs to be unset"));
  const source = (event.source ?? {}) as { component?: string; host?: string };
  if (source.component || source.host) errors.push(invalidValue("source", "", "needs to be unset"));
  return errors;
}

const IMMUTABLE = [
  "involvedObject",
  "reason",
  "message",
  "source",
  "firstTimestamp",
  "lastTimestamp",
  "count",
  "type",
  "eventTime",
  "action",
  "related",
  "reportingComponent",
  "reportingInstance",
];

/** `ValidateEventUpdate` for events.k8s.io/v1 (core forms). */
export function strictEventUpdateErrors(event: KubeObject, old: KubeObject): FieldError[] {
  const errors = legacyEventErrors(event);
  if (!isDeepEqual(event.series, old.series)) errors.push(...seriesErrors(event));
  for (const field of IMMUTABLE)
    if (!isDeepEqual(event[field], old[field]))
      errors.push(invalidValue(field, event[field], "field is immutable"));
  return errors;
}
