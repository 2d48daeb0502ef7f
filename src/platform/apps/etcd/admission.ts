/**
 * Admission rules of the Etcd app, beyond its schema (a chosen storage class
 * sticks): it is installed once per tenant namespace, as `etcd`; `replicas` is
 * odd, because an even count tolerates no more failed members than one fewer
 * and only adds a member to wait for; `size` is a quantity above zero; and the
 * `storageClass` chosen at creation sticks, since the members' volumes were
 * made in it.
 */

import type { KubeObject } from "../../../api/index.js";
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  isQuantity,
  quantityValue,
} from "../../../api/index.js";
import { ETCD_APP_NAME } from "./naming.js";

type Spec = Record<string, unknown>;

/** The parts of an admission request the rules read. */
export interface EtcdAdmissionRequest {
  operation: string;
  name: string;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
}

function replicasErrors(replicas: unknown): FieldError[] {
  if (replicas === undefined) return [];
  if (typeof replicas !== "number" || !Number.isInteger(replicas) || replicas < 1)
    return [invalidValue("spec.replicas", replicas, "must be a positive odd integer (1, 3, 5…)")];
  if (replicas % 2 === 0)
    return [
      invalidValue(
        "spec.replicas",
        replicas,
        `must be odd (1, 3, 5…): ${replicas} members tolerate no more failures than ${replicas - 1} (a quorum of ${replicas / 2 + 1} is needed), so the extra member only adds a disk and a vote to wait for`,
      ),
    ];
  return [];
}

function sizeErrors(size: unknown): FieldError[] {
  if (size === undefined) return [];
  if ((typeof size === "string" || typeof size === "number") && isQuantity(size))
    if (quantityValue(size) > 0n) return [];
  return [invalidValue("spec.size", size, "must be a quantity above zero, such as 4Gi")];
}

export function etcdSpecErrors(req: EtcdAdmissionRequest): FieldError[] {
  const spec = (req.object?.spec ?? {}) as Spec;
  const errors: FieldError[] = [];
  if (req.operation === "CREATE" && req.name !== ETCD_APP_NAME)
    errors.push(
      invalidValue(
        "metadata.name",
        req.name,
        `the Etcd module is installed once per tenant namespace, as ${ETCD_APP_NAME} (enable it with etcd: true on the Tenant)`,
      ),
    );
  errors.push(...replicasErrors(spec.replicas), ...sizeErrors(spec.size));
  if (req.operation === "UPDATE") {
    const old = (req.oldObject?.spec ?? {}) as Spec;
    if ((old.storageClass ?? "") !== (spec.storageClass ?? ""))
      errors.push(
        forbiddenValue(
          "spec.storageClass",
          `cannot change from ${JSON.stringify(old.storageClass ?? "")}: the members' volumes were made in the storage class chosen at creation, and it sticks`,
        ),
      );
  }
  return errors;
}
