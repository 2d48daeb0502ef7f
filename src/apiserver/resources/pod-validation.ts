/**
 * The checks kube-apiserver makes on a Pod beyond its schema (a subset of
 * `ValidatePodCreate`/`ValidatePodUpdate`), with kube's field paths and
 * wording: containers present and uniquely named, images set, ports, env
 * names and sources, volumes (`pod-volume-validation.ts`), mounts naming a
 * volume, probes with one handler, quantities with each request at most its
 * limit, security settings (`pod-security-validation.ts`), and a spec that
 * updates may change only in images, activeDeadlineSeconds and tolerations.
 */
import { isDeepStrictEqual } from "node:util";
import type { Container, KubeObject, Pod, PodSpec, Probe } from "../../api/index.js";
import {
  compareQuantities,
  dns1123Label,
  dns1123Subdomain,
  type FieldError,
  forbiddenValue,
  invalidValue,
  isQuantity,
  QUANTITY_FORMAT_MESSAGE,
  requiredValue,
} from "../../api/index.js";
import { dnsErrors } from "./pod-dns-validation.js";
import { securityErrors } from "./pod-security-validation.js";
import { volumeErrors } from "./pod-volume-validation.js";

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const ENV_NAME_MESSAGE =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnv1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

const duplicate = (field: string, value: unknown): FieldError => ({
  reason: "FieldValueDuplicate",
  field,
  detail: `Duplicate value: ${JSON.stringify(value)}`,
});

const notFound = (field: string, value: unknown): FieldError => ({
  reason: "FieldValueNotFound",
  field,
  detail: `Not found: ${JSON.stringify(value)}`,
});

function probeErrors(p: Probe | undefined, path: string, liveness: boolean): FieldError[] {
  if (!p) return [];
  const handlers = ["exec", "tcpSocket", "httpGet"].filter((h) => p[h as keyof Probe]);
  const errors: FieldError[] = [];
  if (handlers.length === 0) errors.push(requiredValue(path, "must specify a handler type"));
  if (handlers.length > 1)
    errors.push(
      forbiddenValue(`${path}.${handlers[1]}`, "may not specify more than 1 handler type"),
    );
  if (liveness && (p.successThreshold ?? 1) !== 1)
    errors.push(invalidValue(`${path}.successThreshold`, p.successThreshold, "must be 1"));
  for (const f of [
    "periodSeconds",
    "timeoutSeconds",
    "successThreshold",
    "failureThreshold",
  ] as const)
    if (p[f] !== undefined && p[f]! < 1)
      errors.push(invalidValue(`${path}.${f}`, p[f], "must be greater than or equal to 1"));
  return errors;
}

/**
 * Native resources other than hugepages may be overcommitted (request below
 * limit); extended ones (`example.com/gpu`) and hugepages may not (kube's
 * IsOvercommitAllowed).
 */
function overcommitAllowed(resource: string): boolean {
  const native = !resource.includes("/") || resource.startsWith("kubernetes.io/");
  return native && !resource.startsWith("hugepages-");
}

/** Quantities well formed, and each request at most its limit (kube's ValidateContainerResourceRequirements). */
function resourceErrors(c: Container, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const limits = c.resources?.limits ?? {};
  const requests = c.resources?.requests ?? {};
  for (const [name, q] of Object.entries(limits))
    if (!isQuantity(q))
      errors.push(invalidValue(`${at}.limits[${name}]`, q, QUANTITY_FORMAT_MESSAGE));
  for (const [name, q] of Object.entries(requests)) {
    if (!isQuantity(q)) {
      errors.push(invalidValue(`${at}.requests[${name}]`, q, QUANTITY_FORMAT_MESSAGE));
      continue;
    }
    const limit = limits[name];
    if (limit === undefined || !isQuantity(limit)) continue;
    const cmp = compareQuantities(q, limit);
    // kube names the whole requests map here, not the one resource.
    if (cmp !== 0 && !overcommitAllowed(name))
      errors.push(
        invalidValue(`${at}.requests`, String(q), `must be equal to ${name} limit of ${limit}`),
      );
    else if (cmp > 0)
      errors.push(
        invalidValue(
          `${at}.requests`,
          String(q),
          `must be less than or equal to ${name} limit of ${limit}`,
        ),
      );
  }
  return errors;
}

