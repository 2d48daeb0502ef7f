/** The disruption controller: PodDisruptionBudget status, read by the apiserver's eviction subresource. */
export { DisruptionController, type DisruptionControllerOptions } from "./disruption-controller.js";
export type { ControllerScale, ScaleFinder } from "./expected-scale.js";
