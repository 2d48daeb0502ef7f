/** Request metrics: counted per series when responses finish, exact at every read of the registry. */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";
import { observeRequest } from "./metrics.js";

/** Finishes one request described by `info` with `code`. */
function serve(info: RequestInfo | undefined, code: number): void {
  const res = new EventEmitter() as EventEmitter & { statusCode: number };
  res.statusCode = 200;
  observeRequest(info, res as unknown as ServerResponse, performance.now());
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

describe("observeRequest", () => {
  it("counts each series by verb, resource, subresource and code, and times all but watches", async () => {
    for (let i = 0; i < 3; i++) serve(info("create", "configmaps", { namespace: "a" }), 201);
    serve(info("create", "configmaps"), 409);
    serve(info("watch", "pods"), 200);
    serve(info("get", "pods", { name: "p", subresource: "log" }), 200);
    serve(undefined, 200);
    const cm = 'verb="create",group="",version="v1",resource="configmaps"';
    assert.equal(await sample(TOTAL, `${cm},subresource="",code="201"`), 3);
    assert.equal(await sample(TOTAL, `${cm},subresource="",code="409"`), 1);
    assert.equal(await sample(COUNT, cm), 4);
    const watch = 'verb="watch",group="",version="v1",resource="pods"';
    assert.equal(await sample(TOTAL, `${watch},subresource="",code="200"`), 1);
    assert.equal(await sample(COUNT, watch), undefined);
    const log = 'verb="get",group="",version="v1",resource="pods",subresource="log",code="200"';
    assert.equal(await sample(TOTAL, log), 1);
    const other = 'verb="nonresource",group="",version="",resource="",subresource="",code="200"';
    assert.equal(await sample(TOTAL, other), 1);
  });

  it("keeps counting across reads of the registry", async () => {
    const labels =
      'verb="delete",group="",version="v1",resource="secrets",subresource="",code="200"';
    serve(info("delete", "secrets"), 200);
    assert.equal(await sample(TOTAL, labels), 1);
    assert.equal(await sample(TOTAL, labels), 1);
    serve(info("delete", "secrets"), 200);
    serve(info("delete", "secrets"), 200);
    assert.equal(await sample(TOTAL, labels), 3);
  });

  it("counts series past the bound on those it keeps", async () => {
    for (let i = 0; i < 9000; i++) serve(info("get", `r${i}`), 404);
    for (let i = 0; i < 2; i++) serve(info("list", "late-kind"), 200);
    const late = 'verb="list",group="",version="v1",resource="late-kind",subresource="",code="200"';
    assert.equal(await sample(TOTAL, late), 2);
    assert.equal(await sample(COUNT, 'verb="list",group="",version="v1",resource="late-kind"'), 2);
    serve(info("list", "late-kind"), 200);
    assert.equal(await sample(TOTAL, late), 3);
    const first = 'verb="get",group="",version="v1",resource="r0",subresource="",code="404"';
    assert.equal(await sample(TOTAL, first), 1);
  });
});
