/**
 * rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding
 * and their parts (PolicyRule, AggregationRule, Subject, RoleRef), as kube v1.32
 * publishes them.
 */
import type { GroupVersionKind, Schema } from "../../api/index.js";
import { object, str, stringList } from "./builders.js";
import { kindSchema } from "./kind.js";
import { labelSelector } from "./label-selector.js";

const GROUP = "rbac.authorization.k8s.io";
const METADATA = "Standard object's metadata.";

const policyRule = object(
  "PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.",
  {
    apiGroups: stringList(
      'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.',
    ),
    nonResourceURLs: stringList(
      'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.',
    ),
    resourceNames: stringList(
      "ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.",
    ),
    resources: stringList(
      "Resources is a list of resources this rule applies to. '*' represents all resources.",
    ),
    verbs: stringList(
      "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs.",
    ),
  },
  ["verbs"],
);

function rules(description: string): Schema {
  return { type: "array", description, items: policyRule, "x-kubernetes-list-type": "atomic" };
}

const subject: Schema = {
  ...object(
    "Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.",
    {
      apiGroup: str(
        'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.',
      ),
      kind: str(
        'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount". If the Authorizer does not recognized the kind value, the Authorizer should report an error.',
      ),
      name: str("Name of the object being referenced."),
      namespace: str(
        'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.',
      ),
    },
    ["kind", "name"],
  ),
  "x-kubernetes-map-type": "atomic",
};

function roleRef(description: string): Schema {
  return {
    ...object(
      description,
      {
        apiGroup: str("APIGroup is the group for the resource being referenced"),
        kind: str("Kind is the type of resource being referenced"),
        name: str("Name is the name of resource being referenced"),
      },
      // kube lists apiGroup as required too, but defaults it before validating;
      // our schema check runs before defaulting, so an omitted apiGroup must pass it.
      ["kind", "name"],
    ),
    "x-kubernetes-map-type": "atomic",
  };
}

/** kindSchema with RBAC's own wording of `metadata`. */
function rbacKind(
  kind: string,
  description: string,
  properties: Record<string, Schema>,
  required?: string[],
): Schema {
  const gvk: GroupVersionKind = { group: GROUP, version: "v1", kind };
  const schema = kindSchema(gvk, description, properties, required);
  const metadata = schema.properties!.metadata!;
  schema.properties!.metadata = { ...metadata, description: METADATA };
  return schema;
}

export const roleSchema: Schema = rbacKind(
  "Role",
  "Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.",
  { rules: rules("Rules holds all the PolicyRules for this Role") },
);

export const clusterRoleSchema: Schema = rbacKind(
  "ClusterRole",
  "ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.",
  {
    aggregationRule: object(
      "AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole",
      {
        clusterRoleSelectors: {
          type: "array",
          description:
            "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
          items: labelSelector,
          "x-kubernetes-list-type": "atomic",
        },
      },
    ),
    rules: rules("Rules holds all the PolicyRules for this ClusterRole"),
  },
);

function subjects(): Schema {
  return {
    type: "array",
    description: "Subjects holds references to the objects the role applies to.",
    items: subject,
    "x-kubernetes-list-type": "atomic",
  };
}

export const roleBindingSchema: Schema = rbacKind(
  "RoleBinding",
  "RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.",
  {
    roleRef: roleRef(
      "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
    ),
    subjects: subjects(),
  },
  ["roleRef"],
);

export const clusterRoleBindingSchema: Schema = rbacKind(
  "ClusterRoleBinding",
  "ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.",
  {
    roleRef: roleRef(
      "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
    ),
    subjects: subjects(),
  },
  ["roleRef"],
);
