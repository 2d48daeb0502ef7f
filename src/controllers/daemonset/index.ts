/** The DaemonSet controller and its registration on a Manager. */
export { DaemonSetReconciler } from "./daemon-set-controller.js";
export { registerDaemonSetController } from "./register.js";
