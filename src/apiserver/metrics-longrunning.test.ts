/** Long-running requests: kube's apiserver_longrunning_requests and Hearth's watches by selector. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { register } from "prom-client";
import type { RequestInfo } from "./http/request-info.js";
import { trackLongRunning } from "./metrics.js";

function info(verb: string, resource: string, extra: Partial<RequestInfo> = {}): RequestInfo {
  return { isResourceRequest: true, path: "/", verb, group: "", version: "v1", resource, ...extra };
}

/** The value of the sample `name{labels}` in the registry's text, or undefined. */
async function sample(name: string, labels: string): Promise<number | undefined> {
  const text = await register.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

const LONG = "apiserver_longrunning_requests";
const WATCHES = "hearth_apiserver_watches";

describe("trackLongRunning", () => {
  const q = (s = "") => new URLSearchParams(s);
  const labels = (verb: string, resource: string, subresource: string, scope: string) =>
    `verb="${verb}",group="",version="v1",resource="${resource}",subresource="${subresource}",scope="${scope}",component="apiserver"`;

  it("counts open watches by kube's verb and scope until each ends", async () => {
    const inNs = trackLongRunning(info("watch", "configmaps", { namespace: "a" }), q());
    const inNs2 = trackLongRunning(info("watch", "configmaps", { namespace: "b" }), q());
    const all = trackLongRunning(info("watch", "configmaps"), q());
    // RequestInfo names a watch whose field selector pins metadata.name (kube's scope "resource").
    const one = trackLongRunning(
      info("watch", "configmaps", { namespace: "a", name: "x" }),
      q("fieldSelector=metadata.name%3Dx"),
    );
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "namespace")), 2);
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "cluster")), 1);
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "resource")), 1);
    inNs();
    inNs(); // a second call must not count the watch down twice
    all();
    one();
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "namespace")), 1);
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "cluster")), 0);
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "resource")), 0);
    inNs2();
    assert.equal(await sample(LONG, labels("WATCH", "configmaps", "", "namespace")), 0);
  });

  it("reports a pod log stream as CONNECT on the log subresource", async () => {
    const end = trackLongRunning(
      info("get", "pods", { namespace: "a", name: "p", subresource: "log" }),
      q("follow=true"),
    );
    assert.equal(await sample(LONG, labels("CONNECT", "pods", "log", "resource")), 1);
    end();
    assert.equal(await sample(LONG, labels("CONNECT", "pods", "log", "resource")), 0);
    const text = await register.metrics();
    assert.ok(!text.includes(`${WATCHES}{group="",version="v1",resource="pods"`), text);
  });

  it("counts watches by namespace and selectors, and drops a series at zero", async () => {
    const query = q("labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3Dn1");
    const series =
      'group="",version="v1",resource="pods",namespace="",label_selector="app=web",field_selector="spec.nodeName=n1"';
    const first = trackLongRunning(info("watch", "pods"), query);
    const second = trackLongRunning(info("watch", "pods"), query);
    const other = trackLongRunning(info("watch", "pods", { namespace: "a" }), q());
    assert.equal(await sample(WATCHES, series), 2);
    const plain =
      'group="",version="v1",resource="pods",namespace="a",label_selector="",field_selector=""';
    assert.equal(await sample(WATCHES, plain), 1);
    first();
    assert.equal(await sample(WATCHES, series), 1);
    second();
    other();
    assert.equal(await sample(WATCHES, series), undefined, "the series is gone");
    assert.equal(await sample(WATCHES, plain), undefined);
  });
});
