/** The DataStore kind (Kamaji's): its CRD and types. No controller yet. */
import type { Component } from "../component.js";
import { DATASTORE_CRD } from "./crd.js";

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

export const datastoreComponent: Component = { name: "datastore", crds: [DATASTORE_CRD] };
