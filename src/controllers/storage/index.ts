/** Storage: the PV controller, the protection controllers and the local-path volume pool. */
export { ensureDefaultStorageClass } from "./default-class.js";
export {
  DEFAULT_CLASS_NAME,
  LOCAL_PATH_PROVISIONER,
  POOL_LABEL,
  VOLUME_DIRECTORY_FINALIZER,
} from "./names.js";
export {
  registerStorageControllers,
  runStorageControllers,
  type StorageControllerOptions,
} from "./storage-controllers.js";
export { VolumePool } from "./volume-pool.js";
