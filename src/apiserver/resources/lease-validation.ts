/**
 * kube's `ValidateLeaseSpec` for coordination.k8s.io/v1 Leases: a positive
 * duration, a non-negative transition count, a known (or domain-qualified)
 * coordinated-election strategy, and a preferred holder only with a strategy.
 */
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  type KubeObject,
  qualifiedName,
} from "../../api/index.js";
import { notSupported } from "../validation/field-errors.js";

interface LeaseSpec {
  leaseDurationSeconds?: number;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

const STRATEGIES = ["OldestEmulationVersion"];

function strategyErrors(strategy: string): FieldError[] {
  // kube appends "strategy" to the path it is given, which is already spec.strategy.
  const at = "spec.strategy.strategy";
  if (!strategy.includes("/"))
    return STRATEGIES.includes(strategy) ? [] : [notSupported(at, strategy, STRATEGIES)];
  return qualifiedName(strategy).map((why) => invalidValue(at, strategy, why));
}

export function validateLease(obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as LeaseSpec;
  const errors: FieldError[] = [];
  const duration = spec.leaseDurationSeconds;
  if (duration !== undefined && duration !== null && duration <= 0)
    errors.push(invalidValue("spec.leaseDurationSeconds", duration, "must be greater than 0"));
  const transitions = spec.leaseTransitions;
  if (transitions !== undefined && transitions !== null && transitions < 0)
    errors.push(
      invalidValue("spec.leaseTransitions", transitions, "must be greater than or equal to 0"),
    );
  if (typeof spec.strategy === "string") errors.push(...strategyErrors(spec.strategy));
  if (spec.preferredHolder && !spec.strategy)
    errors.push(
      forbiddenValue("spec.preferredHolder", "may only be specified if `strategy` is defined"),
    );
  return errors;
}
