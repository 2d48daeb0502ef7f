/**
 * The watch-fed object cache: it loads a collection and follows creates,
 * updates and deletes by namespace; a write it is told of (`remember`) shows at
 * once and is neither undone by the older events the watch still brings nor
 * replaced by a stale copy; and a broken watch is replaced by a relist that
 * forgets what was deleted meanwhile.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KubeObject } from "../../api/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import { ObjectCache } from "./object-cache.js";
import { ObjectStore } from "./object-store.js";

const registry = new ResourceRegistry(builtinTypes());
const configMaps = registry.lookup("", "v1", "configmaps")!;

function configMap(namespace: string, name: string, value = "1"): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace }, data: { value } };
}

const names = (objs: KubeObject[]) => objs.map((o) => o.metadata.name);
const dataValue = (obj: KubeObject | undefined) =>
  (obj?.data as { value: string } | undefined)?.value;

describe("ObjectCache", () => {
  let backend: LaggingBackend;
  let store: ObjectStore;
  let controller: AbortController;
  let cache: ObjectCache;

  beforeEach(() => {
    backend = new LaggingBackend();
    store = new ObjectStore(backend);
    controller = new AbortController();
    cache = new ObjectCache(backend, configMaps);
  });
  afterEach(async () => {
    controller.abort();
    await backend.close();
  });

  it("loads what is stored, then follows creates, updates and deletes by namespace", async () => {
    await store.create(configMaps, configMap("a", "early"));
    await cache.start(controller.signal);
    assert.deepEqual(names(cache.list("a")), ["early"]);

    const x = await store.create(configMaps, configMap("a", "x"));
    await store.create(configMaps, configMap("a", "b"));
    await store.create(configMaps, configMap("b", "x"));
    assert.deepEqual(names(cache.list("a")), ["b", "early", "x"], "in name order");
    assert.deepEqual(names(cache.list("b")), ["x"]);
    assert.deepEqual(cache.list("c"), []);

    await store.update(
      configMaps,
      { ...x, data: { value: "2" } },
      Number(x.metadata.resourceVersion),
    );
    assert.equal(dataValue(cache.get("a", "x")), "2");
    const bx = await store.get(configMaps, "b", "x");
    await store.remove(configMaps, bx, Number(bx.metadata.resourceVersion));
    assert.deepEqual(cache.list("b"), []);
    assert.equal(cache.get("b", "x"), undefined);
    assert.equal(cache.progress.revision, await backend.currentRevision());
  });

  it("shows a remembered write at once, and keeps it over older events and stale copies", async () => {
    const first = await store.create(configMaps, configMap("a", "x", "1"));
    await cache.start(controller.signal);
    backend.hold();
    const rv = (o: KubeObject) => Number(o.metadata.resourceVersion);
    // Another writer's change, then ours; the watch has delivered neither.
    const second = await store.update(configMaps, { ...first, data: { value: "2" } }, rv(first));
    const third = await store.update(configMaps, { ...second, data: { value: "3" } }, rv(second));
    assert.equal(dataValue(cache.get("a", "x")), "1");
    cache.remember(third);
    assert.equal(dataValue(cache.get("a", "x")), "3");
    backend.release(1);
    assert.equal(dataValue(cache.get("a", "x")), "3", "an older event does not undo it");
    backend.release();
    assert.equal(dataValue(cache.get("a", "x")), "3");
    // A copy older than what the watch delivered is ignored; a newer write shows.
    cache.remember(second);
    assert.equal(cache.get("a", "x")?.metadata.resourceVersion, third.metadata.resourceVersion);
    await store.update(configMaps, { ...third, data: { value: "4" } }, rv(third));
    assert.equal(dataValue(cache.get("a", "x")), "4");
  });

  it("relists after its watch breaks, forgetting what was deleted meanwhile", async () => {
    const gone = await store.create(configMaps, configMap("a", "gone"));
    await cache.start(controller.signal);
    backend.hold();
    backend.breakWatches();
    await store.remove(configMaps, gone, Number(gone.metadata.resourceVersion));
    const kept = await store.create(configMaps, configMap("a", "new"));
    backend.release();
    await cache.progress.reached(Number(kept.metadata.resourceVersion), 5_000);
    assert.deepEqual(names(cache.list("a")), ["new"]);
    // And it follows again.
    await store.create(configMaps, configMap("a", "later"));
    assert.deepEqual(names(cache.list("a")), ["later", "new"]);
  });
});
