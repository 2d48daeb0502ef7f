/**
 * DeleteOptions as a DELETE reads them, from the body or else the query, over
 * HTTP on the in-process apiserver: Go's decoding errors (400) for wrong JSON
 * types and foreign kinds, ValidateDeleteOptions' 422 on DeleteOptions, and
 * refused options deleting nothing. Plus `propagationOf`'s reading of the old
 * `orphanDependents` spelling.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv } from "../../../test/support/raw-http.js";
import type { Status } from "../../api/index.js";
import { propagationOf } from "./delete-options.js";

const NS = "deletes";
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

let env: Env;
let api: RawApi;

before(async () => {
  ({ env, api } = await startRawEnv(NS));
  await api.ok("POST", CMS, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "target" } });
});

after(() => env.stop());

describe("DELETE options refused before anything is deleted", () => {
  const cases: {
    what: string;
    query?: string;
    body?: unknown;
    code: number;
    message: string | RegExp;
  }[] = [
    {
      what: "a body that is not an object",
      body: [1],
      code: 400,
      message: "json: cannot unmarshal array into Go value of type v1.DeleteOptions",
    },
    {
      what: "a body of another kind",
      body: { kind: "Pod", apiVersion: "v1" },
      code: 400,
      message:
        'no kind "Pod" is registered for version "v1": the body of a delete must be DeleteOptions',
    },
    {
      what: "gracePeriodSeconds as a string",
      body: { gracePeriodSeconds: "5" },
      code: 400,
      message:
        "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64",
    },
    {
      what: "a fractional gracePeriodSeconds",
      body: { gracePeriodSeconds: 1.5 },
      code: 400,
      message:
        "json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64",
    },
    {
      what: "orphanDependents as a string",
      body: { orphanDependents: "yes" },
      code: 400,
      message:
        "json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool",
    },
    {
      what: "a precondition uid as a number",
      body: { preconditions: { uid: 5 } },
      code: 400,
      message:
        "json: cannot unmarshal number 5 into Go struct field DeleteOptions.preconditions.uid of type types.UID",
    },
    {
      what: "gracePeriodSeconds=soon in the query",
      query: "gracePeriodSeconds=soon",
      code: 400,
      message: 'strconv.ParseInt: parsing "soon": invalid syntax',
    },
    {
      what: "an unknown propagationPolicy",
      query: "propagationPolicy=Later",
      code: 422,
      message:
        /^DeleteOptions\.meta\.k8s\.io "" is invalid: propagationPolicy: Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"$/,
    },
    {
      what: "orphanDependents with propagationPolicy",
      body: { orphanDependents: true, propagationPolicy: "Orphan" },
      code: 422,
      message:
        /propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set/,
    },
    {
      what: "a dryRun other than All in the body",
      body: { dryRun: ["Yes"] },
      code: 422,
      message: /dryRun: Unsupported value: \[\]string\{"Yes"\}: supported values: "All"/,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.what} with a ${c.code}`, async () => {
      const reply = await api.call(
        "DELETE",
        `${CMS}/target${c.query ? `?${c.query}` : ""}`,
        c.body,
      );
      assert.equal(reply.status, c.code, reply.text);
      const message = (reply.body as Status).message ?? "";
      if (typeof c.message === "string") assert.equal(message, c.message);
      else assert.match(message, c.message);
    });
  }

  it("deleted nothing through the refused calls", async () => {
    assert.equal((await api.call("GET", `${CMS}/target`)).status, 200);
  });

  it("refuses a uid precondition that does not match with a 409, then deletes with the right one", async () => {
    const live = await api.ok("GET", `${CMS}/target`);
    const wrong = await api.call("DELETE", `${CMS}/target`, {
      preconditions: { uid: "not-the-uid" },
    });
    assert.equal(wrong.status, 409, wrong.text);
    assert.equal((wrong.body as Status).reason, "Conflict");
    assert.match(
      (wrong.body as Status).message ?? "",
      /Precondition failed: UID in precondition: not-the-uid, UID in object meta: /,
    );
    const right = await api.call("DELETE", `${CMS}/target`, {
      kind: "DeleteOptions",
      apiVersion: "v1",
      preconditions: { uid: live.metadata.uid },
    });
    assert.equal(right.status, 200, right.text);
    assert.equal((await api.call("GET", `${CMS}/target`)).status, 404);
  });
});

describe("propagationOf", () => {
  const cases = [
    { opts: {}, want: undefined },
    { opts: { propagationPolicy: "Foreground" }, want: "Foreground" },
    { opts: { orphanDependents: true }, want: "Orphan" },
    { opts: { orphanDependents: false }, want: "Background" },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.opts)} → ${c.want}`, () => assert.equal(propagationOf(c.opts), c.want));
  }
});
