/**
 * kube's apps validation (pkg/apis/apps/validation) for StatefulSet, DaemonSet
 * and ControllerRevision, with its field paths and messages: the selector is
 * required, not empty and matches the template's labels; restartPolicy Always;
 * no activeDeadlineSeconds; non-negative counts; the update strategies and
 * their rolling-update parameters; the fields a StatefulSet update may change;
 * a DaemonSet's immutable selector and a ControllerRevision's immutable data.
 * As in kube, a StatefulSet's pod spec is not validated here (its volume
 * mounts name claim templates, not volumes); its pods are, when created.
 */
import { isDeepStrictEqual } from "node:util";
import {
  type ControllerRevision,
  type DaemonSet,
  dns1123Label,
  type FieldError,
  forbiddenValue,
  intOrPercentValue,
  invalidValue,
  isObject,
  type KubeObject,
  type LabelSelector,
  notMoreThan100PercentErrors,
  type PodTemplateSpec,
  positiveIntOrPercentErrors,
  requiredValue,
  type StatefulSet,
} from "../../api/index.js";
import {
  alwaysRunningErrors,
  selectsTemplateErrors,
  workloadSelectorErrors,
} from "./apps-validation.js";
import { nonNegative, notSupported } from "./batch-validation.js";
import { podTemplateErrors } from "./pod-template-validation.js";

/** The selector rules both kinds share with Deployments (`what`: "statefulset", "daemonset"). */
function selectorErrors(
  selector: LabelSelector | undefined,
  template: PodTemplateSpec | undefined,
  what: string,
): FieldError[] {
  return [
    ...workloadSelectorErrors(selector, "spec.selector", what),
    ...selectsTemplateErrors(template, selector, "spec.template"),
  ];
}

function statefulSetUpdateStrategyErrors(sts: StatefulSet): FieldError[] {
  const strategy = sts.spec.updateStrategy ?? {};
  const at = "spec.updateStrategy";
  const rolling = strategy.rollingUpdate;
  switch (strategy.type) {
    case "OnDelete":
      return rolling !== undefined
        ? [
            invalidValue(
              `${at}.rollingUpdate`,
              rolling,
              "only allowed for updateStrategy 'RollingUpdate'",
            ),
          ]
        : [];
    case "RollingUpdate": {
      if (!rolling) return [];
      const errors = nonNegative(`${at}.rollingUpdate.partition`, rolling.partition);
      const max = rolling.maxUnavailable;
      if (max !== undefined) {
        const field = `${at}.rollingUpdate.maxUnavailable`;
        errors.push(...positiveIntOrPercentErrors(field, max));
        if (intOrPercentValue(max) === 0) errors.push(invalidValue(field, max, "cannot be 0"));
        errors.push(...notMoreThan100PercentErrors(field, max));
      }
      return errors;
    }
    case undefined:
    case "" as string:
      return [requiredValue(at)];
    default:
      return [notSupported(at, strategy, ["OnDelete", "RollingUpdate"])];
  }
}

function claimTemplateErrors(sts: StatefulSet): FieldError[] {
  const errors: FieldError[] = [];
  (sts.spec.volumeClaimTemplates ?? []).forEach((claim, i) => {
    const field = `spec.volumeClaimTemplates[${i}].metadata.name`;
    const name = claim?.metadata?.name;
    if (!name) errors.push(requiredValue(field, "name or generateName is required"));
  });
  return errors;
}

function statefulSetSpecErrors(sts: StatefulSet): FieldError[] {
  const spec = sts.spec;
  const errors: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (policy === undefined || policy === ("" as string))
    errors.push(requiredValue("spec.podManagementPolicy"));
  else if (policy !== "OrderedReady" && policy !== "Parallel")
    errors.push(notSupported("spec.podManagementPolicy", policy, ["OrderedReady", "Parallel"]));
  errors.push(...statefulSetUpdateStrategyErrors(sts));
  const retention = spec.persistentVolumeClaimRetentionPolicy ?? {};
  for (const key of ["whenDeleted", "whenScaled"] as const) {
    const v = retention[key];
    if (v !== "Retain" && v !== "Delete")
      errors.push(
        notSupported(`spec.persistentVolumeClaimRetentionPolicy.${key}`, v ?? "", [
          "Retain",
          "Delete",
        ]),
      );
  }
  errors.push(
    ...nonNegative("spec.replicas", spec.replicas),
    ...nonNegative("spec.minReadySeconds", spec.minReadySeconds),
    ...nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit),
    ...nonNegative("spec.ordinals.start", spec.ordinals?.start),
    ...selectorErrors(spec.selector, spec.template, "statefulset"),
  );
  if (spec.serviceName)
    for (const why of dns1123Label(spec.serviceName))
      errors.push(invalidValue("spec.serviceName", spec.serviceName, why));
  const labelsOnly = { metadata: { labels: spec.template?.metadata?.labels } };
  errors.push(...podTemplateErrors(labelsOnly, "spec.template").filter(isLabelError));
  errors.push(
    ...alwaysRunningErrors(spec.template, "spec.template", "StatefulSet"),
    ...claimTemplateErrors(sts),
  );
  return errors;
}

