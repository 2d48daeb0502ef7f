/**
 * Crashes the fuzz suite found, each pinned as the request that found it:
 * the answer kube gives (never a 500) and nothing written.
 * - a CRD whose schema holds null or a string where a schema belongs
 *   (`properties: {size: null}`) crashed the rule walk with a TypeError;
 * - a SubjectAccessReview with `spec.groups` of the wrong type crashed the
 *   authorizer (`attrs.user.groups is not iterable`).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

function crd(properties: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "gadgets.fuzz.hearth.io" },
    spec: {
      group: "fuzz.hearth.io",
      scope: "Namespaced",
      names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: { spec: { type: "object", properties, ...extra } },
            },
          },
        },
      ],
    },
  });
}

describe("fuzz regressions", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  async function refused(
    method: string,
    path: string,
    body: string,
    code: number,
  ): Promise<{ message: string; details?: { causes?: { field?: string }[] } }> {
    const rev = await s.backend.currentRevision();
    const r = await s.request(method, path, body);
    assert.equal(r.status, code, r.text);
    assert.equal(await s.backend.currentRevision(), rev, "a refused request writes nothing");
    return r.body as { message: string; details?: { causes?: { field?: string }[] } };
  }

  it("refuses a CRD with a null schema where a schema belongs (422, as structural validation)", async () => {
    const status = await refused("POST", CRDS, crd({ size: null }), 422);
    assert.equal(
      status.details?.causes?.[0]?.field,
      "spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].type",
    );
    assert.match(status.message, /Required value: must not be empty for specified object fields/);
    await refused("POST", CRDS, crd({}, { items: null }), 422);
    await refused("POST", CRDS, crd({}, { additionalProperties: null }), 422);
  });

  it("refuses a CRD with a string or number where a schema belongs (400, as kube's decoder)", async () => {
    const status = await refused("POST", CRDS, crd({ size: "x" }), 400);
    assert.match(
      status.message,
      /cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.properties of type v1.JSONSchemaProps/,
    );
    await refused("POST", CRDS, crd({}, { items: 5 }), 400);
    await refused("POST", CRDS, crd({}, { allOf: [7] }), 400);
    await refused("POST", CRDS, crd({}, { properties: "nope" }), 400);
  });

  it("refuses a SubjectAccessReview whose fields have the wrong types (400, as kube's decoder)", async () => {
    const review = (spec: unknown) =>
      JSON.stringify({ apiVersion: "authorization.k8s.io/v1", kind: "SubjectAccessReview", spec });
    const status = await refused(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      review({ user: "u", groups: 9007199254740992, resourceAttributes: { verb: "get" } }),
      400,
    );
    assert.match(
      status.message,
      /SubjectAccessReview in version "v1" cannot be handled as a SubjectAccessReview: spec.groups/,
    );
    await refused(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      review({ user: "u", extra: { a: "not-a-list" }, resourceAttributes: { verb: "get" } }),
      400,
    );
    await refused(
      "POST",
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      JSON.stringify({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SelfSubjectAccessReview",
        spec: { resourceAttributes: "get" },
      }),
      400,
    );
  });

  it("still answers a well-typed review", async () => {
    const r = await s.request(
      "POST",
      "/apis/authorization.k8s.io/v1/subjectaccessreviews",
      JSON.stringify({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec: { user: "u", groups: ["g"], resourceAttributes: { verb: "get", resource: "pods" } },
      }),
    );
    assert.equal(r.status, 201, r.text);
    assert.equal((r.body as { status: { allowed: boolean } }).status.allowed, true);
  });
});
