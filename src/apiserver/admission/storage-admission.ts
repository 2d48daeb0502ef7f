/**
 * kube's storage admission plugins, over the stored StorageClasses:
 * - DefaultStorageClass (mutating): a new claim that names no class
 *   (`spec.storageClassName` absent, not "") gets the default class — the newest
 *   one annotated `storageclass.kubernetes.io/is-default-class: "true"`. With no
 *   default class the claim is left as it is.
 * - PersistentVolumeClaimResize (validating): a claim's storage request may grow
 *   only when its class allows volume expansion.
 * StorageClasses are read from a watch-fed cache (store/object-cache.ts), as
 * kube's plugins read their lister.
 */
import {
  BETA_CLASS_ANNOTATION,
  chooseDefaultClass,
  claimClassName,
  compareQuantities,
  ForbiddenError,
  isQuantity,
  type PersistentVolumeClaim,
  type StorageClass,
} from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import type { FollowedPrefix } from "../store/cache-sync.js";
import { ObjectCache } from "../store/object-cache.js";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.js";

function isClaimWrite(attrs: AdmissionAttributes): boolean {
  return (
    attrs.type.group === "" &&
    attrs.type.plural === "persistentvolumeclaims" &&
    attrs.subresource === ""
  );
}

export class StorageAdmission implements AdmissionPlugin {
  readonly name = "DefaultStorageClass,PersistentVolumeClaimResize";
  private readonly cache: ObjectCache;

  constructor(backend: Backend, log?: (msg: string, err?: unknown) => void) {
    this.cache = new ObjectCache(
      backend,
      { group: "storage.k8s.io", plural: "storageclasses", namespaced: false },
      log,
    );
  }

  /** Loads the StorageClasses, then follows them until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return this.cache.start(signal);
  }

  followed(): FollowedPrefix {
    return this.cache.followed();
  }

  private classes(): StorageClass[] {
    return this.cache.list("") as StorageClass[];
  }

  admit(attrs: AdmissionAttributes): void {
    if (attrs.operation !== "CREATE" || !isClaimWrite(attrs) || !attrs.object) return;
    const pvc = attrs.object as PersistentVolumeClaim;
    if (pvc.spec?.storageClassName !== undefined) return;
    if (pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION] !== undefined) return;
    const chosen = chooseDefaultClass(this.classes());
    if (chosen) pvc.spec = { ...pvc.spec, storageClassName: chosen.metadata.name! };
  }

  validate(attrs: AdmissionAttributes): string[] {
    if (attrs.operation !== "UPDATE" || !isClaimWrite(attrs)) return [];
    const pvc = attrs.object as PersistentVolumeClaim;
    const old = attrs.oldObject as PersistentVolumeClaim;
    const now = pvc.spec?.resources?.requests?.storage;
    const before = old.spec?.resources?.requests?.storage;
    if (!isQuantity(now) || !isQuantity(before) || compareQuantities(now!, before!) <= 0) return [];
    const className = claimClassName(old);
    const sc = this.cache.get(undefined, className ?? "") as StorageClass | undefined;
    if (!old.spec?.volumeName || !className || sc?.allowVolumeExpansion !== true)
      throw new ForbiddenError(
        { group: "", resource: "persistentvolumeclaims", name: attrs.name },
        "only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize",
      );
    return [];
  }
}
