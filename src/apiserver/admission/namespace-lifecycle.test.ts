/**
 * NamespaceLifecycle answers from its watch-fed cache: a known namespace costs
 * no storage read, one the cache has not seen yet (created through another
 * apiserver) is read from storage, a missing one is NotFound, and one being
 * deleted is refused with kube's message — at once when the deletion went
 * through this apiserver, however late the watch.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KubeObject } from "../../api/index.js";
import { ForbiddenError, NotFoundError } from "../../api/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import { syncedWrites } from "../store/cache-sync.js";
import { ObjectStore } from "../store/object-store.js";
import { NamespaceLifecycle } from "./namespace-lifecycle.js";

const registry = new ResourceRegistry(builtinTypes());
const namespaces = registry.lookup("", "v1", "namespaces")!;
const configMaps = registry.lookup("", "v1", "configmaps")!;

const namespace = (name: string): KubeObject => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name },
});

describe("NamespaceLifecycle", () => {
  let backend: LaggingBackend;
  let store: ObjectStore;
  let controller: AbortController;
  let lifecycle: NamespaceLifecycle;

  beforeEach(async () => {
    backend = new LaggingBackend();
    store = new ObjectStore(backend);
    controller = new AbortController();
    await store.create(namespaces, namespace("known"));
    lifecycle = new NamespaceLifecycle(backend);
    await lifecycle.start(controller.signal);
    backend.reads = 0;
  });
  afterEach(async () => {
    controller.abort();
    await backend.close();
  });

  it("accepts content in a cached namespace without reading storage", async () => {
    await lifecycle.checkAcceptsContent(configMaps, "known");
    await store.create(namespaces, namespace("followed"));
    backend.reads = 0;
    await lifecycle.checkAcceptsContent(configMaps, "followed");
    assert.equal(backend.reads, 0);
  });

  it("reads storage for a namespace its cache has not seen, and refuses a missing one", async () => {
    backend.hold();
    await store.create(namespaces, namespace("elsewhere"));
    await lifecycle.checkAcceptsContent(configMaps, "elsewhere");
    assert.equal(backend.reads, 1);
    await assert.rejects(
      lifecycle.checkAcceptsContent(configMaps, "missing"),
      (e) => e instanceof NotFoundError && /namespaces "missing" not found/.test(e.message),
    );
  });

  it("refuses content in a namespace being deleted through this apiserver, however late the watch", async () => {
    backend.hold();
    const synced = new ObjectStore(syncedWrites(backend, [lifecycle.followed()]));
    const ns = await store.get(namespaces, undefined, "known");
    let returned = false;
    const marked = synced
      .update(
        namespaces,
        { ...ns, metadata: { ...ns.metadata, deletionTimestamp: "2026-01-01T00:00:00Z" } },
        Number(ns.metadata.resourceVersion),
      )
      .then(() => {
        returned = true;
      });
    await store.get(namespaces, undefined, "known");
    assert.equal(returned, false, "the delete waits for the cache");
    backend.release();
    await marked;
    await assert.rejects(
      lifecycle.checkAcceptsContent(configMaps, "known"),
      (e) =>
        e instanceof ForbiddenError &&
        e.message ===
          'configmaps "" is forbidden: unable to create new content in namespace known because it is being terminated',
    );
  });
});
