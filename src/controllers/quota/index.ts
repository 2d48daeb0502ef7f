/** ResourceQuota: the controller that keeps each quota's enforced limits and measured usage. */
export { CountedKinds, type ServedKind } from "./counted-kinds.js";
export { QuotaController, type QuotaControllerOptions } from "./quota-controller.js";
export { QuotaReconciler } from "./quota-reconciler.js";
