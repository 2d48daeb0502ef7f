/**
 * Who owns each finalizer Hearth knows: the controller that removes it, where
 * that controller runs, and what it waits for before it does. `hearth doctor`
 * reads it to say who holds a stuck object and what the one safe next step is.
 * A finalizer not in the table belongs to no Hearth controller.
 *
 * The names are spelled here as strings because the controllers that own them
 * sit in layers this one may not import (controllers/, apiserver/);
 * src/cli/doctor.test.ts checks every entry against the constant its owner uses.
 */
import {
  JOB_TRACKING_FINALIZER,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
} from "../../api/index.js";
import { DATASTORE_FINALIZER } from "../datastore/index.js";
import { UNINSTALL_FINALIZER } from "../engine/app-reconciler.js";
import { MEMBER_FINALIZER } from "../operators/etcd/index.js";

export interface FinalizerOwner {
  /** The controller that removes it, in the words of docs/doctor.md. */
  controller: string;
  /** What the controller does before it removes the finalizer. */
  waitsFor: string;
  /**
   * False for a finalizer Hearth knows by name (Kamaji's) but whose controller
   * it does not run yet: nothing will remove it.
   */
  implemented: boolean;
  /** For one Hearth does not run: when removing it by hand loses nothing. */
  byHandOnce?: string;
}

/** The `kubernetes` finalizer of a namespace's `spec.finalizers`. */
export const NAMESPACE_FINALIZER = "kubernetes";
export const FOREGROUND_FINALIZER = "foregroundDeletion";
export const ORPHAN_FINALIZER = "orphan";
export const CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";
export const VOLUME_DIRECTORY_FINALIZER = "hearth.io/volume-directory";

export const FINALIZER_OWNERS: ReadonlyMap<string, FinalizerOwner> = new Map([
  [
    NAMESPACE_FINALIZER,
    {
      controller: "the namespace controller",
      waitsFor: "deletes every object inside the namespace",
      implemented: true,
    },
  ],
  [
    FOREGROUND_FINALIZER,
    {
      controller: "the garbage collector",
      waitsFor: "deletes the object's dependents (foreground deletion)",
      implemented: true,
    },
  ],
  [
    ORPHAN_FINALIZER,
    {
      controller: "the garbage collector",
      waitsFor: "removes the owner reference from the object's dependents (orphan deletion)",
      implemented: true,
    },
  ],
  [
    CRD_CLEANUP_FINALIZER,
    {
      controller: "the apiserver's CRD registrar",
      waitsFor: "deletes every custom object of the definition",
      implemented: true,
    },
  ],
  [
    PVC_PROTECTION_FINALIZER,
    {
      controller: "the PVC protection controller",
      waitsFor: "sees no pod using the claim",
      implemented: true,
    },
  ],
  [
    PV_PROTECTION_FINALIZER,
    {
      controller: "the PV protection controller",
      waitsFor: "sees the volume bound to no claim",
      implemented: true,
    },
  ],
  [
    VOLUME_DIRECTORY_FINALIZER,
    {
      controller: "the volume controller",
      waitsFor: "removes the volume's directory under DIR/volumes",
      implemented: true,
    },
  ],
  [
    JOB_TRACKING_FINALIZER,
    {
      controller: "the job controller",
      waitsFor: "counts the pod in its Job's status",
      implemented: true,
    },
  ],
  [
    UNINSTALL_FINALIZER,
    {
      controller: "the apps engine",
      waitsFor: "runs the app's uninstall waves (its status says which)",
      implemented: true,
    },
  ],
  [
    MEMBER_FINALIZER,
    {
      controller: "the etcd operator",
      waitsFor: "removes the member from its etcd cluster (bounded: it goes anyway after a while)",
      implemented: true,
    },
  ],
  [
    "finalizer.kamaji.clastix.io",
    {
      controller: "the TenantControlPlane controller",
      waitsFor: "deletes the control plane's prefix, etcd role and user on its DataStore",
      implemented: false,
      byHandOnce:
        "its DataStore's etcd is gone or you accept leaving its prefix, role and user there",
    },
  ],
  [
    "finalizer.kamaji.clastix.io/soot",
    {
      controller: "the TenantControlPlane controller",
      waitsFor: "stops the control plane's per-tenant manager",
      implemented: false,
      byHandOnce: "the control plane is being deleted (it guards nothing stored)",
    },
  ],
  [
    "finalizer.kamaji.clastix.io/datastore-secret",
    {
      controller: "the TenantControlPlane controller",
      waitsFor: "has cleaned up the control plane's datastore (it guards <tcp>-datastore-config)",
      implemented: false,
      byHandOnce: "its TenantControlPlane is gone or no longer holds finalizer.kamaji.clastix.io",
    },
  ],
  [
    DATASTORE_FINALIZER,
    {
      controller: "the DataStore controller",
      waitsFor: "sees no TenantControlPlane using the DataStore (status.usedBy empty)",
      implemented: true,
      byHandOnce: "no TenantControlPlane uses the DataStore any more (status.usedBy)",
    },
  ],
]);
