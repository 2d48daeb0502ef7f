/** core/v1 ↔ events.k8s.io/v1 Event conversion. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { coreToEventsV1, eventsV1ToCore } from "./conversion.js";

const core: KubeObject = {
  apiVersion: "v1",
  kind: "Event",
  metadata: { name: "web.17a", namespace: "default", resourceVersion: "7" },
  involvedObject: { apiVersion: "v1", kind: "ConfigMap", name: "web", namespace: "default" },
  reason: "Synced",
  message: "synced 3 keys",
  type: "Normal",
  source: { component: "syncer", host: "node-1" },
  firstTimestamp: "2024-05-01T10:00:00Z",
  lastTimestamp: "2024-05-01T10:05:00Z",
  count: 4,
  reportingComponent: "syncer",
  reportingInstance: "node-1",
  series: { count: 4, lastObservedTime: "2024-05-01T10:05:00.000000Z" },
  action: "Sync",
  related: { kind: "Secret", name: "web-tls" },
  eventTime: "2024-05-01T10:00:00.000000Z",
};

const events: KubeObject = {
  apiVersion: "events.k8s.io/v1",
  kind: "Event",
  metadata: core.metadata,
  regarding: core.involvedObject,
  reason: "Synced",
  note: "synced 3 keys",
  type: "Normal",
  deprecatedSource: { component: "syncer", host: "node-1" },
  deprecatedFirstTimestamp: "2024-05-01T10:00:00Z",
  deprecatedLastTimestamp: "2024-05-01T10:05:00Z",
  deprecatedCount: 4,
  reportingController: "syncer",
  reportingInstance: "node-1",
  series: { count: 4, lastObservedTime: "2024-05-01T10:05:00.000000Z" },
  action: "Sync",
  related: { kind: "Secret", name: "web-tls" },
  eventTime: "2024-05-01T10:00:00.000000Z",
};

describe("Event conversion", () => {
  it("maps every core field to its events.k8s.io/v1 name", () => {
    assert.deepEqual(coreToEventsV1(core), events);
  });

  it("maps back to the same core Event", () => {
    assert.deepEqual(eventsV1ToCore(events), core);
    assert.deepEqual(eventsV1ToCore(coreToEventsV1(core)), core);
  });

  it("leaves absent fields absent, but core always has an involvedObject", () => {
    const minimal: KubeObject = {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: "x" },
    };
    assert.deepEqual(eventsV1ToCore(minimal), {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "x" },
      involvedObject: {},
    });
    assert.deepEqual(coreToEventsV1({ apiVersion: "v1", kind: "Event", metadata: { name: "x" } }), {
      apiVersion: "events.k8s.io/v1",
      kind: "Event",
      metadata: { name: "x" },
    });
  });
});
