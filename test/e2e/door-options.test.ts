/**
 * The options of the writing verbs are checked before anything is read or
 * written, with kube-apiserver's codes, reasons and messages: label and field
 * selectors that do not parse (a 400, never "match all"), DeleteOptions from the
 * query or the body, Create/Update/PatchOptions, and the server-owned metadata
 * (uid, deletion fields, managedFields, finalizer names). After each refusal the
 * revision has not moved and the sentinel objects are still there.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { expectRefused, type Refusal, type StatusBody } from "../support/refusal.js";

interface Obj {
  metadata: { name: string; uid: string; resourceVersion: string; [k: string]: unknown };
}

const CM = "/api/v1/namespaces/default/configmaps";
const WIDGETS = "/apis/door.example.com/v1/namespaces/default/widgets";
const SENTINELS = [`${CM}/keep-a`, `${CM}/keep-b`, `${WIDGETS}/keep-w`];

const WIDGET_CRD = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.door.example.com" },
  spec: {
    group: "door.example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget" },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        selectableFields: [{ jsonPath: ".spec.color" }],
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: { spec: { type: "object", properties: { color: { type: "string" } } } },
          },
        },
      },
    ],
  },
};

const cm = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, ...extra } });

describe("door: options of the writing verbs", () => {
  let s: InProcessServer;

  before(async () => {
    s = await startInProcess();
    const crd = await s.request(
      "POST",
      "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
      JSON.stringify(WIDGET_CRD),
    );
    assert.equal(crd.status, 201, crd.text);
    for (const [name, app] of [
      ["keep-a", "a"],
      ["keep-b", "b"],
    ]) {
      const r = await s.request("POST", CM, cm(name!, { labels: { app } }));
      assert.equal(r.status, 201, r.text);
    }
    const widget = JSON.stringify({
      apiVersion: "door.example.com/v1",
      kind: "Widget",
      metadata: { name: "keep-w" },
      spec: { color: "red" },
    });
    // The CRD's kind is served once the registry has seen it.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await s.request("POST", WIDGETS, widget);
      if (r.status === 201) break;
      assert.ok(Date.now() < deadline, `widget not created: ${r.text}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  after(async () => {
    await s?.stop();
  });

  /** Sends a bad request; checks the Status, that nothing was written and that the sentinels remain. */
  async function refused(
    method: string,
    path: string,
    body: string | undefined,
    expect: Refusal,
    headers: Record<string, string> = {},
  ): Promise<StatusBody> {
    const what = `${method} ${path}`;
    const status = await expectRefused(
      s,
      what,
      () => s.request(method, path, body, headers),
      expect,
    );
    for (const p of SENTINELS) {
      const got = await s.request("GET", p);
      assert.equal(got.status, 200, `${p} is gone after ${what}`);
    }
    return status;
  }

  async function get(path: string): Promise<Obj> {
    const r = await s.request("GET", path);
    assert.equal(r.status, 200, r.text);
    return r.body as Obj;
  }

  it("refuses label selectors that do not parse, on deletecollection, list and watch", async () => {
    const cases: [string, string][] = [
      [",,,", "found ',', expected: !, identifier, or 'end of string'"],
      ["a=b,", "found '', expected: identifier after ','"],
      ["a in (", "unable to parse requirement: found '', expected: ',', ')' or identifier"],
      ["=x", "found '=', expected: !, identifier, or 'end of string'"],
    ];
    for (const [selector, message] of cases) {
      const q = `labelSelector=${encodeURIComponent(selector)}`;
      await refused("DELETE", `${CM}?${q}`, undefined, {
        code: 400,
        reason: "BadRequest",
        message,
      });
      await refused("DELETE", `${WIDGETS}?${q}`, undefined, { code: 400, reason: "BadRequest" });
      await refused("GET", `${CM}?${q}`, undefined, { code: 400, reason: "BadRequest", message });
      await refused("GET", `${CM}?watch=true&${q}`, undefined, { code: 400, reason: "BadRequest" });
    }
    await refused("DELETE", `${CM}?labelSelector=${encodeURIComponent("bad key/")}`, undefined, {
      code: 400,
      reason: "BadRequest",
      message: /^unable to parse requirement: found 'key\/'/,
    });
  });

  it("refuses field selectors that do not parse or name unknown fields, for every kind", async () => {
    for (const path of [
      CM,
      WIDGETS,
      "/api/v1/namespaces/default/pods",
      "/api/v1/namespaces/default/secrets",
    ]) {
      await refused("DELETE", `${path}?fieldSelector=spec.foo%3Dbar`, undefined, {
        code: 400,
        reason: "BadRequest",
        message: "field label not supported: spec.foo",
      });
    }
    await refused("DELETE", `${CM}?fieldSelector=metadata.name`, undefined, {
      code: 400,
      reason: "BadRequest",
      message: "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
    });
    await refused(
      "DELETE",
      `${CM}?fieldSelector=${encodeURIComponent("metadata.name=a=b")}`,
      undefined,
      {
        code: 400,
        reason: "BadRequest",
        message: "invalid field selector: unescaped character in value: 61",
      },
    );
    // A selectable field of the CRD still selects.
    const r = await s.request("GET", `${WIDGETS}?fieldSelector=spec.color%3Dred`);
    assert.equal(r.status, 200, r.text);
    assert.equal((r.body as { items: unknown[] }).items.length, 1);
  });

  it("refuses bad DeleteOptions in the query before reading the object", async () => {
    const target = `${CM}/keep-a`;
    await refused("DELETE", `${target}?gracePeriodSeconds=abc`, undefined, {
      code: 400,
      reason: "BadRequest",
      message: 'strconv.ParseInt: parsing "abc": invalid syntax',
    });
    await refused("DELETE", `${CM}?gracePeriodSeconds=1.5`, undefined, {
      code: 400,
      reason: "BadRequest",
    });
    const dry = await refused("DELETE", `${target}?dryRun=Bogus`, undefined, {
      code: 422,
      reason: "Invalid",
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"',
      field: "dryRun",
    });
    assert.equal(dry.details?.group, "meta.k8s.io");
    await refused("DELETE", `${CM}?dryRun=Bogus`, undefined, { code: 422, reason: "Invalid" });
    await refused("DELETE", `${target}?propagationPolicy=Bogus`, undefined, {
      code: 422,
      reason: "Invalid",
      field: "propagationPolicy",
      message:
        /propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"/,
    });
    await refused("DELETE", `${target}?orphanDependents=true&propagationPolicy=Orphan`, undefined, {
      code: 422,
      reason: "Invalid",
      message:
        /propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set/,
    });
    await refused("DELETE", `${CM}/missing?gracePeriodSeconds=x`, undefined, {
      code: 400,
      reason: "BadRequest",
    });
  });

  it("refuses DeleteOptions bodies of another kind or with wrongly typed fields", async () => {
    const target = `${CM}/keep-b`;
    const bodies: [unknown, number, RegExp][] = [
      [{ apiVersion: "v1", kind: "Pod" }, 400, /no kind "Pod" is registered/],
      [
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "keep-b" } },
        400,
        /no kind "ConfigMap"/,
      ],
      [
        { gracePeriodSeconds: "abc" },
        400,
        /cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64/,
      ],
      [{ gracePeriodSeconds: 1.5 }, 400, /cannot unmarshal number 1.5/],
      [{ orphanDependents: "yes" }, 400, /DeleteOptions.orphanDependents of type bool/],
      [{ preconditions: "x" }, 400, /DeleteOptions.preconditions of type/],
      [{ preconditions: { uid: 5 } }, 400, /DeleteOptions.preconditions.uid of type types.UID/],
      [{ dryRun: "All" }, 400, /DeleteOptions.dryRun of type \[\]string/],
      [{ propagationPolicy: 3 }, 400, /DeleteOptions.propagationPolicy/],
      [[], 400, /cannot unmarshal array/],
      [
        { kind: "DeleteOptions", apiVersion: "v1", dryRun: ["Bogus"] },
        422,
        /dryRun: Unsupported value/,
      ],
      [
        { propagationPolicy: "Everything" },
        422,
        /propagationPolicy: Unsupported value: "Everything"/,
      ],
      [{ orphanDependents: false, propagationPolicy: "Background" }, 422, /cannot be both set/],
      [
        { preconditions: { uid: "not-the-uid" } },
        409,
        /Precondition failed: UID in precondition: not-the-uid/,
      ],
    ];
    for (const [body, code, message] of bodies) {
      await refused("DELETE", target, JSON.stringify(body), {
        code,
        reason: code === 400 ? "BadRequest" : code === 422 ? "Invalid" : "Conflict",
        message,
      });
      if (code !== 409)
        await refused("DELETE", CM, JSON.stringify(body), {
          code,
          reason: code === 400 ? "BadRequest" : "Invalid",
        });
    }
  });

  it("takes DeleteOptions of any apiVersion, and a body's dryRun, without writing", async () => {
    for (const apiVersion of ["v1", "meta.k8s.io/v1", "apps/v1", undefined]) {
      const before = await s.backend.currentRevision();
      const body = {
        kind: "DeleteOptions",
        ...(apiVersion ? { apiVersion } : {}),
        dryRun: ["All"],
      };
      const r = await s.request("DELETE", `${CM}/keep-a`, JSON.stringify(body));
      assert.equal(r.status, 200, r.text);
      const all = await s.request("DELETE", CM, JSON.stringify(body));
      assert.equal(all.status, 200, all.text);
      assert.equal(await s.backend.currentRevision(), before);
    }
    await get(`${CM}/keep-a`);
  });

  it("refuses bad create, update and patch options on every write verb", async () => {
    const keep = await get(`${CM}/keep-a`);
    const put = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: keep.metadata,
      data: { x: "1" },
    });
    const long = "m".repeat(129);
    const writes: [string, string, string, string, Record<string, string>][] = [
      ["POST", CM, cm("new-one"), "CreateOptions", {}],
      ["PUT", `${CM}/keep-a`, put, "UpdateOptions", {}],
      [
        "PATCH",
        `${CM}/keep-a`,
        '{"data":{"x":"1"}}',
        "PatchOptions",
        { "Content-Type": "application/merge-patch+json" },
      ],
      [
        "PATCH",
        `${CM}/keep-a`,
        cm("keep-a"),
        "PatchOptions",
        { "Content-Type": "application/apply-patch+yaml" },
      ],
    ];
    for (const [method, path, body, kind, headers] of writes) {
      const apply = headers["Content-Type"]?.startsWith("application/apply") ?? false;
      const manager = apply ? "&fieldManager=tester" : "";
      await refused(
        method,
        `${path}?dryRun=Bogus${manager}`,
        body,
        {
          code: 422,
          reason: "Invalid",
          message: `${kind}.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Bogus"}: supported values: "All"`,
        },
        headers,
      );
      await refused(
        method,
        `${path}?fieldManager=${long}`,
        body,
        {
          code: 422,
          reason: "Invalid",
          message: `${kind}.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes`,
          field: "fieldManager",
        },
        headers,
      );
      await refused(
        method,
        `${path}?fieldManager=a%07b`,
        body,
        {
          code: 422,
          reason: "Invalid",
          message:
            /fieldManager: Invalid value: "a\\u0007b": invalid character U\+0007 \(at position 1\)/,
        },
        headers,
      );
      await refused(
        method,
        `${path}?fieldValidation=strict${manager}`,
        body,
        {
          code: 422,
          reason: "Invalid",
          message:
            /fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"/,
        },
        headers,
      );
    }
    await refused(
      "PATCH",
      `${CM}/keep-a?force=true`,
      '{"data":{"x":"1"}}',
      {
        code: 422,
        reason: "Invalid",
        message:
          'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      },
      { "Content-Type": "application/merge-patch+json" },
    );
  });

  it("refuses managedFields in an apply body, for a create and an update", async () => {
    const managed = [
      { manager: "x", operation: "Apply", apiVersion: "v1", fieldsType: "FieldsV1", fieldsV1: {} },
    ];
    for (const name of ["keep-a", "applied-new"]) {
      for (const managedFields of [managed, []]) {
        await refused(
          "PATCH",
          `${CM}/${name}?fieldManager=tester`,
          cm(name, { managedFields }),
          {
            code: 400,
            reason: "BadRequest",
            message: "metadata.managedFields must be nil",
          },
          { "Content-Type": "application/apply-patch+yaml" },
        );
      }
    }
  });

  it("keeps the uid and deletion fields server-owned", async () => {
    const created = await s.request("POST", CM, cm("owned", { uid: "from-the-body" }));
    assert.equal(created.status, 201, created.text);
    const owned = created.body as Obj;
    assert.notEqual(owned.metadata.uid, "from-the-body");
    const path = `${CM}/owned`;
    const withUid = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { ...owned.metadata, uid: "other" },
    });
    await refused("PUT", path, withUid, {
      code: 422,
      reason: "Invalid",
      message:
        'ConfigMap "owned" is invalid: metadata.uid: Invalid value: "other": field is immutable',
      field: "metadata.uid",
    });
    await refused(
      "PATCH",
      path,
      '{"metadata":{"uid":"other"}}',
      {
        code: 422,
        reason: "Invalid",
        field: "metadata.uid",
      },
      { "Content-Type": "application/merge-patch+json" },
    );
    await refused(
      "PATCH",
      path,
      '[{"op":"replace","path":"/metadata/uid","value":"other"}]',
      {
        code: 422,
        reason: "Invalid",
        field: "metadata.uid",
      },
      { "Content-Type": "application/json-patch+json" },
    );
    await refused(
      "PATCH",
      path,
      '{"metadata":{"uid":"other"}}',
      {
        code: 422,
        reason: "Invalid",
        field: "metadata.uid",
      },
      { "Content-Type": "application/strategic-merge-patch+json" },
    );
    await refused(
      "PATCH",
      path,
      '{"metadata":{"deletionTimestamp":"2030-01-01T00:00:00Z"}}',
      {
        code: 422,
        reason: "Invalid",
        message:
          /metadata.deletionTimestamp: Invalid value: "2030-01-01 00:00:00 \+0000 UTC": field is immutable/,
      },
      { "Content-Type": "application/merge-patch+json" },
    );
    await refused(
      "PATCH",
      path,
      '{"metadata":{"deletionGracePeriodSeconds":30}}',
      {
        code: 422,
        reason: "Invalid",
        message: /metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable/,
      },
      { "Content-Type": "application/merge-patch+json" },
    );
    // An empty uid takes the stored one, as kube's BeforeUpdate.
    const same = await s.request("PATCH", path, '{"metadata":{"uid":""}}', {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal(same.status, 200, same.text);
    assert.equal((same.body as Obj).metadata.uid, owned.metadata.uid);
  });

  it("validates finalizer names and managedFields managers on every kind", async () => {
    await refused("POST", CM, cm("fin", { finalizers: ["Bad Fin!"] }), {
      code: 422,
      reason: "Invalid",
      message: /metadata.finalizers: Invalid value: "Bad Fin!": name part must consist of/,
      field: "metadata.finalizers",
    });
    const widget = (finalizers: string[]) =>
      JSON.stringify({
        apiVersion: "door.example.com/v1",
        kind: "Widget",
        metadata: { name: "fin", finalizers },
      });
    await refused("POST", WIDGETS, widget(["Bad Fin!"]), {
      code: 422,
      reason: "Invalid",
      field: "metadata.finalizers",
    });
    await refused("POST", WIDGETS, widget(["a/b/c"]), {
      code: 422,
      reason: "Invalid",
      message: /a qualified name must/,
    });
    await refused("POST", CM, cm("fin", { finalizers: ["orphan", "foregroundDeletion"] }), {
      code: 422,
      reason: "Invalid",
      message:
        /metadata.finalizers: Invalid value: \[\]string\{"orphan", "foregroundDeletion"\}: finalizer orphan and foregroundDeletion cannot be both set/,
    });
    await refused(
      "PATCH",
      `${CM}/keep-b`,
      '{"metadata":{"finalizers":["Bad Fin!"]}}',
      {
        code: 422,
        reason: "Invalid",
        field: "metadata.finalizers",
      },
      { "Content-Type": "application/merge-patch+json" },
    );
    await refused(
      "PATCH",
      `${WIDGETS}/keep-w`,
      '{"metadata":{"finalizers":["Bad Fin!"]}}',
      {
        code: 422,
        reason: "Invalid",
        field: "metadata.finalizers",
      },
      { "Content-Type": "application/merge-patch+json" },
    );
    const badManager = [
      {
        manager: "m".repeat(129),
        operation: "Update",
        apiVersion: "v1",
        fieldsType: "FieldsV1",
        fieldsV1: { "f:data": {} },
      },
    ];
    await refused("POST", CM, cm("managed", { managedFields: badManager }), {
      code: 422,
      reason: "Invalid",
      message: /metadata.managedFields\[0\].manager: Too long: must have at most 128 bytes/,
    });
  });
});
