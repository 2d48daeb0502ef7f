/** The StatefulSet controller and its registration on a Manager. */
export { registerStatefulSetController } from "./register.js";
export { StatefulSetReconciler } from "./stateful-set-controller.js";
