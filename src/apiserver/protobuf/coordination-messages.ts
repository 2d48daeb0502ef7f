/**
 * Field tables for k8s.io/api/coordination/v1/generated.proto: Lease. Every
 * LeaseSpec field is a pointer in Go, so each is rendered exactly when on the wire.
 */
import { ObjectMeta } from "./meta-messages.js";
import { always, message, pointer } from "./schema.js";

const LeaseSpec = message("LeaseSpec", [
  pointer(1, "holderIdentity", "string"),
  pointer(2, "leaseDurationSeconds", "int32"),
  pointer(3, "acquireTime", "microTime"),
  pointer(4, "renewTime", "microTime"),
  pointer(5, "leaseTransitions", "int32"),
  pointer(6, "strategy", "string"),
  pointer(7, "preferredHolder", "string"),
]);

export const Lease = message("Lease", [
  always(1, "metadata", ObjectMeta),
  always(2, "spec", LeaseSpec),
]);
