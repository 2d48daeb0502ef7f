/**
 * Events: the events.k8s.io/v1 API over core/v1 Events' storage, the
 * conversion between the two shapes, and kube's Event validation.
 */
export { coreToEventsV1, EVENTS_API_VERSION, eventsV1ToCore } from "./conversion.js";
export { eventsV1Type } from "./events-v1-type.js";
export {
  legacyEventErrors,
  strictEventCreateErrors,
  strictEventUpdateErrors,
} from "./validation.js";
