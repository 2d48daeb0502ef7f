/**
 * kube's PodSecurity admission plugin. Each namespace's labels
 * (pod-security-policy.ts) choose a level and version to enforce, warn and
 * audit:
 * - a Pod created, or updated in a way that matters (a container image or the
 *   number of containers changed), that violates the enforced level is refused
 *   with 403 Forbidden (`pods "x" is forbidden: violates PodSecurity
 *   "baseline:latest": privileged (container "c" must not set
 *   securityContext.privileged=true)`); one that violates the warn level gets
 *   a Warning (`would violate PodSecurity "restricted:latest": …`). The pod
 *   subresources (status, binding, log) are not checked.
 * - a Job's or CronJob's pod template only ever warns, as kube does for
 *   workload resources: the pods it makes are checked when they are created.
 * - a Namespace created or updated with a bad label value is refused with 422;
 *   one whose enforce level gets stricter is written, with a Warning naming the
 *   existing pods that would now be refused.
 * Exemptions by username (whose pods are not checked at all), namespace and
 * runtime class come from the apiserver's configuration. Audit annotations are
 * not kept (Hearth has no audit log); audit labels are still validated.
 */

import type { KubeObject, ObjectMeta, Pod, PodSpec } from "../../api/index.js";
import { ForbiddenError, InvalidError } from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import { listPrefix } from "../store/keys.js";
import { decodeObject } from "../store/object-store.js";
import type { NamespaceLookup } from "./namespace-lifecycle.js";
import {
  compareLevels,
  evaluatePod,
  forbiddenDetail,
  forbiddenReason,
  fullyPrivileged,
  type LevelVersion,
  levelVersionString,
  type Policy,
  policyFromLabels,
  sameLevelVersion,
} from "./pod-security-policy.js";
import type { AdmissionAttributes, AdmissionPlugin } from "./types.js";

export interface PodSecurityExemptions {
  /** Users whose requests are not checked (kube: `exemptions.usernames`). */
  usernames?: string[];
  namespaces?: string[];
  runtimeClasses?: string[];
}

export interface PodSecurityOptions {
  exemptions?: PodSecurityExemptions;
  /** The policy of unlabelled modes (kube's default: privileged everywhere). */
  defaults?: Policy;
}

/** How many existing pods a namespace relabel looks at (kube's 3000). */
const MAX_PODS_TO_CHECK = 3000;
const IGNORED_POD_SUBRESOURCES = new Set([
  "attach",
  "binding",
  "eviction",
  "exec",
  "log",
  "portforward",
  "proxy",
  "status",
]);

/** The pod template of a workload kind, if `type` is one. */
function templateOf(attrs: AdmissionAttributes): { meta: ObjectMeta; spec: PodSpec } | undefined {
  const o = attrs.object as { spec?: Record<string, unknown> } | undefined;
  let template: unknown;
  if (attrs.type.plural !== "cronjobs") template = o?.spec?.template;
  else {
    const job = o?.spec?.jobTemplate as { spec?: { template?: unknown } } | undefined;
    template = job?.spec?.template;
  }
  if (typeof template !== "object" || template === null) return undefined;
  const t = template as { metadata?: ObjectMeta; spec?: PodSpec };
  if (typeof t.spec !== "object" || t.spec === null) return undefined;
  return { meta: t.metadata ?? {}, spec: t.spec };
}

/** kube's isSignificantPodUpdate: only images and the number of containers count. */
function significantUpdate(pod: Pod, old: Pod): boolean {
  const images = (list: { image?: string }[] | undefined) => (list ?? []).map((c) => c.image);
  const a = [images(pod.spec.containers), images(pod.spec.initContainers)];
  const b = [images(old.spec.containers), images(old.spec.initContainers)];
  return a.some((list, i) => list.length !== b[i]!.length || list.some((x, j) => x !== b[i]![j]));
}

export class PodSecurity implements AdmissionPlugin {
  readonly name = "PodSecurity";
  private readonly exempt: Required<PodSecurityExemptions>;
  private readonly defaults: Policy | undefined;

  constructor(
    private readonly namespaces: NamespaceLookup,
    private readonly backend: Backend,
    opts: PodSecurityOptions = {},
  ) {
    this.exempt = {
      usernames: opts.exemptions?.usernames ?? [],
      namespaces: opts.exemptions?.namespaces ?? [],
      runtimeClasses: opts.exemptions?.runtimeClasses ?? [],
    };
    this.defaults = opts.defaults;
  }

  async validate(attrs: AdmissionAttributes): Promise<string[]> {
    if (attrs.operation !== "CREATE" && attrs.operation !== "UPDATE") return [];
    if (!attrs.object) return [];
    const { group, plural } = attrs.type;
    if (group === "" && plural === "namespaces") return this.validateNamespace(attrs);
    if (group === "" && plural === "pods") return this.validatePod(attrs);
    if (group === "batch" && (plural === "jobs" || plural === "cronjobs"))
      return this.validateWorkload(attrs);
    if (group === "apps" && (plural === "deployments" || plural === "replicasets"))
      return this.validateWorkload(attrs);
    return [];
  }

  private exempted(attrs: AdmissionAttributes): boolean {
    return (
      (attrs.namespace !== "" && this.exempt.namespaces.includes(attrs.namespace)) ||
      (attrs.user.username !== "" && this.exempt.usernames.includes(attrs.user.username))
    );
  }

