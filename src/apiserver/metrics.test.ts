/** Request metrics: counted per series when responses finish, exact at every read of the registry. */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";
import { observeRequest, type RequestFacts } from "./metrics.js";

/** Finishes one request described by `info` (and its method, content type, query) with `code`. */
function serve(
  info: RequestInfo | undefined,
  code: number,
  facts: Partial<RequestFacts> = {},
): void {
  const res = new EventEmitter() as EventEmitter & { statusCode: number };
  res.statusCode = 200;
  const all = { method: "GET", contentType: undefined, query: new URLSearchParams(), ...facts };
  observeRequest(info, all, res as unknown as ServerResponse, performance.now());
  res.statusCode = code;
  res.emit("finish");
}

function info(verb: string, resource: string, extra: Partial<RequestInfo> = {}): RequestInfo {
  return {
    isResourceRequest: true,
    path: "/",
    verb,
    group: "",
    version: "v1",
    resource,
    ...extra,
  };
}

/** The value of the sample `name{labels}` in the registry's text, or undefined. */
async function sample(name: string, labels: string): Promise<number | undefined> {
  const text = await register.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

const TOTAL = "apiserver_request_total";
const COUNT = "apiserver_request_duration_seconds_count";

/** The labels of a resource request's series, in kube's order (the duration series has all but code). */
function labels(
  verb: string,
  resource: string,
  more: { dryRun?: string; subresource?: string; scope?: string; version?: string } = {},
): string {
  return [
    `verb="${verb}"`,
    `dry_run="${more.dryRun ?? ""}"`,
    `group=""`,
    `version="${more.version ?? "v1"}"`,
    `resource="${resource}"`,
    `subresource="${more.subresource ?? ""}"`,
    `scope="${more.scope ?? "cluster"}"`,
    `component="${resource === "" ? "" : "apiserver"}"`,
  ].join(",");
}

describe("observeRequest", () => {
  it("counts each series by kube's labels, and times all but watches", async () => {
    for (let i = 0; i < 3; i++)
      serve(info("create", "configmaps", { namespace: "a" }), 201, { method: "POST" });
    serve(info("create", "configmaps", { namespace: "a" }), 409, { method: "POST" });
    serve(info("watch", "pods"), 200);
    serve(info("get", "pods", { namespace: "a", name: "p", subresource: "log" }), 200);
    serve(undefined, 200);
    // kube's CleanScope: a create is scoped to the resource it makes.
    const cm = labels("POST", "configmaps", { scope: "resource" });
    assert.equal(await sample(TOTAL, `${cm},code="201"`), 3);
    assert.equal(await sample(TOTAL, `${cm},code="409"`), 1);
    assert.equal(await sample(COUNT, cm), 4);
    const watch = labels("WATCH", "pods");
    assert.equal(await sample(TOTAL, `${watch},code="200"`), 1);
    assert.equal(await sample(COUNT, watch), undefined);
    const log = labels("CONNECT", "pods", { subresource: "log", scope: "resource" });
    assert.equal(await sample(TOTAL, `${log},code="200"`), 1);
    const other = labels("GET", "", { version: "", scope: "" });
    assert.equal(await sample(TOTAL, `${other},code="200"`), 1);
  });

  it("reports kube's verbs: LIST and WATCH apart from GET, APPLY apart from PATCH, POST and PUT", async () => {
    const named = { namespace: "v", name: "s" };
    const cases: [RequestInfo, Partial<RequestFacts>, string, string][] = [
      [info("list", "secrets", { namespace: "v" }), {}, "LIST", "namespace"],
      [info("get", "secrets", named), {}, "GET", "resource"],
      [
        info("patch", "secrets", named),
        { method: "PATCH", contentType: "application/apply-patch+yaml; charset=utf-8" },
        "APPLY",
        "resource",
      ],
      [
        info("patch", "secrets", named),
        { method: "PATCH", contentType: "application/merge-patch+json" },
        "PATCH",
        "resource",
      ],
      [info("update", "secrets", named), { method: "PUT" }, "PUT", "resource"],
      [
        info("deletecollection", "secrets", { namespace: "v" }),
        { method: "DELETE" },
        "DELETECOLLECTION",
        "namespace",
      ],
    ];
    for (const [request, facts, verb, scope] of cases) {
      serve(request, 200, facts);
      const series = `${labels(verb, "secrets", { scope })},code="200"`;
      assert.equal(await sample(TOTAL, series), 1, verb);
    }
  });

  it("labels a dry run All, and any other dryRun value invalid", async () => {
    const svc = info("delete", "services", { namespace: "d", name: "x" });
    serve(svc, 200, { method: "DELETE", query: new URLSearchParams("dryRun=All") });
    serve(svc, 400, { method: "DELETE", query: new URLSearchParams("dryRun=nonsense-1") });
    serve(svc, 400, { method: "DELETE", query: new URLSearchParams("dryRun=nonsense-2") });
    const at = (dryRun: string) => labels("DELETE", "services", { dryRun, scope: "resource" });
    assert.equal(await sample(TOTAL, `${at("All")},code="200"`), 1);
    assert.equal(await sample(TOTAL, `${at("invalid")},code="400"`), 2);
  });

  it("keeps counting across reads of the registry", async () => {
    const series = `${labels("DELETE", "secrets", { scope: "resource" })},code="200"`;
    const del = info("delete", "secrets", { name: "s" });
    serve(del, 200);
    assert.equal(await sample(TOTAL, series), 1);
    assert.equal(await sample(TOTAL, series), 1);
    serve(del, 200);
    serve(del, 200);
    assert.equal(await sample(TOTAL, series), 3);
  });

  it("counts series past the bound on those it keeps", async () => {
    for (let i = 0; i < 9000; i++) serve(info("get", `r${i}`, { name: "x" }), 404);
    for (let i = 0; i < 2; i++) serve(info("list", "late-kind"), 200);
    const late = labels("LIST", "late-kind");
    assert.equal(await sample(TOTAL, `${late},code="200"`), 2);
    assert.equal(await sample(COUNT, late), 2);
    serve(info("list", "late-kind"), 200);
    assert.equal(await sample(TOTAL, `${late},code="200"`), 3);
    const first = `${labels("GET", "r0", { scope: "resource" })},code="404"`;
    assert.equal(await sample(TOTAL, first), 1);
  });
});
