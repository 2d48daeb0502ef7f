/**
 * The ValidatingAdmissionPolicy admission plugin (kube's validating dispatcher):
 * every (policy, binding, param) combination that matches a request must pass.
 * A failed validation is enforced by the binding's validationActions — Deny
 * refuses with the validation's reason (422 Invalid by default), Warn adds a
 * `Warning` header, Audit is accepted and not recorded. Evaluation and
 * configuration errors follow the policy's failurePolicy.
 */

import type { KubeObject } from "../../../api/index.js";
import { ApiError, qualifiedResource } from "../../../api/index.js";
import type { Backend } from "../../../storage/index.js";
import type { ResourceRegistry } from "../../resources/registry.js";
import { type NamespaceLookup, readNamespace } from "../namespace-lifecycle.js";
import type { AdmissionAttributes, AdmissionPlugin } from "../types.js";
import type { Binding, Policy } from "./api-types.js";
import { toCel } from "./cel-values.js";
import { evaluatePolicy, type Failure, type RequestVariables } from "./evaluate.js";
import { type MatchRequest, matchesResources } from "./matching.js";
import { ParamSource } from "./params.js";
import { PolicyCache } from "./policy-cache.js";
import {
  admissionRequest,
  isNamespaceKind,
  isPolicyResource,
  requestNamespace,
} from "./request.js";

interface Denial extends Failure {
  policy: string;
  /** Absent for a policy-level configuration error. */
  binding?: string;
}

const STATUS_CODES: Record<string, number> = {
  Forbidden: 403,
  Unauthorized: 401,
  RequestEntityTooLarge: 413,
  Invalid: 422,
};

export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = "ValidatingAdmissionPolicy";
  readonly cache: PolicyCache;
  private readonly params: ParamSource;

  /**
   * `namespaces` finds a request's namespace for `namespaceSelector` and the
   * `namespaceObject` variable (the apiserver's namespace cache); without it,
   * storage is read.
   */
  constructor(
    backend: Backend,
    registry: ResourceRegistry,
    log?: (msg: string, err?: unknown) => void,
    private readonly namespaces: NamespaceLookup = {
      lookup: (name) => readNamespace(backend, name),
    },
  ) {
    this.cache = new PolicyCache(backend, log);
    this.params = new ParamSource(backend, registry);
  }

  /** Loads policies and bindings and follows them until `signal` aborts. */
  start(signal: AbortSignal): Promise<void> {
    return this.cache.start(signal);
  }

  async validate(attrs: AdmissionAttributes): Promise<string[]> {
    if (isPolicyResource(attrs)) return [];
    const bound = this.cache.bound();
    if (bound.length === 0) return [];
    let namespace: Promise<KubeObject | undefined> | undefined;
    const readNamespace = () => (namespace ??= this.readNamespace(attrs));
    const req = matchRequest(attrs, readNamespace);
    let vars: RequestVariables | undefined;
    const denials: Denial[] = [];
    const warnings: string[] = [];
    for (const { policy, compiled, bindings } of bound) {
      const spec = policy.spec ?? {};
      const policyName = policy.metadata.name!;
      if (!(await matchesResources(spec.matchConstraints, req))) continue;
      const onConfigError = (message: string, binding?: Binding) => {
        if (spec.failurePolicy !== "Ignore")
          denials.push({
            policy: policyName,
            ...(binding ? { binding: binding.metadata.name! } : {}),
            message,
            reason: "Invalid",
          });
      };
      if (spec.paramKind && !this.params.typeOf(spec.paramKind)) {
        onConfigError(
          `failed to configure policy: failed to find resource referenced by paramKind: '${spec.paramKind.apiVersion}, Kind=${spec.paramKind.kind}'`,
        );
        continue;
      }
      for (const binding of bindings) {
        const bspec = binding.spec ?? {};
        if (!(await matchesResources(bspec.matchResources, req))) continue;
        const params = await this.params.collect(
          spec.paramKind,
          bspec.paramRef,
          requestNamespace(attrs),
        );
        if (!params.ok) {
          onConfigError(`failed to configure binding: ${params.error}`, binding);
          continue;
        }
        vars ??= await requestVariables(attrs, readNamespace);
        for (const param of params.params)
          for (const failure of evaluatePolicy(compiled(), vars, param))
            enforce(policy, binding, failure, denials, warnings);
      }
    }
    const first = denials[0];
    if (first) throw refusal(attrs, first);
    return warnings;
  }

  private async readNamespace(attrs: AdmissionAttributes): Promise<KubeObject | undefined> {
    if (attrs.namespace === "" || isNamespaceKind(attrs)) return undefined;
    return this.namespaces.lookup(attrs.namespace);
  }
}

function matchRequest(
  attrs: AdmissionAttributes,
  readNamespace: () => Promise<KubeObject | undefined>,
): MatchRequest {
  return {
    operation: attrs.operation,
    group: attrs.type.group,
    version: attrs.type.version,
    resource: attrs.type.plural,
    subresource: attrs.subresource,
    namespace: isNamespaceKind(attrs) ? "" : attrs.namespace,
    name: attrs.name,
    object: attrs.object,
    oldObject: attrs.oldObject,
    namespaceLabels: async () => {
      const ns = await readNamespace();
      return ns ? (ns.metadata.labels ?? {}) : undefined;
    },
  };
}

async function requestVariables(
  attrs: AdmissionAttributes,
  readNamespace: () => Promise<KubeObject | undefined>,
): Promise<RequestVariables> {
  const namespaceObject = await readNamespace();
  return {
    object: toCel(attrs.object),
    oldObject: toCel(attrs.oldObject),
    request: toCel(admissionRequest(attrs)),
    namespaceObject: toCel(namespaceObject ? withoutManagedFields(namespaceObject) : null),
  };
}

function withoutManagedFields(o: KubeObject): KubeObject {
  const { managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}

function enforce(
  policy: Policy,
  binding: Binding,
  failure: Failure,
  denials: Denial[],
  warnings: string[],
): void {
  const p = policy.metadata.name!;
  const b = binding.metadata.name!;
  for (const action of binding.spec?.validationActions ?? []) {
    if (action === "Deny") denials.push({ policy: p, binding: b, ...failure });
    else if (action === "Warn")
      warnings.push(
        `Validation failed for ValidatingAdmissionPolicy '${p}' with binding '${b}': ${failure.message}`,
      );
  }
}

/** kube's `admission.NewForbidden` wording with the denial's reason and code. */
function refusal(attrs: AdmissionAttributes, d: Denial): ApiError {
  const why = d.binding
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const t = attrs.type;
  const name = attrs.name || "Unknown";
  return new ApiError(
    STATUS_CODES[d.reason] ?? 422,
    d.reason,
    `${qualifiedResource({ group: t.group, resource: t.plural })} "${name}" is forbidden: ${why}`,
    { name, group: t.group, kind: t.plural, causes: [{ message: why }] },
  );
}
