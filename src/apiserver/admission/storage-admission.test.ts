/**
 * The storage admission plugins read StorageClasses from their watch-fed
 * cache: a new claim without a class gets the default class, a class stored
 * later is seen by the next claim, and a resize is allowed only by a class
 * that allows expansion — without a storage read per claim.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KubeObject } from "../../api/index.js";
import {
  DEFAULT_CLASS_ANNOTATION,
  ForbiddenError,
  type PersistentVolumeClaim,
} from "../../api/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import { ObjectStore } from "../store/object-store.js";
import { StorageAdmission } from "./storage-admission.js";
import type { AdmissionAttributes } from "./types.js";

const registry = new ResourceRegistry(builtinTypes());
const claimType = registry.lookup("", "v1", "persistentvolumeclaims")!;
const classType = registry.lookup("storage.k8s.io", "v1", "storageclasses")!;

function storageClass(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name, annotations: { [DEFAULT_CLASS_ANNOTATION]: "true" } },
    provisioner: "hearth.io/local",
    ...extra,
  };
}

function claim(storage: string, storageClassName?: string): PersistentVolumeClaim {
  return {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "data", namespace: "ns" },
    spec: {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage } },
      ...(storageClassName ? { storageClassName, volumeName: "pv-1" } : {}),
    },
  };
}

function write(
  object: PersistentVolumeClaim,
  oldObject?: PersistentVolumeClaim,
): AdmissionAttributes {
  return {
    operation: oldObject ? "UPDATE" : "CREATE",
    type: claimType,
    subresource: "",
    namespace: "ns",
    name: "data",
    object,
    oldObject,
    user: { username: "alice", groups: [] },
    dryRun: false,
  };
}

describe("StorageAdmission", () => {
  let backend: LaggingBackend;
  let store: ObjectStore;
  let controller: AbortController;
  let plugin: StorageAdmission;

  beforeEach(async () => {
    backend = new LaggingBackend();
    store = new ObjectStore(backend);
    controller = new AbortController();
    await store.create(classType, storageClass("fixed"));
    plugin = new StorageAdmission(backend);
    await plugin.start(controller.signal);
    backend.reads = 0;
  });
  afterEach(async () => {
    controller.abort();
    await backend.close();
  });

  it("gives a new claim the default class from its cache, without reading storage", () => {
    const attrs = write(claim("1Gi"));
    plugin.admit(attrs);
    assert.equal((attrs.object as PersistentVolumeClaim).spec?.storageClassName, "fixed");
    assert.equal(backend.reads, 0);
  });

  it("allows a resize only where the cached class allows expansion", async () => {
    const grow = () => write(claim("2Gi", "growing"), claim("1Gi", "growing"));
    assert.throws(
      () => plugin.validate(grow()),
      (e) =>
        e instanceof ForbiddenError &&
        /storageclass that provisions the pvc must support resize/.test(e.message),
    );
    await store.create(classType, storageClass("growing", { allowVolumeExpansion: true }));
    assert.deepEqual(plugin.validate(grow()), []);
    assert.equal(backend.reads, 0);
  });
});
