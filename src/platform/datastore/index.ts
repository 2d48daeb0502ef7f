/** The DataStore kind (Kamaji's): its CRD and types. No controller yet. */
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
