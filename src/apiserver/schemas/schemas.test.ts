/** Built-in kind schemas: keys, envelope, descriptions, and the SMP/SSA extensions kube publishes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import {
  builtinSchema,
  builtinSchemas,
  customResourceSchema,
  objectMeta,
  schemaKey,
} from "./index.js";

/**
 * Defaults kube's own OpenAPI publishes on a list-map key, which server-side
 * apply needs to match an applied item without the key to the live one.
 */
const KUBE_PUBLISHED_DEFAULTS = new Set(["/v1/Service.spec.ports[].protocol"]);

function walk(schema: Schema, visit: (s: Schema, path: string) => void, path = ""): void {
  visit(schema, path);
  for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, visit, `${path}.${k}`);
  if (schema.items) walk(schema.items, visit, `${path}[]`);
  if (typeof schema.additionalProperties === "object") {
    walk(schema.additionalProperties, visit, `${path}{}`);
  }
}

describe("builtinSchemas", () => {
  it("is keyed group/version/Kind with the core group empty", () => {
    assert.deepEqual(Object.keys(builtinSchemas).sort(), [
      "/v1/ConfigMap",
      "/v1/Endpoints",
      "/v1/Event",
      "/v1/LimitRange",
      "/v1/Namespace",
      "/v1/Node",
      "/v1/PersistentVolume",
      "/v1/PersistentVolumeClaim",
      "/v1/Pod",
      "/v1/ResourceQuota",
      "/v1/Secret",
      "/v1/Service",
      "/v1/ServiceAccount",
      "apiextensions.k8s.io/v1/CustomResourceDefinition",
      "apps/v1/ControllerRevision",
      "apps/v1/DaemonSet",
      "apps/v1/Deployment",
      "apps/v1/ReplicaSet",
      "apps/v1/StatefulSet",
      "authentication.k8s.io/v1/SelfSubjectReview",
      "authentication.k8s.io/v1/TokenRequest",
      "authorization.k8s.io/v1/LocalSubjectAccessReview",
      "authorization.k8s.io/v1/SelfSubjectAccessReview",
      "authorization.k8s.io/v1/SelfSubjectRulesReview",
      "authorization.k8s.io/v1/SubjectAccessReview",
      "batch/v1/CronJob",
      "batch/v1/Job",
      "coordination.k8s.io/v1/Lease",
      "discovery.k8s.io/v1/EndpointSlice",
      "events.k8s.io/v1/Event",
      "policy/v1/PodDisruptionBudget",
      "rbac.authorization.k8s.io/v1/ClusterRole",
      "rbac.authorization.k8s.io/v1/ClusterRoleBinding",
      "rbac.authorization.k8s.io/v1/Role",
      "rbac.authorization.k8s.io/v1/RoleBinding",
      "storage.k8s.io/v1/StorageClass",
    ]);
    assert.equal(schemaKey({ group: "", version: "v1", kind: "ConfigMap" }), "/v1/ConfigMap");
    assert.equal(
      builtinSchema({ group: "coordination.k8s.io", version: "v1", kind: "Lease" }),
      builtinSchemas["coordination.k8s.io/v1/Lease"],
    );
    assert.equal(builtinSchema({ group: "", version: "v1", kind: "Deployment" }), undefined);
  });

  for (const [key, schema] of Object.entries(builtinSchemas)) {
    it(`${key}: envelope, GVK list and descriptions`, () => {
      const [group, version, kind] = key.split("/");
      assert.deepEqual(schema["x-kubernetes-group-version-kind"], [{ group, version, kind }]);
      assert.equal(schema.type, "object");
      assert.ok(schema.description);
      const props = schema.properties ?? {};
      for (const field of ["apiVersion", "kind", "metadata"]) assert.ok(props[field], field);
      assert.equal(props.metadata?.properties?.name?.type, "string");
      for (const [name, prop] of Object.entries(props)) {
        assert.ok(prop.description, `${key}.${name} has a description`);
        for (const [sub, subProp] of Object.entries(prop.properties ?? {})) {
          if (name !== "metadata") assert.ok(subProp.description, `${key}.${name}.${sub}`);
        }
      }
    });

    it(`${key}: inline (no $ref) and no defaults (pruning/defaulting stay neutral)`, () => {
      walk(schema, (s, path) => {
        assert.equal(s.$ref, undefined, path);
        assert.equal(s.allOf, undefined, path);
        if (!KUBE_PUBLISHED_DEFAULTS.has(`${key}${path}`)) assert.equal(s.default, undefined, path);
        if (s.type === "array") assert.ok(s.items, `${path} has items`);
      });
    });
  }
});

