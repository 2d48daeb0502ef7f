/**
 * Events over HTTP against an in-process server: events.k8s.io/v1 and core/v1
 * show the same objects (create, list, watch, delete through either), the
 * strict validation of events.k8s.io/v1 writes, and the client's
 * EventRecorder writing and aggregating real Events.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { createHttpClient, EventRecorder, type HttpClient } from "../../src/client/index.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const CORE = "/api/v1/namespaces/default/events";
const V1 = "/apis/events.k8s.io/v1/namespaces/default/events";

function modernEvent(name: string, note: string): KubeObject {
  return {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name },
    eventTime: "2024-05-01T10:00:00.000000Z",
    reportingController: "example.com/widget-controller",
    reportingInstance: "widget-controller-1",
    action: "Reconcile",
    reason: "Scaled",
    type: "Normal",
    note,
    regarding: { apiVersion: "v1", kind: "ConfigMap", name: "web", namespace: "default" },
  };
}

describe("Events", () => {
  let s: InProcessServer;
  let client: HttpClient;
  const get = async (path: string) => (await s.request("GET", path)).body as KubeObject;

  before(async () => {
    s = await startInProcess();
    client = createHttpClient({ server: s.url });
  });
  after(async () => {
    client?.close();
    await s?.stop();
  });

  it("shows an events.k8s.io/v1 Event as a v1 Event and back", async () => {
    const created = await s.request("POST", V1, JSON.stringify(modernEvent("e1", "scaled to 3")));
    assert.equal(created.status, 201, created.text);
    const core = await get(`${CORE}/e1`);
    assert.equal(core.apiVersion, "v1");
    assert.equal(core.message, "scaled to 3");
    assert.equal(core.reportingComponent, "example.com/widget-controller");
    assert.deepEqual(core.involvedObject, modernEvent("e1", "").regarding);
    const again = await get(`${V1}/e1`);
    assert.equal(again.note, "scaled to 3");
    assert.equal(again.metadata.resourceVersion, core.metadata.resourceVersion);

    await client.create({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "e2", namespace: "default" },
      involvedObject: { kind: "ConfigMap", name: "web", namespace: "default" },
      reason: "Old",
      message: "from the core API",
      count: 2,
      firstTimestamp: "2024-05-01T10:00:00Z",
    });
    const modern = await get(`${V1}/e2`);
    assert.equal(modern.note, "from the core API");
    assert.equal(modern.deprecatedCount, 2);
    assert.equal(modern.deprecatedFirstTimestamp, "2024-05-01T10:00:00Z");
    const list = (await get(V1)) as KubeObject & { items: KubeObject[] };
    assert.equal(list.kind, "EventList");
    assert.deepEqual(
      list.items.map((e) => [e.apiVersion, e.metadata.name]),
      [
        ["events.k8s.io/v1", "e1"],
        ["events.k8s.io/v1", "e2"],
      ],
    );
    const bySelector = (await get(`${V1}?fieldSelector=reason%3DOld`)) as KubeObject & {
      items: KubeObject[];
    };
    assert.deepEqual(
      bySelector.items.map((e) => e.metadata.name),
      ["e2"],
    );
    const deleted = await s.request("DELETE", `${V1}/e2`);
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal((await s.request("GET", `${CORE}/e2`)).status, 404);
  });

  it("watches v1 Events through events.k8s.io/v1, converted", async () => {
    const stop = new AbortController();
    const seen: KubeObject[] = [];
    const watching = (async () => {
      for await (const ev of client.watch(
        { apiVersion: "events.k8s.io/v1", kind: "Event" },
        { namespace: "default", signal: stop.signal },
      )) {
        seen.push(ev.object);
        if (ev.object.metadata.name === "e3") stop.abort();
      }
    })();
    await client.create({
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "e3", namespace: "default" },
      involvedObject: { kind: "Pod", name: "p", namespace: "default" },
      message: "watched",
    });
    await watching;
    const e3 = seen.find((o) => o.metadata.name === "e3");
    assert.equal(e3?.apiVersion, "events.k8s.io/v1");
    assert.equal(e3?.note, "watched");
  });

  it("validates events.k8s.io/v1 writes strictly", async () => {
    const bad = {
      ...modernEvent("bad", "x"),
      eventTime: undefined,
      type: "Odd",
      deprecatedCount: 3,
    };
    const r = await s.request("POST", V1, JSON.stringify(bad));
    assert.equal(r.status, 422);
    assert.equal(
      (r.body as { message: string }).message,
      'Event.events.k8s.io "bad" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Odd, count: Invalid value: "": needs to be unset]',
    );
    const changed = await s.request("PATCH", `${V1}/e1`, JSON.stringify({ note: "rewritten" }), {
      "Content-Type": "application/merge-patch+json",
    });
    assert.equal(changed.status, 422);
    assert.match(
      (changed.body as { message: string }).message,
      /message: Invalid value: "rewritten": field is immutable/,
    );
  });

  it("records Events from the client library, aggregating repeats", async () => {
    const cm = await client.create<KubeObject>({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "recorded", namespace: "default" },
    });
    const errors: unknown[] = [];
    const recorder = new EventRecorder(client, {
      component: "widget-controller",
      onError: (e) => errors.push(e),
    });
    recorder.event(cm, "Warning", "SyncFailed", "cannot reach backend");
    recorder.event(cm, "Warning", "SyncFailed", "cannot reach backend");
    recorder.event(cm, "Normal", "Synced", "ok");
    await recorder.flush();
    assert.deepEqual(errors, []);
    const list = await client.list(
      { apiVersion: "v1", kind: "Event" },
      {
        namespace: "default",
        fieldSelector: "involvedObject.name=recorded",
      },
    );
    const byReason = Object.fromEntries(list.items.map((e) => [e.reason as string, e]));
    assert.equal(list.items.length, 2);
    assert.equal(byReason.SyncFailed?.count, 2);
    assert.equal(byReason.Synced?.count, 1);
    const synced = byReason.Synced?.involvedObject as { uid?: string } | undefined;
    assert.equal(synced?.uid, cm.metadata.uid);
    assert.deepEqual(byReason.SyncFailed?.source, { component: "widget-controller" });
  });
});
