/**
 * The four stored RBAC kinds as served resources: path-segment names (so
 * `system:discovery` is valid), kube's table columns, defaults and validation.
 */
import type { KubeObject } from "../../api/index.js";
import { type ResourceType, STANDARD_VERBS, type TableColumn } from "../resources/resource-type.js";
import { age } from "../resources/table.js";
import {
  clusterRoleBindingSchema,
  clusterRoleSchema,
  roleBindingSchema,
  roleSchema,
} from "../schemas/rbac.js";
import { RBAC_GROUP, type RoleBinding } from "./types.js";
import { defaultBinding, validateBinding, validateRole } from "./validation.js";

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const CREATED_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const nameColumn: TableColumn = {
  name: "Name",
  type: "string",
  format: "name",
  description: NAME_DESCRIPTION,
  cell: (o) => o.metadata.name ?? "",
};

/** Roles: NAME and CREATED AT, as kube prints them. */
const roleColumns: TableColumn[] = [
  nameColumn,
  {
    name: "Created At",
    type: "date",
    description: CREATED_DESCRIPTION,
    cell: (o) => o.metadata.creationTimestamp ?? "",
  },
];

function subjectsOf(o: KubeObject, kind: string): string {
  const b = o as RoleBinding;
  return (b.subjects ?? [])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === "ServiceAccount" ? `${s.namespace ?? ""}/${s.name}` : s.name))
    .join(", ");
}

/** Bindings: ROLE and AGE, then users, groups and service accounts with `-o wide`. */
function bindingColumns(roleRefDescription: string): TableColumn[] {
  return [
    {
      name: "Role",
      type: "string",
      description: roleRefDescription,
      cell: (o) => `${(o as RoleBinding).roleRef?.kind}/${(o as RoleBinding).roleRef?.name}`,
    },
    {
      name: "Age",
      type: "string",
      description: CREATED_DESCRIPTION,
      cell: (o) => age(o.metadata.creationTimestamp),
    },
    {
      name: "Users",
      type: "string",
      priority: 1,
      description: "Users in the roleBinding",
      cell: (o) => subjectsOf(o, "User"),
    },
    {
      name: "Groups",
      type: "string",
      priority: 1,
      description: "Groups in the roleBinding",
      cell: (o) => subjectsOf(o, "Group"),
    },
    {
      name: "ServiceAccounts",
      type: "string",
      priority: 1,
      description: "ServiceAccounts in the roleBinding",
      cell: (o) => subjectsOf(o, "ServiceAccount"),
    },
  ];
}

function rbacType(
  kind: string,
  plural: string,
  namespaced: boolean,
  extra: Partial<ResourceType>,
): ResourceType {
  return {
    group: RBAC_GROUP,
    version: "v1",
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced,
    shortNames: [],
    categories: [],
    verbs: STANDARD_VERBS,
    status: false,
    nameRule: "path-segment",
    strategicMergePatch: true,
    columns: [],
    schema: {},
    ...extra,
  };
}

export const roleType = rbacType("Role", "roles", true, {
  schema: roleSchema,
  ownColumns: true,
  columns: roleColumns,
  validate: (obj) => validateRole(obj, true),
});

export const clusterRoleType = rbacType("ClusterRole", "clusterroles", false, {
  schema: clusterRoleSchema,
  ownColumns: true,
  columns: roleColumns,
  validate: (obj) => validateRole(obj, false),
});

export const roleBindingType = rbacType("RoleBinding", "rolebindings", true, {
  schema: roleBindingSchema,
  columns: bindingColumns(
    "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
  ),
  prepareForCreate: defaultBinding,
  prepareForUpdate: defaultBinding,
  validate: (obj, old) => validateBinding(obj, old, true),
});

export const clusterRoleBindingType = rbacType("ClusterRoleBinding", "clusterrolebindings", false, {
  schema: clusterRoleBindingSchema,
  columns: bindingColumns(
    "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.",
  ),
  prepareForCreate: defaultBinding,
  prepareForUpdate: defaultBinding,
  validate: (obj, old) => validateBinding(obj, old, false),
});

export const RBAC_TYPES: ResourceType[] = [
  clusterRoleBindingType,
  clusterRoleType,
  roleBindingType,
  roleType,
];