describe("objectMeta", () => {
  const p = objectMeta.properties ?? {};

  it("carries the SMP/SSA extensions of ownerReferences and finalizers", () => {
    assert.equal(p.ownerReferences?.["x-kubernetes-patch-strategy"], "merge");
    assert.equal(p.ownerReferences?.["x-kubernetes-patch-merge-key"], "uid");
    assert.equal(p.ownerReferences?.["x-kubernetes-list-type"], "map");
    assert.deepEqual(p.ownerReferences?.["x-kubernetes-list-map-keys"], ["uid"]);
    assert.deepEqual(p.ownerReferences?.items?.required, ["apiVersion", "kind", "name", "uid"]);
    assert.equal(p.finalizers?.["x-kubernetes-patch-strategy"], "merge");
    assert.equal(p.finalizers?.["x-kubernetes-list-type"], "set");
    assert.equal(p.managedFields?.["x-kubernetes-list-type"], "atomic");
  });

  it("types timestamps as date-time strings and labels/annotations as string maps", () => {
    for (const t of ["creationTimestamp", "deletionTimestamp"]) {
      assert.deepEqual([p[t]?.type, p[t]?.format], ["string", "date-time"]);
    }
    for (const m of ["labels", "annotations"]) {
      assert.deepEqual(p[m]?.additionalProperties, { type: "string" });
    }
    assert.equal(p.generation?.format, "int64");
    assert.equal(p.deletionGracePeriodSeconds?.type, "integer");
    assert.ok(p.selfLink && p.uid && p.resourceVersion && p.generateName && p.namespace);
  });
});

