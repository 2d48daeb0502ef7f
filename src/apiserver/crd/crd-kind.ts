/**
 * The CustomResourceDefinition kind itself: its checks (name is
 * `<plural>.<group>`, exactly one storage version, names and scope present,
 * printer-column and scale paths parse, CEL rules compile) and the status the
 * apiserver sets at once (NamesAccepted and Established), since it starts
 * serving the kind on write.
 */

import type { KubeObject } from "../../api/index.js";
import {
  dns1123Label,
  dns1123Subdomain,
  type FieldError,
  forbiddenValue,
  invalidValue,
  requiredValue,
  rfc3339,
} from "../../api/index.js";
import { type ResourceType, STANDARD_VERBS } from "../resources/resource-type.js";
import { customResourceDefinitionSchema } from "../schemas/index.js";
import { crdRuleErrors } from "./crd-rules.js";
import type { CrdSpec } from "./custom-types.js";
import { jsonPathError } from "./json-path.js";
import { scalePathErrors } from "./scale.js";
import { schemaShapeErrors } from "./schema-shape.js";

export const CRD_CLEANUP_FINALIZER = "customresourcecleanup.apiextensions.k8s.io";

function validateCrd(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = (obj.spec ?? {}) as Partial<CrdSpec>;
  const errors: FieldError[] = [];
  const names = spec.names ?? ({} as CrdSpec["names"]);
  if (!spec.group) errors.push(requiredValue("spec.group"));
  else
    for (const why of dns1123Subdomain(spec.group))
      errors.push(invalidValue("spec.group", spec.group, why));
  if (!spec.group?.includes("."))
    errors.push(
      invalidValue("spec.group", spec.group ?? "", "should be a domain with at least one dot"),
    );
  if (!names.plural) errors.push(requiredValue("spec.names.plural"));
  else
    for (const why of dns1123Label(names.plural))
      errors.push(invalidValue("spec.names.plural", names.plural, why));
  if (!names.kind) errors.push(requiredValue("spec.names.kind"));
  if (names.plural && spec.group && obj.metadata.name !== `${names.plural}.${spec.group}`) {
    errors.push(
      invalidValue(
        "metadata.name",
        obj.metadata.name ?? "",
        `must be spec.names.plural+"."+spec.group`,
      ),
    );
  }
  if (spec.scope !== "Namespaced" && spec.scope !== "Cluster") {
    errors.push({
      reason: "FieldValueNotSupported",
      field: "spec.scope",
      detail: `Unsupported value: ${JSON.stringify(spec.scope ?? "")}: supported values: "Cluster", "Namespaced"`,
    });
  }
  const versions = spec.versions ?? [];
  if (versions.length === 0)
    errors.push(
      invalidValue(
        "spec.versions",
        versions,
        "must have exactly one version marked as storage version",
      ),
    );
  else if (versions.filter((v) => v.storage).length !== 1) {
    errors.push(
      invalidValue(
        "spec.versions",
        versions,
        "must have exactly one version marked as storage version",
      ),
    );
  }
  versions.forEach((v, i) => {
    for (const why of dns1123Label(v.name ?? ""))
      errors.push(invalidValue(`spec.versions[${i}].name`, v.name, why));
    (v.additionalPrinterColumns ?? []).forEach((c, j) => {
      const why = jsonPathError(c.jsonPath ?? "");
      if (why)
        errors.push(
          invalidValue(
            `spec.versions[${i}].additionalPrinterColumns[${j}].jsonPath`,
            c.jsonPath,
            why,
          ),
        );
    });
    const scale = v.subresources?.scale;
    if (scale) errors.push(...scalePathErrors(scale, `spec.versions[${i}].subresources.scale`));
  });
  // The rule walk assumes well-shaped schemas: a malformed one reports only its shape.
  const shape = schemaShapeErrors(spec.versions);
  errors.push(...(shape.length > 0 ? shape : crdRuleErrors(versions)));
  if (old) {
    const oldSpec = old.spec as CrdSpec;
    if (oldSpec.group !== spec.group)
      errors.push(forbiddenValue("spec.group", "field is immutable"));
    if (oldSpec.names.plural !== names.plural)
      errors.push(forbiddenValue("spec.names.plural", "field is immutable"));
    if (oldSpec.scope !== spec.scope)
      errors.push(forbiddenValue("spec.scope", "field is immutable"));
  }
  return errors;
}

function crdStatus(obj: KubeObject, now: string): Record<string, unknown> {
  // No spec is refused by validation, which runs after this.
  const spec = (obj.spec ?? {}) as Partial<CrdSpec>;
  const condition = (type: string, reason: string, message: string) => ({
    type,
    status: "True",
    lastTransitionTime: now,
    reason,
    message,
  });
  return {
    conditions: [
      condition("NamesAccepted", "NoConflicts", "no conflicts found"),
      condition("Established", "InitialNamesAccepted", "the initial names have been accepted"),
    ],
    acceptedNames: spec.names,
    storedVersions: (spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
  };
}

export const crdResourceType: ResourceType = {
  group: "apiextensions.k8s.io",
  version: "v1",
  kind: "CustomResourceDefinition",
  listKind: "CustomResourceDefinitionList",
  plural: "customresourcedefinitions",
  singular: "customresourcedefinition",
  namespaced: false,
  shortNames: ["crd", "crds"],
  categories: ["api-extensions"],
  verbs: STANDARD_VERBS,
  status: true,
  nameRule: "dns1123-subdomain",
  schema: customResourceDefinitionSchema,
  strategicMergePatch: true,
  ownColumns: true,
  columns: [
    { name: "Name", type: "string", format: "name", cell: (o) => o.metadata.name },
    { name: "Created At", type: "date", cell: (o) => o.metadata.creationTimestamp },
  ],
  validate: validateCrd,
  prepareForCreate(obj) {
    const now = obj.metadata.creationTimestamp ?? new Date().toISOString();
    obj.status = crdStatus(obj, now);
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(CRD_CLEANUP_FINALIZER))
      obj.metadata.finalizers = [...finalizers, CRD_CLEANUP_FINALIZER];
  },
  prepareForUpdate(obj, old) {
    const status = crdStatus(obj, rfc3339());
    const oldStatus = (old.status ?? {}) as { storedVersions?: string[] };
    const stored = new Set([
      ...(oldStatus.storedVersions ?? []),
      ...(status.storedVersions as string[]),
    ]);
    obj.status = {
      ...(old.status as object),
      acceptedNames: status.acceptedNames,
      storedVersions: [...stored],
    };
  },
};
