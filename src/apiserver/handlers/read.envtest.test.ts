/**
 * GET and LIST through the in-process apiserver over HTTP: paging with limit
 * and continue (one snapshot across pages, remainingItemCount, the token's
 * errors), resourceVersion and resourceVersionMatch semantics (Exact reads the
 * past, a revision not reached yet is a 504 Timeout), and field selectors
 * (supported labels per kind, refusals before any read).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv } from "../../../test/support/raw-http.js";
import type { KubeList, KubeObject, Status } from "../../api/index.js";

const NS = "reads";
const CMS = `/api/v1/namespaces/${NS}/configmaps`;

let env: Env;
let api: RawApi;

const cm = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, labels },
});
const names = (l: KubeList) => l.items.map((o) => o.metadata.name ?? "");
const list = (query: string) => api.ok<KubeList>("GET", `${CMS}?${query}`);

before(async () => {
  ({ env, api } = await startRawEnv(NS));
  for (const n of ["a", "b", "c", "d", "e"]) {
    await api.ok("POST", CMS, cm(n, { tier: n < "c" ? "front" : "back" }));
  }
});

after(() => env.stop());

/** Walks every page of `query` with `limit`; returns each page's names and metadata. */
async function pages(query: string, limit: number) {
  const out: { names: string[]; meta: KubeList["metadata"] }[] = [];
  let token = "";
  do {
    const page = await list(`${query}&limit=${limit}${token ? `&continue=${token}` : ""}`);
    out.push({ names: names(page), meta: page.metadata });
    token = page.metadata.continue ?? "";
  } while (token !== "" && out.length < 20);
  return out;
}

describe("LIST paging", () => {
  const cases = [
    { query: "", limit: 2, pages: [["a", "b"], ["c", "d"], ["e"]], remaining: [3, 1, undefined] },
    { query: "", limit: 5, pages: [["a", "b", "c", "d", "e"]], remaining: [undefined] },
    { query: "", limit: 4, pages: [["a", "b", "c", "d"], ["e"]], remaining: [1, undefined] },
    {
      query: "labelSelector=tier%3Dback",
      limit: 2,
      pages: [["c", "d"], ["e"]],
      remaining: [undefined, undefined],
    },
  ];
  for (const c of cases) {
    it(`limit=${c.limit} ${c.query || "(all)"} → ${JSON.stringify(c.pages)}`, async () => {
      const got = await pages(c.query, c.limit);
      assert.deepEqual(
        got.map((p) => p.names).filter((p) => p.length > 0),
        c.pages,
      );
      if (!c.query)
        assert.deepEqual(
          got.map((p) => p.meta.remainingItemCount),
          c.remaining,
        );
      assert.equal(got.at(-1)!.meta.continue, undefined, "the last page has no token");
      const rvs = new Set(got.map((p) => p.meta.resourceVersion));
      assert.equal(rvs.size, 1, "every page is read at the first page's revision");
    });
  }

  it("serves later pages from the first page's snapshot, not from what changed since", async () => {
    const first = await list("limit=2");
    await api.ok("POST", CMS, cm("bb"));
    await api.ok("DELETE", `${CMS}/d`);
    try {
      const rest = await list(`limit=10&continue=${first.metadata.continue}`);
      assert.deepEqual(names(rest), ["c", "d", "e"]);
      assert.equal(rest.metadata.resourceVersion, first.metadata.resourceVersion);
      assert.deepEqual(
        names(await list("")),
        ["a", "b", "bb", "c", "e"],
        "a fresh list sees the changes",
      );
    } finally {
      await api.ok("DELETE", `${CMS}/bb`);
      await api.ok("POST", CMS, cm("d", { tier: "back" }));
    }
  });

  it("ignores limit=0 and a negative limit: one full page without a token", async () => {
    for (const q of ["limit=0", "limit=-1"]) {
      const l = await list(q);
      assert.equal(l.items.length, 5, q);
      assert.equal(l.metadata.continue, undefined, q);
    }
  });

  const refused = [
    { query: "continue=not-a-token", code: 400, message: /^invalid continue token: / },
    {
      query: "limit=2&continue=abc&resourceVersion=3",
      code: 400,
      message: /^specifying resource version is not allowed when using continue$/,
    },
    {
      query: "limit=two",
      code: 400,
      message: /^strconv\.ParseInt: parsing "two": invalid syntax$/,
    },
  ];
  for (const r of refused) {
    it(`refuses ${r.query} with a ${r.code}`, async () => {
      const reply = await api.call("GET", `${CMS}?${r.query}`);
      assert.equal(reply.status, r.code);
      const status = reply.body as Status;
      assert.equal(status.kind, "Status");
      assert.equal(status.code, r.code);
      assert.match(status.message ?? "", r.message);
    });
  }

  it("refuses a token of another resource's list", async () => {
    const page = await api.ok<KubeList>("GET", "/api/v1/namespaces?limit=1");
    assert.ok(page.metadata.continue);
    const reply = await api.call("GET", `${CMS}?continue=${page.metadata.continue}`);
    assert.equal(reply.status, 400);
    assert.match((reply.body as Status).message ?? "", /continue/);
  });
});

