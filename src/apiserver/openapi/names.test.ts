/** Kube's naming of OpenAPI paths, components, operation ids and tags. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { componentName, groupVersionPath, operationGroupVersion, operationTag } from "./names.js";

describe("openapi names", () => {
  it("names document paths like kube's index", () => {
    assert.equal(groupVersionPath("", "v1"), "api/v1");
    assert.equal(groupVersionPath("stable.example.com", "v1"), "apis/stable.example.com/v1");
  });

  it("names built-in components by Go package", () => {
    const c = (group: string, kind: string) => componentName({ group, version: "v1", kind }, true);
    assert.equal(c("", "ConfigMap"), "io.k8s.api.core.v1.ConfigMap");
    assert.equal(c("coordination.k8s.io", "Lease"), "io.k8s.api.coordination.v1.Lease");
    assert.equal(c("apps", "Deployment"), "io.k8s.api.apps.v1.Deployment");
    assert.equal(
      c("apiextensions.k8s.io", "CustomResourceDefinition"),
      "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition",
    );
  });

  it("names custom components by reversed group", () => {
    const r = { group: "stable.example.com", version: "v1", kind: "CronTab" };
    assert.equal(componentName(r, false), "com.example.stable.v1.CronTab");
  });

  it("builds operation ids and tags like kube", () => {
    assert.equal(operationGroupVersion("", "v1"), "CoreV1");
    assert.equal(operationGroupVersion("coordination.k8s.io", "v1"), "CoordinationV1");
    assert.equal(operationGroupVersion("rbac.authorization.k8s.io", "v1"), "RbacAuthorizationV1");
    assert.equal(operationGroupVersion("stable.example.com", "v1beta1"), "StableExampleComV1beta1");
    assert.equal(operationTag("", "v1"), "core_v1");
    assert.equal(operationTag("stable.example.com", "v1"), "stableExampleCom_v1");
  });
});
