/**
 * kube's ValidatePodTemplateSpec as the workload kinds share it (Job, CronJob,
 * Deployment, ReplicaSet, StatefulSet, DaemonSet): the template's label keys and values, then the
 * pod's own validation with every field path under `<at>` (e.g.
 * `spec.template.spec.containers[0].image`).
 */
import {
  type FieldError,
  invalidValue,
  labelValue,
  type PodTemplateSpec,
  qualifiedName,
} from "../../api/index.js";
import { validatePod } from "./pod-validation.js";

export function podTemplateErrors(template: PodTemplateSpec | undefined, at: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(template?.metadata?.labels ?? {})) {
    for (const why of qualifiedName(key)) errors.push(invalidValue(`${at}.labels`, key, why));
    for (const why of labelValue(String(value)))
      errors.push(invalidValue(`${at}.labels`, value, why));
  }
  for (const e of validatePod(
    { apiVersion: "v1", kind: "Pod", metadata: {}, spec: template?.spec },
    undefined,
  ))
    errors.push({ ...e, field: `${at}.${e.field}` });
  return errors;
}