describe("resourceVersion semantics", () => {
  let created: KubeObject;
  let earlier: string;

  before(async () => {
    earlier = (await list("")).metadata.resourceVersion!;
    created = await api.ok("POST", CMS, cm("late"));
  });

  it("Exact lists the collection as it was at that revision", async () => {
    const past = await list(`resourceVersion=${earlier}&resourceVersionMatch=Exact`);
    assert.equal(past.metadata.resourceVersion, earlier);
    assert.ok(!names(past).includes("late"));
    const now = await list(
      `resourceVersion=${created.metadata.resourceVersion}&resourceVersionMatch=Exact`,
    );
    assert.ok(names(now).includes("late"));
  });

  it("NotOlderThan and 0 list the latest state", async () => {
    for (const q of [
      `resourceVersion=${earlier}&resourceVersionMatch=NotOlderThan`,
      "resourceVersion=0",
      `resourceVersion=${earlier}`,
    ]) {
      const l = await list(q);
      assert.ok(names(l).includes("late"), q);
      assert.ok(Number(l.metadata.resourceVersion) >= Number(created.metadata.resourceVersion), q);
    }
  });

  const ahead = [
    {
      what: "list NotOlderThan",
      path: () => `${CMS}?resourceVersion=999999&resourceVersionMatch=NotOlderThan`,
    },
    { what: "list Exact", path: () => `${CMS}?resourceVersion=999999&resourceVersionMatch=Exact` },
    { what: "get", path: () => `${CMS}/late?resourceVersion=999999` },
  ];
  for (const a of ahead) {
    it(`${a.what} at a revision not reached yet is a 504 Timeout to retry`, async () => {
      const reply = await api.call("GET", a.path());
      assert.equal(reply.status, 504);
      const s = reply.body as Status;
      assert.equal(s.reason, "Timeout");
      assert.match(s.message ?? "", /^Timeout: Too large resource version: 999999, current: \d+$/);
      assert.deepEqual(s.details?.causes, [
        { reason: "ResourceVersionTooLarge", message: "Too large resource version" },
      ]);
      assert.equal(s.details?.retryAfterSeconds, 1);
    });
  }

  it("gets an object at its own or an older revision", async () => {
    for (const rv of ["0", earlier, created.metadata.resourceVersion!]) {
      const got = await api.ok<KubeObject>("GET", `${CMS}/late?resourceVersion=${rv}`);
      assert.equal(got.metadata.uid, created.metadata.uid, rv);
    }
  });

  it("refuses a resourceVersion that is not a number before reading", async () => {
    const reply = await api.call("GET", `${CMS}/late?resourceVersion=abc`);
    assert.equal(reply.status, 400);
    assert.match(
      (reply.body as Status).message ?? "",
      /^invalid resource version: resourceVersion: Invalid value: "abc"/,
    );
  });
});

