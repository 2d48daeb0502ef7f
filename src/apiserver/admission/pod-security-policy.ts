/**
 * Pod Security levels and versions, and a namespace's policy from its labels
 * (`pod-security.kubernetes.io/{enforce,audit,warn}` and `…-version`), as kube's
 * `PolicyToEvaluate`: unlabelled modes take the configured defaults; a bad
 * level enforces `restricted` (fail closed) but audits and warns `privileged`
 * (fail open), a bad version means `latest`, and each bad label is a field
 * error on `metadata.labels[…]`; warn follows a stricter explicit enforce.
 * And the evaluation: the checks that apply at a level and version, baseline
 * ids first then restricted, each in id order, a restricted check replacing
 * the baseline checks it overrides.
 */

import type { ObjectMeta, PodSpec } from "../../api/index.js";
import { type FieldError, invalidValue } from "../../api/index.js";
import { BASELINE_CHECKS } from "./pod-security-baseline.js";
import type { CheckPod, Level, VersionedCheck, Violation } from "./pod-security-check.js";
import { RESTRICTED_CHECKS } from "./pod-security-restricted.js";

/** The policy version of this apiserver (kube v1.32): `latest` and anything newer mean it. */
export const LATEST_MINOR = 32;

/** A level at a version: `minor` undefined is `latest`. */
export interface LevelVersion {
  level: Level;
  minor?: number;
}

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export const PRIVILEGED_POLICY: Policy = {
  enforce: { level: "privileged" },
  audit: { level: "privileged" },
  warn: { level: "privileged" },
};

const PREFIX = "pod-security.kubernetes.io/";
export const ENFORCE_LABEL = `${PREFIX}enforce`;
const MODES = ["enforce", "audit", "warn"] as const;
const LEVELS: Level[] = ["privileged", "baseline", "restricted"];
const VERSION = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** `baseline:latest`, `restricted:v1.25`. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${lv.minor === undefined ? "latest" : `v1.${lv.minor}`}`;
}

export function compareLevels(a: Level, b: Level): number {
  return LEVELS.indexOf(a) - LEVELS.indexOf(b);
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && a.minor === b.minor;
}

export function fullyPrivileged(p: Policy): boolean {
  return MODES.every((m) => p[m].level === "privileged");
}

/** The namespace's policy and the errors of its Pod Security labels. */
export function policyFromLabels(
  labels: Record<string, string> | undefined,
  defaults: Policy = PRIVILEGED_POLICY,
): { policy: Policy; errors: FieldError[] } {
  const policy: Policy = {
    enforce: { ...defaults.enforce },
    audit: { ...defaults.audit },
    warn: { ...defaults.warn },
  };
  const errors: FieldError[] = [];
  if (!labels) return { policy, errors };
  const bad = (label: string, value: string, why: string) =>
    errors.push(invalidValue(`metadata.labels[${label}]`, value, why));
  let enforceLevelSet = false;
  for (const mode of MODES) {
    const level = labels[PREFIX + mode];
    if (level !== undefined) {
      if (LEVELS.includes(level as Level)) {
        policy[mode].level = level as Level;
        if (mode === "enforce") enforceLevelSet = true;
      } else {
        // Fail closed for enforce, open for audit and warn.
        policy[mode].level = mode === "enforce" ? "restricted" : "privileged";
        bad(PREFIX + mode, level, `must be one of ${LEVELS.join(", ")}`);
      }
    }
    const version = labels[`${PREFIX}${mode}-version`];
    if (version !== undefined) {
      const m = VERSION.exec(version);
      if (version === "latest") delete policy[mode].minor;
      else if (m) policy[mode].minor = Number(m[1]);
      else {
        delete policy[mode].minor;
        bad(`${PREFIX}${mode}-version`, version, 'must be "latest" or "v1.x"');
      }
    }
  }
  const warnLevelSet = labels[`${PREFIX}warn`] !== undefined;
  if (
    !warnLevelSet &&
    enforceLevelSet &&
    compareLevels(policy.enforce.level, policy.warn.level) > 0
  ) {
    policy.warn.level = policy.enforce.level;
    if (labels[`${PREFIX}warn-version`] === undefined) {
      if (policy.enforce.minor === undefined) delete policy.warn.minor;
      else policy.warn.minor = policy.enforce.minor;
    }
  }
  return { policy, errors };
}

/** The checks of `lv`, in kube's order. */
function checksAt(lv: LevelVersion): CheckPod[] {
  if (lv.level === "privileged") return [];
  const minor = Math.min(lv.minor ?? LATEST_MINOR, LATEST_MINOR);
  const pick = (versions: VersionedCheck[]) =>
    versions.filter((v) => v.minimumMinor <= minor).at(-1);
  const restricted =
    lv.level === "restricted"
      ? RESTRICTED_CHECKS.flatMap((c) => {
          const v = pick(c.versions);
          return v ? [{ id: c.id, ...v }] : [];
        })
      : [];
  const overridden = new Set(restricted.flatMap((r) => r.overrides ?? []));
  const baseline = BASELINE_CHECKS.filter((c) => !overridden.has(c.id)).flatMap((c) => {
    const v = pick(c.versions);
    return v ? [{ id: c.id, ...v }] : [];
  });
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return [...baseline.sort(byId), ...restricted.sort(byId)].map((c) => c.check);
}

/** What a pod violates at `lv` (empty: allowed). */
export function evaluatePod(lv: LevelVersion, meta: ObjectMeta, spec: PodSpec): Violation[] {
  return checksAt(lv).flatMap((check) => check(meta, spec) ?? []);
}

/** `privileged (container "c" must not …), hostPath volumes (volume "v")`. */
export function forbiddenDetail(violations: Violation[]): string {
  return violations.map((v) => (v.detail ? `${v.reason} (${v.detail})` : v.reason)).join(", ");
}

/** `privileged, hostPath volumes`. */
export function forbiddenReason(violations: Violation[]): string {
  return violations.map((v) => v.reason).join(", ");
}
