/**
 * The DataStore kind (Kamaji's): its CRD and types, and its controller —
 * `usedBy`, a `Ready` condition that means reachable and authenticated, and
 * a finalizer that lets a DataStore go only when no control plane uses it.
 */
import type { Component } from "../component.js";
import { registerDataStoreController } from "./controller.js";
import { DATASTORE_CRD } from "./crd.js";

export { type DataStoreControllerOptions, registerDataStoreController } from "./controller.js";
export {
  type ContentRef,
  DATASTORE_API_VERSION,
  DATASTORE_CRD,
  DATASTORE_DRIVERS,
  DATASTORE_GROUP,
  type DataStore,
  type DataStoreDriver,
  type DataStoreSpec,
} from "./crd.js";
export { DELETION_ALLOWED, READY as DATASTORE_READY } from "./datastore-status.js";
export { DATASTORE, DATASTORE_FINALIZER } from "./reconciler.js";

export const datastoreComponent: Component = {
  name: "datastore",
  crds: [DATASTORE_CRD],
  controllers: [
    {
      name: "datastore",
      register: (manager, opts) => registerDataStoreController(manager, { log: opts.log }),
    },
  ],
};
