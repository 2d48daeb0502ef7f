/**
 * Informer against a scripted client (a unit test of this layer): a watch that
 * fails with 410 Expired makes it relist, and objects that vanished meanwhile
 * are reported deleted; a watch that simply ends resumes from the last revision.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeList, KubeObject, WatchEvent } from "../api/index.js";
import { ApiError } from "../api/index.js";
import type { Reader, TypeRef, Watcher } from "../client/index.js";
import { Informer } from "./informer.js";

const cm = (name: string, rv: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "d", resourceVersion: rv },
});

class ScriptedClient implements Reader, Watcher {
  lists: KubeList[] = [];
  watches: (() => AsyncIterable<WatchEvent>)[] = [];
  watchedFrom: string[] = [];

  async get<T extends KubeObject>(): Promise<T> {
    throw new Error("unused");
  }
  async list<T extends KubeObject>(): Promise<KubeList<T>> {
    const next = this.lists.shift();
    if (!next) throw new Error("no more lists scripted");
    return next as KubeList<T>;
  }
  watch<T extends KubeObject>(
    _type: TypeRef,
    opts: { resourceVersion?: string; signal?: AbortSignal },
  ): AsyncIterable<WatchEvent<T>> {
    const signal = opts.signal;
    this.watchedFrom.push(opts.resourceVersion ?? "");
    const next = this.watches.shift();
    if (next) return next() as AsyncIterable<WatchEvent<T>>;
    return (async function* () {
      await new Promise((r) => signal?.addEventListener("abort", r, { once: true }));
    })() as AsyncIterable<WatchEvent<T>>;
  }
}

const list = (rv: string, items: KubeObject[]): KubeList => ({
  apiVersion: "v1",
  kind: "ConfigMapList",
  metadata: { resourceVersion: rv },
  items,
});

describe("Informer (scripted client)", () => {
  it("relists on 410 and reports what vanished; resumes from the last revision when a watch ends", async () => {
    const client = new ScriptedClient();
    client.lists.push(
      list("10", [cm("a", "5"), cm("b", "6")]),
      list("20", [cm("a", "5"), cm("c", "18")]),
    );
    client.watches.push(
      async function* () {
        yield { type: "MODIFIED", object: cm("b", "11") } as WatchEvent;
      },
      async function* () {
        yield* [];
        throw new ApiError(410, "Expired", "too old resource version: 11 (15)");
      },
    );
    const seen: string[] = [];
    const informer = new Informer(client, { apiVersion: "v1", kind: "ConfigMap", retryMs: 1 });
    informer.addHandlers({
      onAdd: (o) => seen.push(`add ${o.metadata.name}`),
      onUpdate: (_o, n) => seen.push(`update ${n.metadata.name} ${n.metadata.resourceVersion}`),
      onDelete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    const stop = new AbortController();
    const running = informer.run(stop.signal);
    const deadline = Date.now() + 2000;
    while (!seen.includes("add c") && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await running;
    assert.deepEqual(seen, ["add a", "add b", "update b 11", "add c", "delete b"]);
    assert.deepEqual(client.watchedFrom.slice(0, 3), ["10", "11", "20"]);
  });
});