describe("field selectors", () => {
  before(async () => {
    const pod = (name: string, nodeName?: string) => ({
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: "c", image: "busybox" }] },
    });
    await api.ok("POST", `/api/v1/namespaces/${NS}/pods`, pod("p1", "n1"));
    await api.ok("POST", `/api/v1/namespaces/${NS}/pods`, pod("p2"));
    await api.ok("PATCH", `/api/v1/namespaces/${NS}/pods/p1/status`, {
      status: { phase: "Running" },
    });
  });

  const selects = [
    { path: `${CMS}?fieldSelector=metadata.name%3Dc`, want: ["c"] },
    {
      path: `${CMS}?fieldSelector=metadata.name!%3Dc,metadata.namespace%3D${NS}&labelSelector=tier%3Dback`,
      want: ["d", "e"],
    },
    { path: `/api/v1/configmaps?fieldSelector=metadata.namespace%3Dnowhere`, want: [] },
    { path: `/api/v1/namespaces/${NS}/pods?fieldSelector=spec.nodeName%3Dn1`, want: ["p1"] },
    { path: `/api/v1/namespaces/${NS}/pods?fieldSelector=spec.nodeName%3D`, want: ["p2"] },
    { path: `/api/v1/namespaces/${NS}/pods?fieldSelector=status.phase%3DRunning`, want: ["p1"] },
    { path: `/api/v1/namespaces/${NS}/pods?fieldSelector=status.phase!%3DRunning`, want: ["p2"] },
    { path: `/api/v1/namespaces?fieldSelector=metadata.name%3D${NS}`, want: [NS] },
  ];
  for (const s of selects) {
    it(`${decodeURIComponent(s.path)} → ${JSON.stringify(s.want)}`, async () => {
      assert.deepEqual(names(await api.ok<KubeList>("GET", s.path)), s.want);
    });
  }

  const refused = [
    {
      what: "an unknown field of a ConfigMap",
      path: `${CMS}?fieldSelector=data.x%3D1`,
      message: "field label not supported: data.x",
    },
    {
      what: "metadata.namespace of a cluster-scoped kind",
      path: "/api/v1/namespaces?fieldSelector=metadata.namespace%3Dx",
      message: "field label not supported: metadata.namespace",
    },
    {
      what: "a label with spaces, not trimmed",
      path: `${CMS}?fieldSelector=metadata.name%20%3Dc`,
      message: "field label not supported: metadata.name ",
    },
    {
      what: "a term without an operator",
      path: `${CMS}?fieldSelector=metadata.name`,
      message: "invalid selector: 'metadata.name'; can't understand 'metadata.name'",
    },
    {
      what: "the same on a watch",
      path: `${CMS}?watch=1&fieldSelector=spec.nodeName%3Dn1`,
      message: "field label not supported: spec.nodeName",
    },
    {
      what: "the same on deletecollection",
      path: `${CMS}?fieldSelector=spec.x%3Dy`,
      method: "DELETE",
      message: "field label not supported: spec.x",
    },
    {
      what: "a bad label selector",
      path: `${CMS}?labelSelector=a%20b`,
      message: /^unable to parse requirement: found 'b', expected: in, notin/,
    },
  ];
  for (const r of refused) {
    it(`refuses ${r.what} with a 400 and reads or deletes nothing`, async () => {
      const reply = await api.call(r.method ?? "GET", r.path);
      assert.equal(reply.status, 400, reply.text);
      const s = reply.body as Status;
      assert.equal(s.reason, "BadRequest");
      if (typeof r.message === "string") assert.equal(s.message, r.message);
      else assert.match(s.message ?? "", r.message);
    });
  }

  it("deleted nothing through the refused deletecollection", async () => {
    assert.equal((await list("labelSelector=tier")).items.length, 5);
  });
});