function containerErrors(c: Container, path: string, volumes: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  if (!c.name) errors.push(requiredValue(`${path}.name`));
  else
    for (const why of dns1123Label(c.name)) errors.push(invalidValue(`${path}.name`, c.name, why));
  if (!c.image) errors.push(requiredValue(`${path}.image`));
  const portNames = new Set<string>();
  for (const [i, p] of (c.ports ?? []).entries()) {
    if (!(p.containerPort >= 1 && p.containerPort <= 65535))
      errors.push(
        invalidValue(
          `${path}.ports[${i}].containerPort`,
          p.containerPort,
          "must be between 1 and 65535, inclusive",
        ),
      );
    if (p.name && portNames.has(p.name)) errors.push(duplicate(`${path}.ports[${i}].name`, p.name));
    if (p.name) portNames.add(p.name);
  }
  for (const [i, e] of (c.env ?? []).entries()) {
    const at = `${path}.env[${i}]`;
    if (!e.name) errors.push(requiredValue(`${at}.name`));
    else if (!ENV_NAME.test(e.name))
      errors.push(invalidValue(`${at}.name`, e.name, ENV_NAME_MESSAGE));
    if (e.valueFrom) {
      const sources = Object.keys(e.valueFrom).filter(
        (k) => e.valueFrom?.[k as keyof typeof e.valueFrom],
      );
      if (e.value)
        errors.push(
          invalidValue(`${at}.valueFrom`, "", "may not be specified when `value` is not empty"),
        );
      if (sources.length !== 1)
        errors.push(
          invalidValue(
            `${at}.valueFrom`,
            "",
            "may not have more than one field specified at a time",
          ),
        );
    }
  }
  const mountPaths = new Set<string>();
  for (const [i, m] of (c.volumeMounts ?? []).entries()) {
    const at = `${path}.volumeMounts[${i}]`;
    if (!volumes.has(m.name)) errors.push(notFound(`${at}.name`, m.name));
    if (!m.mountPath) errors.push(requiredValue(`${at}.mountPath`));
    else if (mountPaths.has(m.mountPath))
      errors.push(invalidValue(`${at}.mountPath`, m.mountPath, "must be unique"));
    mountPaths.add(m.mountPath);
    if (m.subPath && (m.subPath.startsWith("/") || m.subPath.split("/").includes("..")))
      errors.push(invalidValue(`${at}.subPath`, m.subPath, "must be a relative path without '..'"));
  }
  errors.push(...resourceErrors(c, `${path}.resources`));
  errors.push(...probeErrors(c.readinessProbe, `${path}.readinessProbe`, false));
  errors.push(...probeErrors(c.livenessProbe, `${path}.livenessProbe`, true));
  errors.push(...probeErrors(c.startupProbe, `${path}.startupProbe`, true));
  return errors;
}

function specErrors(spec: PodSpec): FieldError[] {
  const errors = volumeErrors(spec.volumes ?? []);
  const volumes = new Set((spec.volumes ?? []).map((v) => v.name));
  if ((spec.containers ?? []).length === 0) errors.push(requiredValue("spec.containers"));
  const names = new Set<string>();
  for (const [list, field] of [
    [spec.initContainers ?? [], "spec.initContainers"],
    [spec.containers ?? [], "spec.containers"],
  ] as const) {
    for (const [i, c] of list.entries()) {
      errors.push(...containerErrors(c, `${field}[${i}]`, volumes));
      if (c.name && names.has(c.name)) errors.push(duplicate(`${field}[${i}].name`, c.name));
      names.add(c.name);
    }
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0)
    errors.push(
      invalidValue(
        "spec.terminationGracePeriodSeconds",
        spec.terminationGracePeriodSeconds,
        "must be greater than or equal to 0",
      ),
    );
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds < 1)
    errors.push(
      invalidValue(
        "spec.activeDeadlineSeconds",
        spec.activeDeadlineSeconds,
        "must be between 1 and 2147483647, inclusive",
      ),
    );
  for (const f of ["hostname", "subdomain"] as const)
    if (spec[f])
      for (const why of dns1123Label(spec[f]!))
        errors.push(invalidValue(`spec.${f}`, spec[f], why));
  if (spec.nodeName)
    for (const why of dns1123Subdomain(spec.nodeName))
      errors.push(invalidValue("spec.nodeName", spec.nodeName, why));
  errors.push(...securityErrors(spec));
  errors.push(...dnsErrors(spec));
  return errors;
}

const UPDATE_MESSAGE =
  "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/** The spec with the fields an update may change made equal to `old`'s. */
function mutableFieldsOf(spec: PodSpec, old: PodSpec): PodSpec {
  const images = (list: Container[] | undefined, from: Container[] | undefined) =>
    list?.map((c, i) => ({ ...c, image: from?.[i]?.image }));
  return {
    ...spec,
    containers: images(spec.containers, old.containers) ?? [],
    ...(spec.initContainers
      ? { initContainers: images(spec.initContainers, old.initContainers) }
      : {}),
    activeDeadlineSeconds: old.activeDeadlineSeconds,
    tolerations: old.tolerations,
  } as PodSpec;
}

function stripUndefined(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v ?? null));
}

export function validatePod(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const pod = obj as Pod;
  if (typeof pod.spec !== "object" || pod.spec === null) return [requiredValue("spec")];
  const errors = specErrors(pod.spec);
  if (old) {
    const before = (old as Pod).spec;
    if (
      !isDeepStrictEqual(
        stripUndefined(mutableFieldsOf(pod.spec, before)),
        stripUndefined(mutableFieldsOf(before, before)),
      )
    )
      errors.push(forbiddenValue("spec", UPDATE_MESSAGE));
    const was = before.activeDeadlineSeconds;
    const now = pod.spec.activeDeadlineSeconds;
    if (was !== undefined && (now === undefined || now > was))
      errors.push(
        invalidValue(
          "spec.activeDeadlineSeconds",
          now ?? null,
          "must be less than or equal to previous value",
        ),
      );
  }
  return errors;
}
