/**
 * Field tables for the k8s.io/api/core/v1/generated.proto messages we serve:
 * Namespace, ConfigMap, Secret, ServiceAccount, Event and their parts. Numbers are
 * the proto's, emit rules follow the Go structs' json tags in core/v1/types.go.
 */
import { ObjectMeta } from "./meta-messages.js";
import { always, list, map, message, omitEmpty, pointer } from "./schema.js";

export const ObjectReference = message("ObjectReference", [
  omitEmpty(1, "kind", "string"),
  omitEmpty(2, "namespace", "string"),
  omitEmpty(3, "name", "string"),
  omitEmpty(4, "uid", "string"),
  omitEmpty(5, "apiVersion", "string"),
  omitEmpty(6, "resourceVersion", "string"),
  omitEmpty(7, "fieldPath", "string"),
]);

export const LocalObjectReference = message("LocalObjectReference", [
  omitEmpty(1, "name", "string"),
]);

const NamespaceCondition = message("NamespaceCondition", [
  always(1, "type", "string"),
  always(2, "status", "string"),
  always(4, "lastTransitionTime", "time"),
  omitEmpty(5, "reason", "string"),
  omitEmpty(6, "message", "string"),
]);

const NamespaceSpec = message("NamespaceSpec", [list(1, "finalizers", "string")]);

const NamespaceStatus = message("NamespaceStatus", [
  omitEmpty(1, "phase", "string"),
  list(2, "conditions", NamespaceCondition),
]);

export const Namespace = message("Namespace", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", NamespaceSpec),
  always(3, "status", NamespaceStatus),
]);

export const ConfigMap = message("ConfigMap", [
  always(1, "metadata", ObjectMeta),
  pointer(4, "immutable", "bool"),
  map(2, "data", "string"),
  map(3, "binaryData", "bytes"),
]);

export const Secret = message("Secret", [
  always(1, "metadata", ObjectMeta),
  pointer(5, "immutable", "bool"),
  map(2, "data", "bytes"),
  map(4, "stringData", "string"),
  omitEmpty(3, "type", "string"),
]);

export const ServiceAccount = message("ServiceAccount", [
  always(1, "metadata", ObjectMeta),
  list(2, "secrets", ObjectReference),
  list(3, "imagePullSecrets", LocalObjectReference),
  pointer(4, "automountServiceAccountToken", "bool"),
]);

const EventSource = message("EventSource", [
  omitEmpty(1, "component", "string"),
  omitEmpty(2, "host", "string"),
]);

const EventSeries = message("EventSeries", [
  omitEmpty(1, "count", "int32"),
  always(2, "lastObservedTime", "microTime"),
]);

export const Event = message("Event", [
  always(1, "metadata", ObjectMeta),
  always(2, "involvedObject", ObjectReference),
  omitEmpty(3, "reason", "string"),
  omitEmpty(4, "message", "string"),
  always(5, "source", EventSource),
  always(6, "firstTimestamp", "time"),
  always(7, "lastTimestamp", "time"),
  omitEmpty(8, "count", "int32"),
  omitEmpty(9, "type", "string"),
  always(10, "eventTime", "microTime"),
  pointer(11, "series", EventSeries),
  omitEmpty(12, "action", "string"),
  pointer(13, "related", ObjectReference),
  always(14, "reportingComponent", "string"),
  always(15, "reportingInstance", "string"),
]);
