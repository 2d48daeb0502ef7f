/**
 * kube-apiserver's checks on a Pod's security settings (from `ValidatePodSpec`):
 * user and group ids in range, seccomp and AppArmor profiles consistent with
 * their type, sysctl names, `allowPrivilegeEscalation: false` not combined with
 * privilege, a shared process namespace not combined with hostPID, and host
 * networking only with hostPort equal to containerPort. Field paths and wording
 * are kube's. Whether a setting is *allowed* in a namespace is Pod Security
 * admission's business (admission/pod-security.ts), not this file's.
 */

import type {
  Container,
  PodSecurityContext,
  PodSpec,
  SeccompProfile,
  SecurityContext,
} from "../../api/index.js";
import { type FieldError, invalidValue, requiredValue } from "../../api/index.js";

const MAX_ID = 2147483647;
const ID_RANGE = `must be between 0 and ${MAX_ID}, inclusive`;
const SYSCTL_MAX = 253;
const SYSCTL_NAME = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$/;
const PROFILE_TYPES = ["Localhost", "RuntimeDefault", "Unconfined"];

function idErrors(field: string, id: number | undefined): FieldError[] {
  return id !== undefined && !(id >= 0 && id <= MAX_ID) ? [invalidValue(field, id, ID_RANGE)] : [];
}

/** A localhost profile path: relative, without `..` (kube's validateLocalDescendingPath). */
function descendingPathErrors(field: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (path.startsWith("/")) errors.push(invalidValue(field, path, "must be a relative path"));
  if (path.split("/").includes(".."))
    errors.push(invalidValue(field, path, "must not contain '..'"));
  return errors;
}

/** kube's validateSeccompProfileField and ValidateAppArmorProfileField. */
function profileErrors(
  field: string,
  p: SeccompProfile | undefined,
  what: "seccomp" | "AppArmor",
): FieldError[] {
  if (!p) return [];
  if (!p.type)
    return [requiredValue(`${field}.type`, `type is required when ${what}Profile is set`)];
  if (!PROFILE_TYPES.includes(p.type)) return []; // the schema's enum reports it
  if (p.type === "Localhost") {
    if (p.localhostProfile === undefined)
      return [
        requiredValue(`${field}.localhostProfile`, `must be set when ${what} type is Localhost`),
      ];
    if (what === "AppArmor" && p.localhostProfile.trim() === "")
      return [
        invalidValue(
          `${field}.localhostProfile`,
          p.localhostProfile,
          "must be a non-whitespace string",
        ),
      ];
    return descendingPathErrors(`${field}.localhostProfile`, p.localhostProfile);
  }
  if (p.localhostProfile !== undefined)
    return [
      invalidValue(
        `${field}.localhostProfile`,
        p,
        `can only be set when ${what} type is Localhost`,
      ),
    ];
  return [];
}

function containerContextErrors(
  sc: SecurityContext | undefined,
  at: string,
  hostUsers: boolean,
): FieldError[] {
  if (!sc) return [];
  const errors = [
    ...idErrors(`${at}.runAsUser`, sc.runAsUser),
    ...idErrors(`${at}.runAsGroup`, sc.runAsGroup),
    ...profileErrors(`${at}.seccompProfile`, sc.seccompProfile, "seccomp"),
    ...profileErrors(`${at}.appArmorProfile`, sc.appArmorProfile, "AppArmor"),
  ];
  if (sc.procMount === "Unmasked" && hostUsers)
    errors.push(
      invalidValue(`${at}.procMount`, sc.procMount, "`hostUsers` must be false to use `Unmasked`"),
    );
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true)
      errors.push(
        invalidValue(
          at,
          sc,
          "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
        ),
      );
    if (sc.capabilities?.add?.includes("CAP_SYS_ADMIN"))
      errors.push(
        invalidValue(
          at,
          sc,
          "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
        ),
      );
  }
  return errors;
}

function sysctlErrors(sysctls: PodSecurityContext["sysctls"], at: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, s] of (sysctls ?? []).entries()) {
    const field = `${at}[${i}].name`;
    if (!s.name) errors.push(requiredValue(field));
    else if (s.name.length > SYSCTL_MAX || !SYSCTL_NAME.test(s.name))
      errors.push(
        invalidValue(
          field,
          s.name,
          `must have at most ${SYSCTL_MAX} characters and match regex ${SYSCTL_NAME.source}`,
        ),
      );
    else if (seen.has(s.name))
      errors.push({
        reason: "FieldValueDuplicate",
        field,
        detail: `Duplicate value: ${JSON.stringify(s.name)}`,
      });
    seen.add(s.name);
  }
  return errors;
}

function podContextErrors(spec: PodSpec): FieldError[] {
  const at = "spec.securityContext";
  const sc = spec.securityContext;
  const errors: FieldError[] = [];
  if (sc) {
    errors.push(
      ...idErrors(`${at}.fsGroup`, sc.fsGroup),
      ...idErrors(`${at}.runAsUser`, sc.runAsUser),
      ...idErrors(`${at}.runAsGroup`, sc.runAsGroup),
      ...profileErrors(`${at}.seccompProfile`, sc.seccompProfile, "seccomp"),
      ...profileErrors(`${at}.appArmorProfile`, sc.appArmorProfile, "AppArmor"),
      ...sysctlErrors(sc.sysctls, `${at}.sysctls`),
    );
    for (const [i, gid] of (sc.supplementalGroups ?? []).entries())
      errors.push(...idErrors(`${at}.supplementalGroups[${i}]`, gid));
  }
  // kube reports these under securityContext, where its internal type keeps them.
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    errors.push(
      invalidValue(
        `${at}.shareProcessNamespace`,
        true,
        "ShareProcessNamespace and HostPID cannot both be enabled",
      ),
    );
  return errors;
}

function portErrors(c: Container, at: string, hostNetwork: boolean): FieldError[] {
  const errors: FieldError[] = [];
  for (const [j, p] of (c.ports ?? []).entries()) {
    const port = `${at}.ports[${j}]`;
    if (p.hostPort !== undefined && p.hostPort !== 0 && !(p.hostPort >= 1 && p.hostPort <= 65535))
      errors.push(
        invalidValue(`${port}.hostPort`, p.hostPort, "must be between 1 and 65535, inclusive"),
      );
    if (hostNetwork && p.hostPort !== p.containerPort)
      errors.push(
        invalidValue(
          `${port}.containerPort`,
          p.containerPort,
          "must match `hostPort` when `hostNetwork` is true",
        ),
      );
  }
  return errors;
}

/** The security checks of one pod spec (`spec.` paths). */
export function securityErrors(spec: PodSpec): FieldError[] {
  const errors = podContextErrors(spec);
  const hostUsers = spec.hostUsers !== false;
  for (const [list, field] of [
    [spec.initContainers ?? [], "spec.initContainers"],
    [spec.containers ?? [], "spec.containers"],
  ] as const)
    for (const [i, c] of list.entries()) {
      const at = `${field}[${i}]`;
      errors.push(
        ...containerContextErrors(c.securityContext, `${at}.securityContext`, hostUsers),
        ...portErrors(c, at, spec.hostNetwork === true),
      );
    }
  return errors;
}
