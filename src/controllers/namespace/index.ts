/** The namespace lifecycle controller. */
export { CONTENT_REQUEUE_MS, NamespaceReconciler } from "./namespace-controller.js";
