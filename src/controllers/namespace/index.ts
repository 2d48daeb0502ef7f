/** The namespace lifecycle controller. */
export {
  CONTENT_REQUEUE_MS,
  KUBERNETES_FINALIZER,
  NamespaceReconciler,
} from "./namespace-controller.js";
