/**
 * authorization.k8s.io/v1 SelfSubjectAccessReview, SubjectAccessReview,
 * LocalSubjectAccessReview and SelfSubjectRulesReview: create-only kinds the
 * server computes (nothing is stored), as kube v1.32 publishes them.
 */
import type { Schema } from "../../api/index.js";
import { bool, object, str, stringList } from "./builders.js";
import { kindSchema } from "./kind.js";
import { labelSelectorRequirement } from "./label-selector.js";

const GROUP = "authorization.k8s.io";
const LIST_METADATA =
  "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const SELECTOR_NOTE =
  "\n\nThis field  is alpha-level. To use this field, you must enable the `AuthorizeWithSelectors` feature gate (disabled by default).";
const SELECTOR_ATTRIBUTES = (what: string) =>
  `${what} indicates a ${what.startsWith("Field") ? "field" : "label"} limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.`;
const RAW_SELECTOR =
  "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present.";
const REQUIREMENTS = (what: string) =>
  `requirements is the parsed interpretation of a ${what} selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.`;

const fieldSelectorRequirement = object(
  "FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates the key and values.",
  {
    key: str("key is the field selector key that the requirement applies to."),
    operator: str(
      "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. The list of operators may grow in the future.",
    ),
    values: stringList(
      "values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.",
    ),
  },
  ["key", "operator"],
);

function selectorAttributes(kind: "Field" | "Label", requirement: Schema): Schema {
  return object(SELECTOR_ATTRIBUTES(`${kind}SelectorAttributes`), {
    rawSelector: str(RAW_SELECTOR),
    requirements: {
      type: "array",
      description: REQUIREMENTS(kind.toLowerCase()),
      items: requirement,
      "x-kubernetes-list-type": "atomic",
    },
  });
}

const resourceAttributes = object(
  "ResourceAuthorizationAttributes describes information for a resource access request",
  {
    fieldSelector: {
      ...selectorAttributes("Field", fieldSelectorRequirement),
      description: `fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.${SELECTOR_NOTE}`,
    },
    group: str('Group is the API Group of the Resource.  "*" means all.'),
    labelSelector: {
      ...selectorAttributes("Label", labelSelectorRequirement),
      description: `labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.${SELECTOR_NOTE}`,
    },
    name: str(
      'Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.',
    ),
    namespace: str(
      'Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview',
    ),
    resource: str('Resource is one of the existing resource types.  "*" means all.'),
    subresource: str('Subresource is one of the existing resource types.  "" means none.'),
    verb: str(
      'Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.',
    ),
    version: str('Version is the API Version of the Resource.  "*" means all.'),
  },
);

const nonResourceAttributes = object(
  "NonResourceAttributes describes information for a non-resource access request",
  {
    path: str("Path is the URL path of the request"),
    verb: str("Verb is the standard HTTP verb"),
  },
);

const accessReviewStatus = object(
  "Status is filled in by the server and indicates whether the request is allowed or not",
  {
    allowed: bool("Allowed is required. True if the action would be allowed, false otherwise."),
    denied: bool(
      "Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.",
    ),
    evaluationError: str(
      "EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.",
    ),
    reason: str("Reason is optional.  It indicates why a request was allowed or denied."),
  },
  ["allowed"],
);

function subjectAccessReviewSpec(description: string): Schema {
  return object(description, {
    extra: {
      type: "object",
      description:
        "Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.",
      additionalProperties: { type: "array", items: { type: "string" } },
    },
    groups: stringList("Groups is the groups you're testing for."),
    nonResourceAttributes,
    resourceAttributes,
    uid: str("UID information about the requesting user."),
    user: str(
      'User is the user you\'re testing for. If you specify "User" but not "Groups", then is it interpreted as "What if User were not a member of any groups',
    ),
  });
}

function review(kind: string, description: string, spec: Schema, status: Schema): Schema {
  const schema = kindSchema({ group: GROUP, version: "v1", kind }, description, { spec, status }, [
    "spec",
  ]);
  schema.properties!.metadata = { ...schema.properties!.metadata!, description: LIST_METADATA };
  return schema;
}

export const selfSubjectAccessReviewSchema: Schema = review(
  "SelfSubjectAccessReview",
  'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
  object(
    "Spec holds information about the request being evaluated.  user and groups must be empty",
    {
      nonResourceAttributes,
      resourceAttributes,
    },
  ),
  accessReviewStatus,
);

export const subjectAccessReviewSchema: Schema = review(
  "SubjectAccessReview",
  "SubjectAccessReview checks whether or not a user or group can perform an action.",
  subjectAccessReviewSpec("Spec holds information about the request being evaluated"),
  accessReviewStatus,
);

export const localSubjectAccessReviewSchema: Schema = review(
  "LocalSubjectAccessReview",
  "LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.",
  subjectAccessReviewSpec(
    "Spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted.",
  ),
  accessReviewStatus,
);

const resourceRule = object(
  "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
  {
    apiGroups: stringList(
      'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.',
    ),
    resourceNames: stringList(
      'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.',
    ),
    resources: stringList(
      'Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.\n "*/foo" represents the subresource \'foo\' for all resources in the specified apiGroups.',
    ),
    verbs: stringList(
      'Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.',
    ),
  },
  ["verbs"],
);

const nonResourceRule = object(
  "NonResourceRule holds information that describes a rule for the non-resource",
  {
    nonResourceURLs: stringList(
      'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.',
    ),
    verbs: stringList(
      'Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.',
    ),
  },
  ["verbs"],
);

export const selfSubjectRulesReviewSchema: Schema = review(
  "SelfSubjectRulesReview",
  "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.",
  object("Spec holds information about the request being evaluated.", {
    namespace: str("Namespace to evaluate rules for. Required."),
  }),
  object(
    "Status is filled in by the server and indicates the set of actions a user can perform.",
    {
      evaluationError: str(
        "EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete.",
      ),
      incomplete: bool(
        "Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation.",
      ),
      nonResourceRules: {
        type: "array",
        description:
          "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
        items: nonResourceRule,
        "x-kubernetes-list-type": "atomic",
      },
      resourceRules: {
        type: "array",
        description:
          "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete.",
        items: resourceRule,
        "x-kubernetes-list-type": "atomic",
      },
    },
    ["resourceRules", "nonResourceRules", "incomplete"],
  ),
);
