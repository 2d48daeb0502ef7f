/**
 * The admissionregistration.k8s.io/v1 shapes the policy plugin reads: the spec of a
 * ValidatingAdmissionPolicy and of a ValidatingAdmissionPolicyBinding, as stored
 * (after defaulting). Only the fields the plugin uses are typed.
 */
import type { KubeObject } from "../../../api/index.js";

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface NamedRuleWithOperations {
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  operations?: string[];
  scope?: string;
  resourceNames?: string[];
}

export interface MatchResources {
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  matchPolicy?: string;
}

export interface NamedExpression {
  name: string;
  expression: string;
}

export interface Validation {
  expression: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
}

export interface ParamKind {
  apiVersion?: string;
  kind?: string;
}

export interface PolicySpec {
  paramKind?: ParamKind;
  matchConstraints?: MatchResources;
  matchConditions?: NamedExpression[];
  variables?: NamedExpression[];
  validations?: Validation[];
  auditAnnotations?: { key: string; valueExpression: string }[];
  failurePolicy?: "Fail" | "Ignore";
}

export interface ParamRef {
  name?: string;
  namespace?: string;
  selector?: LabelSelector;
  parameterNotFoundAction?: "Allow" | "Deny";
}

export type ValidationAction = "Deny" | "Warn" | "Audit";

export interface BindingSpec {
  policyName?: string;
  paramRef?: ParamRef;
  matchResources?: MatchResources;
  validationActions?: ValidationAction[];
}

export interface Policy extends KubeObject {
  spec?: PolicySpec;
}

export interface Binding extends KubeObject {
  spec?: BindingSpec;
}
