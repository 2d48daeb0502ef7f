/**
 * The served kinds admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy (with
 * a status subresource) and ValidatingAdmissionPolicyBinding: cluster-scoped,
 * kube's table columns, kube's defaults (failurePolicy Fail, matchPolicy
 * Equivalent, empty selectors, rule scope `*`), and the checks of
 * policy-validation.ts.
 */
import type { KubeObject } from "../../../api/index.js";
import { type ResourceType, STANDARD_VERBS } from "../../resources/resource-type.js";
import {
  validatingAdmissionPolicyBindingSchema,
  validatingAdmissionPolicySchema,
} from "../../schemas/index.js";
import type { BindingSpec, MatchResources, PolicySpec } from "./api-types.js";
import { validateBinding, validatePolicy } from "./policy-validation.js";

const GROUP = "admissionregistration.k8s.io";

const base = (): Pick<
  ResourceType,
  | "group"
  | "version"
  | "namespaced"
  | "shortNames"
  | "categories"
  | "verbs"
  | "nameRule"
  | "strategicMergePatch"
> => ({
  group: GROUP,
  version: "v1",
  namespaced: false,
  shortNames: [],
  categories: ["api-extensions"],
  verbs: [...STANDARD_VERBS],
  nameRule: "dns1123-subdomain",
  strategicMergePatch: true,
});

function defaultMatchResources(m: MatchResources | undefined): void {
  if (!m) return;
  m.matchPolicy ??= "Equivalent";
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const rule of [...(m.resourceRules ?? []), ...(m.excludeResourceRules ?? [])])
    rule.scope ??= "*";
}

function defaultPolicy(obj: KubeObject): void {
  obj.spec ??= {};
  const spec = obj.spec as PolicySpec;
  spec.failurePolicy ??= "Fail";
  defaultMatchResources(spec.matchConstraints);
}

function defaultBinding(obj: KubeObject): void {
  obj.spec ??= {};
  const spec = obj.spec as BindingSpec;
  defaultMatchResources(spec.matchResources);
}

const specOf = <T>(o: KubeObject): T => (o.spec ?? {}) as T;

export const policyResourceType: ResourceType = {
  ...base(),
  kind: "ValidatingAdmissionPolicy",
  listKind: "ValidatingAdmissionPolicyList",
  plural: "validatingadmissionpolicies",
  singular: "validatingadmissionpolicy",
  status: true,
  schema: validatingAdmissionPolicySchema,
  columns: [
    {
      name: "Validations",
      type: "integer",
      description:
        "Validations indicates the number of validation rules defined in this configuration",
      cell: (o) => (specOf<PolicySpec>(o).validations ?? []).length,
    },
    {
      name: "ParamKind",
      type: "string",
      description: "ParamKind specifies the kind of resources used to parameterize this policy",
      cell: (o) => {
        const kind = specOf<PolicySpec>(o).paramKind;
        return kind ? `${kind.apiVersion}/${kind.kind}` : "<unset>";
      },
    },
  ],
  prepareForCreate: defaultPolicy,
  prepareForUpdate: defaultPolicy,
  validate: validatePolicy,
};

export const bindingResourceType: ResourceType = {
  ...base(),
  kind: "ValidatingAdmissionPolicyBinding",
  listKind: "ValidatingAdmissionPolicyBindingList",
  plural: "validatingadmissionpolicybindings",
  singular: "validatingadmissionpolicybinding",
  status: false,
  schema: validatingAdmissionPolicyBindingSchema,
  columns: [
    {
      name: "PolicyName",
      type: "string",
      description: "PolicyName indicates the policy definition which the policy binding binded to",
      cell: (o) => specOf<BindingSpec>(o).policyName ?? "",
    },
    {
      name: "ParamRef",
      type: "string",
      description: "ParamRef indicates the param resource which sets the configration param",
      cell: (o) => paramRefCell(specOf<BindingSpec>(o)),
    },
  ],
  prepareForCreate: defaultBinding,
  prepareForUpdate: defaultBinding,
  validate: validateBinding,
};

function paramRefCell(spec: BindingSpec): string {
  const ref = spec.paramRef;
  if (!ref) return "<unset>";
  if (ref.name) return ref.namespace ? `${ref.namespace}/${ref.name}` : `*/${ref.name}`;
  const labels = Object.entries(ref.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  return labels.join(",") || "<selector>";
}
