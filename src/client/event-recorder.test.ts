/** The event recorder against an in-memory Writer: naming, aggregation, and errors kept from the caller. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../api/index.js";
import { NotFoundError } from "../api/index.js";
import { EventRecorder } from "./event-recorder.js";
import type { ObjectRef, Writer } from "./interface.js";

class MemoryWriter implements Pick<Writer, "create" | "patch"> {
  readonly events = new Map<string, KubeObject>();
  readonly calls: string[] = [];
  failWith?: Error;
  gate?: Promise<void>;

  async create<T extends KubeObject>(obj: T): Promise<T> {
    await this.gate;
    this.calls.push(`create ${obj.metadata.namespace}/${obj.metadata.name}`);
    if (this.failWith) throw this.failWith;
    this.events.set(`${obj.metadata.namespace}/${obj.metadata.name}`, structuredClone(obj));
    return obj;
  }

  async patch<T extends KubeObject = KubeObject>(
    { name, namespace }: ObjectRef,
    patch: unknown,
  ): Promise<T> {
    await this.gate;
    this.calls.push(`patch ${namespace}/${name}`);
    const key = `${namespace}/${name}`;
    const current = this.events.get(key);
    if (!current) throw new NotFoundError({ group: "", resource: "events", name });
    Object.assign(current, patch);
    return current as T;
  }
}

const widget: KubeObject = {
  apiVersion: "rules.example.com/v1",
  kind: "Widget",
  metadata: { name: "w1", namespace: "team-a", uid: "u-1", resourceVersion: "12" },
};
const node: KubeObject = {
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name: "team-a", uid: "u-2" },
};

function clock(start = Date.parse("2024-05-01T10:00:00Z")) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe("EventRecorder", () => {
  it("creates a v1 Event about the object, named <name>.<hex time>", async () => {
    const w = new MemoryWriter();
    const c = clock();
    const r = new EventRecorder(w, { component: "widget-controller", host: "node-1", now: c.now });
    r.event(widget, "Normal", "Scaled", "scaled to 3");
    await r.flush();
    const [event] = [...w.events.values()];
    assert.match(event!.metadata.name!, /^w1\.[0-9a-f]+$/);
    assert.equal(event!.metadata.namespace, "team-a");
    assert.deepEqual(event!.involvedObject, {
      apiVersion: "rules.example.com/v1",
      kind: "Widget",
      name: "w1",
      namespace: "team-a",
      uid: "u-1",
      resourceVersion: "12",
    });
    assert.deepEqual(
      [
        event!.type,
        event!.reason,
        event!.message,
        event!.count,
        event!.firstTimestamp,
        event!.lastTimestamp,
      ],
      ["Normal", "Scaled", "scaled to 3", 1, "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"],
    );
    assert.deepEqual(event!.source, { component: "widget-controller", host: "node-1" });
  });

  it("puts events about cluster-scoped objects in default", async () => {
    const w = new MemoryWriter();
    const r = new EventRecorder(w, { component: "c" });
    r.event(node, "Warning", "Stuck", "finalizer pending");
    await r.flush();
    assert.equal([...w.events.values()][0]!.metadata.namespace, "default");
  });

  it("aggregates repeats within the window into count and lastTimestamp", async () => {
    const w = new MemoryWriter();
    const c = clock();
    const r = new EventRecorder(w, { component: "c", now: c.now, aggregationWindowMs: 60_000 });
    r.event(widget, "Warning", "Failed", "boom");
    c.advance(10_000);
    r.event(widget, "Warning", "Failed", "boom");
    c.advance(10_000);
    r.event(widget, "Warning", "Failed", "boom");
    r.event(widget, "Warning", "Failed", "other message");
    await r.flush();
    assert.equal(w.events.size, 2);
    const boom = [...w.events.values()].find((e) => e.message === "boom")!;
    assert.equal(boom.count, 3);
    assert.equal(boom.firstTimestamp, "2024-05-01T10:00:00Z");
    assert.equal(boom.lastTimestamp, "2024-05-01T10:00:20Z");
    c.advance(61_000);
    r.event(widget, "Warning", "Failed", "boom");
    await r.flush();
    assert.equal(w.events.size, 3, "a repeat after the window is a new Event");
  });

  it("creates the Event again when the aggregated one is gone", async () => {
    const w = new MemoryWriter();
    const c = clock();
    const r = new EventRecorder(w, { component: "c", now: c.now });
    r.event(widget, "Normal", "Tick", "tick");
    await r.flush();
    w.events.clear();
    r.event(widget, "Normal", "Tick", "tick");
    await r.flush();
    const [again] = [...w.events.values()];
    assert.equal(again?.count, 2);
  });

  it("never throws or waits: failures go to onError", async () => {
    const w = new MemoryWriter();
    let release!: () => void;
    w.gate = new Promise((resolve) => (release = resolve));
    w.failWith = new Error("apiserver down");
    const errors: unknown[] = [];
    const r = new EventRecorder(w, {
      component: "c",
      maxPending: 2,
      onError: (e) => {
        errors.push(e);
        throw new Error("a throwing onError is contained too");
      },
    });
    for (let i = 0; i < 3; i++) r.event(widget, "Normal", "R", `m${i}`);
    assert.equal(w.calls.length, 0, "event() returned before any write");
    assert.match(String(errors[0]), /dropped/);
    release();
    await r.flush();
    assert.equal(errors.length, 3);
    assert.match(String(errors[1]), /apiserver down/);
  });
});