  private exemptRuntimeClass(spec: PodSpec): boolean {
    const rc = (spec as { runtimeClassName?: string }).runtimeClassName;
    return !!rc && this.exempt.runtimeClasses.includes(rc);
  }

  /** The namespace's policy; undefined when it does not exist (NamespaceLifecycle refuses). */
  private async policyOf(namespace: string): Promise<Policy | undefined> {
    const ns = await this.namespaces.lookup(namespace);
    return ns ? policyFromLabels(ns.metadata.labels, this.defaults).policy : undefined;
  }

  private async validatePod(attrs: AdmissionAttributes): Promise<string[]> {
    if (IGNORED_POD_SUBRESOURCES.has(attrs.subresource) || this.exempted(attrs)) return [];
    const policy = await this.policyOf(attrs.namespace);
    if (!policy || fullyPrivileged(policy)) return [];
    const pod = attrs.object as Pod;
    if (typeof pod.spec !== "object" || pod.spec === null) return [];
    if (attrs.operation === "UPDATE" && attrs.oldObject)
      if (!significantUpdate(pod, attrs.oldObject as Pod)) return [];
    if (this.exemptRuntimeClass(pod.spec)) return [];
    const violations = evaluatePod(policy.enforce, pod.metadata, pod.spec);
    if (violations.length > 0)
      throw new ForbiddenError(
        { group: "", resource: "pods", name: attrs.name },
        `violates PodSecurity ${JSON.stringify(levelVersionString(policy.enforce))}: ${forbiddenDetail(violations)}`,
      );
    return this.warnings(policy.warn, pod.metadata, pod.spec);
  }

  private async validateWorkload(attrs: AdmissionAttributes): Promise<string[]> {
    if (attrs.subresource !== "" || this.exempted(attrs)) return [];
    const policy = await this.policyOf(attrs.namespace);
    if (!policy || (policy.warn.level === "privileged" && policy.audit.level === "privileged"))
      return [];
    const template = templateOf(attrs);
    if (!template || this.exemptRuntimeClass(template.spec)) return [];
    return this.warnings(policy.warn, template.meta, template.spec);
  }

  private warnings(warn: LevelVersion, meta: ObjectMeta, spec: PodSpec): string[] {
    const violations = evaluatePod(warn, meta, spec);
    return violations.length === 0
      ? []
      : [
          `would violate PodSecurity ${JSON.stringify(levelVersionString(warn))}: ${forbiddenDetail(violations)}`,
        ];
  }

  private async validateNamespace(attrs: AdmissionAttributes): Promise<string[]> {
    if (attrs.subresource !== "") return [];
    const ns = attrs.object as KubeObject;
    const { policy, errors } = policyFromLabels(ns.metadata.labels, this.defaults);
    const refuse = () =>
      new InvalidError({ group: "", kind: "Namespace", name: attrs.name }, errors);
    if (attrs.operation === "CREATE") {
      if (errors.length > 0) throw refuse();
      return [];
    }
    const old = attrs.oldObject;
    if (!old) return [];
    const before = policyFromLabels(old.metadata.labels, this.defaults);
    // A namespace already labelled wrongly the same way may still be updated.
    if (
      errors.length > 0 &&
      (before.errors.length === 0 || JSON.stringify(errors) !== JSON.stringify(before.errors))
    )
      throw refuse();
    const now = policy.enforce;
    const was = before.policy.enforce;
    if (sameLevelVersion(now, was) || now.level === "privileged") return [];
    if (now.minor === was.minor && compareLevels(now.level, was.level) < 1) return [];
    if (this.exempt.namespaces.includes(attrs.name)) return [];
    return this.existingPodWarnings(attrs.name, now);
  }

  /** kube's EvaluatePodsInNamespace: one warning per distinct set of reasons. */
  private async existingPodWarnings(namespace: string, enforce: LevelVersion): Promise<string[]> {
    const prefix = listPrefix({ group: "", plural: "pods", namespaced: true }, namespace);
    const [{ items }, total] = await Promise.all([
      this.backend.list(prefix, { limit: MAX_PODS_TO_CHECK }),
      this.backend.count(prefix),
    ]);
    const pods = items
      .map((kv) => decodeObject(kv) as Pod)
      .filter((p) => typeof p.spec === "object" && p.spec !== null)
      .filter((p) => !this.exemptRuntimeClass(p.spec));
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of pods) {
      const violations = evaluatePod(enforce, pod.metadata, pod.spec);
      if (violations.length === 0) continue;
      const reason = forbiddenReason(violations);
      const seen = byReason.get(reason);
      const name = pod.metadata.name ?? "";
      if (!seen) byReason.set(reason, { first: name, count: 1 });
      else {
        seen.count++;
        if (name < seen.first) seen.first = name;
      }
    }
    const warnings: string[] = [];
    if (total > items.length)
      warnings.push(
        `new PodSecurity enforce level only checked against the first ${items.length} of ${total} existing pods`,
      );
    if (byReason.size === 0) return warnings;
    warnings.push(
      `existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`,
    );
    const perReason = [...byReason].map(([reason, { first, count }]) => {
      if (count === 1) return `${first}: ${reason}`;
      if (count === 2) return `${first} (and 1 other pod): ${reason}`;
      return `${first} (and ${count - 1} other pods): ${reason}`;
    });
    return [...warnings, ...perReason.sort()];
  }
}
