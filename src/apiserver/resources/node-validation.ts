/**
 * kube's `ValidateNode` and `ValidateNodeUpdate` for the spec of core/v1 Nodes:
 * taints (a label-name key, a label value, a supported effect, unique by key
 * and effect — reported under `metadata.taints`, kube's own path), pod CIDRs
 * (valid, at most one per IP family, no repeats; `podCIDR` stands for them when
 * they are absent, as v1's conversion does), and a providerID that may only be
 * set once. One departure: kube keeps podCIDRs once set, but Hearth's node
 * agent re-registers its Node with the pod range it runs with (`--pod-cidr`),
 * so an update may change them.
 */
import { isIP } from "node:net";
import {
  type FieldError,
  forbiddenValue,
  invalidValue,
  type KubeObject,
  labelValue,
  qualifiedName,
  requiredValue,
} from "../../api/index.js";
import { duplicate, notSupported } from "../validation/field-errors.js";

interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  taints?: Taint[];
}

const EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

const specOf = (o: KubeObject) => (o.spec ?? {}) as NodeSpec;

/** Go's `%#v` of the taint, as kube's duplicate error prints it. */
function goTaint(t: Taint): string {
  const added = t.timeAdded === undefined ? "<nil>" : JSON.stringify(t.timeAdded);
  return `core.Taint{Key:${JSON.stringify(t.key ?? "")}, Value:${JSON.stringify(t.value ?? "")}, Effect:${JSON.stringify(t.effect ?? "")}, TimeAdded:${added}}`;
}

function taintErrors(taints: Taint[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((t, i) => {
    const at = `metadata.taints[${i}]`;
    const key = t.key ?? "";
    for (const why of qualifiedName(key)) errors.push(invalidValue(`${at}.key`, key, why));
    const value = t.value ?? "";
    const bad = labelValue(value);
    if (bad.length > 0) errors.push(invalidValue(`${at}.value`, value, bad.join(";")));
    const effect = t.effect ?? "";
    if (!effect) errors.push(requiredValue(`${at}.effect`));
    else if (!EFFECTS.includes(effect)) errors.push(notSupported(`${at}.effect`, effect, EFFECTS));
    const pair = JSON.stringify([effect, key]);
    if (seen.has(pair))
      errors.push({
        ...duplicate(at, t),
        detail: `Duplicate value: ${goTaint(t)}: taints must be unique by key and effect pair`,
      });
    seen.add(pair);
  });
  return errors;
}

/** The family (4 or 6) of a CIDR as Go's ParseCIDR reads it, or 0. */
function cidrFamily(cidr: string): number {
  const slash = cidr.indexOf("/");
  if (slash < 0) return 0;
  const family = isIP(cidr.slice(0, slash));
  const bits = cidr.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return 0;
  return Number(bits) <= (family === 4 ? 32 : 128) ? family : 0;
}

function podCidrErrors(cidrs: string[]): FieldError[] {
  const errors: FieldError[] = [];
  cidrs.forEach((c, i) => {
    if (cidrFamily(c) === 0)
      errors.push(invalidValue(`spec.podCIDRs[${i}]`, cidrs, "must be valid CIDR"));
  });
  if (cidrs.length < 2) return errors;
  const families = new Set(cidrs.map(cidrFamily));
  if (cidrs.length > 2 || !families.has(4) || !families.has(6))
    errors.push(
      invalidValue("spec.podCIDRs", cidrs, "may specify no more than one CIDR for each IP family"),
    );
  const seen = new Set<string>();
  cidrs.forEach((c, i) => {
    if (seen.has(c)) errors.push(duplicate(`spec.podCIDRs[${i}]`, c));
    seen.add(c);
  });
  return errors;
}

export function validateNode(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = specOf(obj);
  const errors = taintErrors(spec.taints ?? []);
  const cidrs = spec.podCIDRs ?? (spec.podCIDR ? [spec.podCIDR] : []);
  errors.push(...podCidrErrors(cidrs));
  const was = old ? (specOf(old).providerID ?? "") : "";
  if (was !== "" && was !== (spec.providerID ?? ""))
    errors.push(
      forbiddenValue(
        "spec.providerID",
        'node updates may not change providerID except from "" to valid',
      ),
    );
  return errors;
}