describe("kind specifics", () => {
  const prop = (key: string, ...path: string[]): Schema | undefined => {
    let s: Schema | undefined = builtinSchemas[key];
    for (const p of path) s = p === "[]" ? s?.items : s?.properties?.[p];
    return s;
  };

  it("marks base64 maps with format byte", () => {
    assert.equal(prop("/v1/Secret", "data")?.additionalProperties instanceof Object, true);
    const secretData = prop("/v1/Secret", "data")?.additionalProperties as Schema;
    const binary = prop("/v1/ConfigMap", "binaryData")?.additionalProperties as Schema;
    assert.equal(secretData.format, "byte");
    assert.equal(binary.format, "byte");
    assert.deepEqual(prop("/v1/ConfigMap", "data")?.additionalProperties, { type: "string" });
  });

  it("keeps merge keys on the lists kube merges", () => {
    const conditions = prop("/v1/Namespace", "status", "conditions");
    assert.equal(conditions?.["x-kubernetes-patch-merge-key"], "type");
    const secrets = prop("/v1/ServiceAccount", "secrets");
    assert.equal(secrets?.["x-kubernetes-patch-merge-key"], "name");
    assert.equal(
      prop("/v1/ServiceAccount", "imagePullSecrets")?.["x-kubernetes-list-type"],
      "atomic",
    );
    assert.equal(prop("/v1/Namespace", "spec", "finalizers")?.["x-kubernetes-list-type"], "atomic");
    // A pod's pull secrets are served (kubectl's strict validation refused them) and merge by name.
    const pullSecrets = prop("/v1/Pod", "spec", "imagePullSecrets");
    assert.equal(pullSecrets?.["x-kubernetes-patch-merge-key"], "name");
    assert.equal(prop("/v1/Pod", "spec", "imagePullSecrets", "[]", "name")?.type, "string");
  });

  it("types Lease times as date-time and durations as int32", () => {
    const key = "coordination.k8s.io/v1/Lease";
    assert.equal(prop(key, "spec", "renewTime")?.format, "date-time");
    assert.equal(prop(key, "spec", "acquireTime")?.format, "date-time");
    assert.equal(prop(key, "spec", "leaseDurationSeconds")?.format, "int32");
    for (const f of ["holderIdentity", "leaseTransitions", "strategy", "preferredHolder"]) {
      assert.ok(prop(key, "spec", f), f);
    }
  });

  it("requires metadata and involvedObject on Events", () => {
    assert.deepEqual(builtinSchemas["/v1/Event"]?.required, ["metadata", "involvedObject"]);
    for (const f of ["eventTime", "series", "action", "related", "reportingComponent", "count"]) {
      assert.ok(prop("/v1/Event", f), f);
    }
  });

  it("keeps a CRD's openAPIV3Schema opaque and lists the version fields", () => {
    const key = "apiextensions.k8s.io/v1/CustomResourceDefinition";
    const v = prop(key, "spec", "versions", "[]");
    const open = v?.properties?.schema?.properties?.openAPIV3Schema;
    assert.deepEqual(
      [open?.type, open?.["x-kubernetes-preserve-unknown-fields"]],
      ["object", true],
    );
    const scale = v?.properties?.subresources?.properties?.scale?.properties ?? {};
    assert.deepEqual(Object.keys(scale).sort(), [
      "labelSelectorPath",
      "specReplicasPath",
      "statusReplicasPath",
    ]);
    const columns = v?.properties?.additionalPrinterColumns?.items?.properties ?? {};
    assert.deepEqual(Object.keys(columns).sort(), [
      "description",
      "format",
      "jsonPath",
      "name",
      "priority",
      "type",
    ]);
    for (const f of ["selectableFields", "deprecated", "deprecationWarning", "served", "storage"]) {
      assert.ok(v?.properties?.[f], f);
    }
    const names = prop(key, "spec", "names")?.properties ?? {};
    assert.deepEqual(Object.keys(names).sort(), [
      "categories",
      "kind",
      "listKind",
      "plural",
      "shortNames",
      "singular",
    ]);
    for (const f of ["conditions", "acceptedNames", "storedVersions"]) {
      assert.ok(prop(key, "status", f), f);
    }
    assert.ok(prop(key, "spec", "conversion") && prop(key, "spec", "preserveUnknownFields"));
  });
});

describe("customResourceSchema", () => {
  const gvk = { group: "stable.example.com", version: "v1", kind: "CronTab" };

  it("adds apiVersion, kind, ObjectMeta and the GVK list", () => {
    const s = customResourceSchema(gvk, {
      type: "object",
      properties: { spec: { type: "object", properties: { replicas: { type: "integer" } } } },
    });
    assert.deepEqual(s["x-kubernetes-group-version-kind"], [gvk]);
    assert.equal(s.properties?.apiVersion?.type, "string");
    assert.equal(s.properties?.kind?.type, "string");
    assert.ok(s.properties?.metadata?.properties?.ownerReferences);
    assert.ok(s.properties?.spec?.properties?.replicas);
  });

  it("keeps the CRD's constraints on metadata.name", () => {
    const s = customResourceSchema(gvk, {
      type: "object",
      properties: {
        metadata: { type: "object", properties: { name: { type: "string", maxLength: 10 } } },
      },
    });
    const name = s.properties?.metadata?.properties?.name;
    assert.equal(name?.maxLength, 10);
    assert.ok(name?.description);
    assert.ok(s.properties?.metadata?.properties?.labels);
  });
});