const isLabelError = (e: FieldError) => e.field === "spec.template.labels";

/** The spec fields a StatefulSet update may change (ValidateStatefulSetUpdate). */
const STATEFULSET_MUTABLE = [
  "replicas",
  "ordinals",
  "template",
  "updateStrategy",
  "revisionHistoryLimit",
  "persistentVolumeClaimRetentionPolicy",
  "minReadySeconds",
] as const;

export function validateStatefulSet(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const sts = (isObject(obj.spec) ? obj : { ...obj, spec: {} }) as StatefulSet;
  const errors = statefulSetSpecErrors(sts);
  if (!old) return errors;
  const strip = (s: object) => {
    const copy: Record<string, unknown> = { ...s };
    for (const k of STATEFULSET_MUTABLE) delete copy[k];
    return copy;
  };
  if (!isDeepStrictEqual(strip(sts.spec), strip((old as StatefulSet).spec ?? {})))
    errors.push(
      forbiddenValue(
        "spec",
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  return errors;
}

function daemonSetStrategyErrors(ds: DaemonSet): FieldError[] {
  const strategy = ds.spec.updateStrategy ?? {};
  const at = "spec.updateStrategy";
  if (strategy.type === "OnDelete") return [];
  if (strategy.type === undefined || strategy.type === ("" as string))
    return [requiredValue(`${at}.type`)];
  if (strategy.type !== "RollingUpdate")
    return [notSupported(`${at}.type`, strategy.type, ["OnDelete", "RollingUpdate"])];
  const rolling = strategy.rollingUpdate;
  if (!rolling) return [requiredValue(`${at}.rollingUpdate`)];
  const unavailable = `${at}.rollingUpdate.maxUnavailable`;
  const surge = `${at}.rollingUpdate.maxSurge`;
  const errors = [
    ...positiveIntOrPercentErrors(unavailable, rolling.maxUnavailable),
    ...positiveIntOrPercentErrors(surge, rolling.maxSurge),
    ...notMoreThan100PercentErrors(unavailable, rolling.maxUnavailable),
    ...notMoreThan100PercentErrors(surge, rolling.maxSurge),
  ];
  const hasUnavailable = intOrPercentValue(rolling.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(rolling.maxSurge) !== 0;
  if (hasUnavailable && hasSurge)
    errors.push(
      invalidValue(surge, rolling.maxSurge, "may not be set when maxUnavailable is non-zero"),
    );
  else if (!hasUnavailable && !hasSurge)
    errors.push(requiredValue(unavailable, "cannot be 0 when maxSurge is 0"));
  return errors;
}

export function validateDaemonSet(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const ds = (isObject(obj.spec) ? obj : { ...obj, spec: {} }) as DaemonSet;
  const spec = ds.spec;
  const errors = [
    ...selectorErrors(spec.selector, spec.template, "daemonset"),
    ...podTemplateErrors(spec.template, "spec.template"),
    ...alwaysRunningErrors(spec.template, "spec.template", "DaemonSet"),
    ...nonNegative("spec.minReadySeconds", spec.minReadySeconds),
    ...nonNegative("spec.revisionHistoryLimit", spec.revisionHistoryLimit),
    ...daemonSetStrategyErrors(ds),
  ];
  const was = (old as DaemonSet | undefined)?.spec;
  if (was && !isDeepStrictEqual(spec.selector, was.selector))
    errors.push(invalidValue("spec.selector", spec.selector, "field is immutable"));
  return errors;
}

/** ValidateControllerRevision(Update): data is required and immutable, revision >= 0. */
export function validateControllerRevision(
  obj: KubeObject,
  old: KubeObject | undefined,
): FieldError[] {
  const cr = obj as ControllerRevision;
  const errors: FieldError[] = [];
  if (cr.data === undefined || cr.data === null)
    errors.push(requiredValue("data", "data is mandatory"));
  errors.push(...nonNegative("revision", cr.revision));
  if (old && !isDeepStrictEqual(cr.data, (old as ControllerRevision).data))
    errors.push(invalidValue("data", cr.data, "field is immutable"));
  return errors;
}
