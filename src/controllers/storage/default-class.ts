/**
 * The StorageClass `hearth up` provides: `local-path`, provisioner
 * `hearth.io/local-path`, reclaim policy Delete, binding Immediate. Created at
 * start when absent, and marked default only when no other class is — an admin
 * who made another class the default keeps it.
 */
import {
  chooseDefaultClass,
  DEFAULT_CLASS_ANNOTATION,
  hasCode,
  type StorageClass,
} from "../../api/index.js";
import type { Client } from "../../client/index.js";
import {
  DEFAULT_CLASS_NAME,
  getOrUndefined,
  LOCAL_PATH_PROVISIONER,
  STORAGE_CLASS,
} from "./names.js";

export async function ensureDefaultStorageClass(client: Client): Promise<void> {
  if (await getOrUndefined(client, STORAGE_CLASS, DEFAULT_CLASS_NAME)) return;
  const classes = await client.list<StorageClass>({
    apiVersion: STORAGE_CLASS.apiVersion,
    kind: STORAGE_CLASS.kind,
  });
  const isDefault = chooseDefaultClass(classes.items) === undefined;
  const sc: StorageClass = {
    ...STORAGE_CLASS,
    metadata: {
      name: DEFAULT_CLASS_NAME,
      ...(isDefault ? { annotations: { [DEFAULT_CLASS_ANNOTATION]: "true" } } : {}),
    },
    provisioner: LOCAL_PATH_PROVISIONER,
    reclaimPolicy: "Delete",
    volumeBindingMode: "Immediate",
    allowVolumeExpansion: true,
  };
  await client.create(sc).catch((e: unknown) => {
    if (!hasCode(e, 409)) throw e;
  });
}
