/**
 * The object store on the memory backend: storage errors become the API's typed
 * errors (404, 409 AlreadyExists, 409 Conflict, 410 Expired), lists page at one
 * revision with continue tokens and remainingItemCount, filtered pages are filled
 * by reading on, and reads at a revision honour resourceVersion and
 * resourceVersionMatch as kube-apiserver does.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  AlreadyExistsError,
  ConflictError,
  ExpiredError,
  type KubeObject,
  NotFoundError,
} from "../../api/index.js";
import { MemoryBackend } from "../../storage/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import type { ResourceType } from "../resources/resource-type.js";
import { decodeContinue } from "./continue-token.js";
import { collectionPrefix, listPrefix, objectKey } from "./keys.js";
import { type ListPage, ObjectStore } from "./object-store.js";

const registry = new ResourceRegistry(builtinTypes());
const configMaps = registry.lookup("", "v1", "configmaps")!;
const namespaces = registry.lookup("", "v1", "namespaces")!;
const roles = registry.lookup("rbac.authorization.k8s.io", "v1", "roles")!;

const configMap = (namespace: string, name: string, value = "1"): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name,
    namespace,
    labels: { parity: Number(name.replace(/\D/g, "")) % 2 ? "odd" : "even" },
  },
  data: { value },
});
const rv = (obj: KubeObject) => Number(obj.metadata.resourceVersion);
const names = (page: ListPage) => page.items.map((o) => o.metadata.name);

describe("storage keys of API objects", () => {
  it("puts the group, plural, namespace and name in the key", () => {
    assert.equal(collectionPrefix(configMaps), "/registry/core/configmaps/");
    assert.equal(objectKey(configMaps, "ns", "a"), "/registry/core/configmaps/ns/a");
    assert.equal(objectKey(namespaces, undefined, "ns"), "/registry/core/namespaces/ns");
    assert.equal(objectKey(roles, "ns", "r"), "/registry/rbac.authorization.k8s.io/roles/ns/r");
    // A namespace's list ends in "/", so namespace "a" does not take in "ab".
    assert.equal(listPrefix(configMaps, "a"), "/registry/core/configmaps/a/");
    assert.equal(listPrefix(configMaps), "/registry/core/configmaps/");
    assert.equal(listPrefix(namespaces, "ignored"), "/registry/core/namespaces/");
  });
});

describe("ObjectStore", () => {
  let backend: MemoryBackend;
  let store: ObjectStore;

  beforeEach(() => {
    backend = new MemoryBackend();
    store = new ObjectStore(backend);
  });
  afterEach(() => backend.close());

  /** Creates cm-0 … cm-(n-1) in `namespace`. */
  async function createMany(n: number, namespace = "a"): Promise<KubeObject[]> {
    const out: KubeObject[] = [];
    for (let i = 0; i < n; i++) {
      out.push(
        await store.create(configMaps, configMap(namespace, `cm-${String(i).padStart(3, "0")}`)),
      );
    }
    return out;
  }

  it("creates, reads and stores without the resourceVersion, which is the revision", async () => {
    const created = await store.create(configMaps, {
      ...configMap("a", "x"),
      metadata: { name: "x", namespace: "a", resourceVersion: "999" },
    });
    assert.equal(rv(created), await backend.currentRevision());
    const raw = await backend.get(objectKey(configMaps, "a", "x"));
    assert.equal(JSON.parse(raw!.value).metadata.resourceVersion, undefined);
    assert.deepEqual(await store.get(configMaps, "a", "x"), created);
    assert.deepEqual(await store.tryGet(configMaps, "a", "x"), created);
    assert.equal(await store.tryGet(configMaps, "b", "x"), undefined);
  });

  it("turns storage refusals into the API's typed errors", async () => {
    const first = await store.create(configMaps, configMap("a", "x"));
    const second = await store.update(configMaps, { ...first, data: { value: "2" } }, rv(first));
    const cases: [string, () => Promise<unknown>, new (...a: never[]) => Error, RegExp][] = [
      [
        "create",
        () => store.create(configMaps, configMap("a", "x")),
        AlreadyExistsError,
        /configmaps "x" already exists/,
      ],
      [
        "get",
        () => store.get(configMaps, "a", "nope"),
        NotFoundError,
        /configmaps "nope" not found/,
      ],
      [
        "stale update",
        () => store.update(configMaps, first, rv(first)),
        ConflictError,
        /has been modified/,
      ],
      [
        "update of a missing object",
        () => store.update(configMaps, configMap("a", "nope"), 1),
        NotFoundError,
        /not found/,
      ],
      [
        "stale remove",
        () => store.remove(configMaps, second, rv(first)),
        ConflictError,
        /has been modified/,
      ],
      [
        "remove of a missing object",
        () => store.remove(configMaps, configMap("b", "x"), 1),
        NotFoundError,
        /not found/,
      ],
      [
        "role in its group",
        () => store.get(roles, "a", "r"),
        NotFoundError,
        /roles\.rbac\.authorization\.k8s\.io "r" not found/,
      ],
    ];
    for (const [what, call, type, message] of cases) {
      const error = await call().catch((e: unknown) => e);
      assert.ok(error instanceof type, `${what}: ${String(error)}`);
      assert.match(error.message, message, what);
    }
    assert.deepEqual(await store.get(configMaps, "a", "x"), second);
    const removed = await store.remove(configMaps, second, rv(second));
    assert.equal((removed.data as { value: string }).value, "2");
    assert.ok(rv(removed) > rv(second));
    assert.equal(await store.count(configMaps, "a"), 0);
  });

  it("pages a list at the first page's revision, with continue and remainingItemCount", async () => {
    await createMany(7);
    await store.create(configMaps, configMap("ab", "cm-000"));
    const first = await store.list(configMaps, { namespace: "a", limit: 3 });
    assert.deepEqual(names(first), ["cm-000", "cm-001", "cm-002"]);
    assert.equal(first.remainingItemCount, 4);
    assert.deepEqual(decodeContinue(first.continue!, listPrefix(configMaps, "a")), {
      revision: Number(first.resourceVersion),
      after: objectKey(configMaps, "a", "cm-002"),
    });
    // Later writes do not show in the later pages of this list.
    await store.create(configMaps, configMap("a", "cm-0025"));
    const gone = await store.get(configMaps, "a", "cm-004");
    await store.remove(configMaps, gone, rv(gone));
    const second = await store.list(configMaps, {
      namespace: "a",
      limit: 3,
      continue: first.continue,
    });
    assert.deepEqual(names(second), ["cm-003", "cm-004", "cm-005"]);
    assert.equal(second.resourceVersion, first.resourceVersion);
    const third = await store.list(configMaps, {
      namespace: "a",
      limit: 3,
      continue: second.continue,
    });
    assert.deepEqual(names(third), ["cm-006"]);
    assert.equal(third.continue, undefined);
    assert.equal(third.remainingItemCount, undefined);
    // Across namespaces, and now.
    const all = await store.list(configMaps, {});
    assert.equal(all.items.length, 8);
    assert.equal(all.resourceVersion, String(await backend.currentRevision()));
    assert.equal(all.continue, undefined);
  });

  it("ends a page exactly at the last item without a continue token", async () => {
    await createMany(4);
    const page = await store.list(configMaps, { namespace: "a", limit: 4 });
    assert.equal(page.items.length, 4);
    assert.equal(page.continue, undefined);
    const raw = await store.listRaw(configMaps, { namespace: "a", limit: 2 });
    assert.equal(raw!.items.length, 2);
    assert.equal(raw!.remainingItemCount, 2);
    assert.deepEqual(
      raw!.items.map((s) => JSON.parse(s)),
      (await store.list(configMaps, { namespace: "a", limit: 2 })).items,
    );
  });

  it("fills a filtered page by reading on past the backend's chunks, without remainingItemCount", async () => {
    await createMany(250);
    const odd = (o: KubeObject) => o.metadata.labels?.parity === "odd";
    const first = await store.list(configMaps, { namespace: "a", limit: 120, filter: odd });
    assert.equal(first.items.length, 120);
    assert.ok(first.items.every(odd));
    assert.equal(first.remainingItemCount, undefined);
    const rest = await store.list(configMaps, {
      namespace: "a",
      limit: 120,
      filter: odd,
      continue: first.continue,
    });
    assert.equal(rest.items.length, 5);
    assert.equal(rest.continue, undefined);
    assert.equal(rest.items.at(-1)!.metadata.name, "cm-249");
    // The raw path does not apply to a filtered list.
    assert.equal(await store.listRaw(configMaps, { filter: odd }), undefined);
  });

  it("reads at a resourceVersion exactly when asked to, or when paging", async () => {
    const [one] = await createMany(1);
    await store.update(configMaps, { ...one!, data: { value: "2" } }, rv(one!));
    await store.create(configMaps, configMap("a", "later"));
    const value = (page: ListPage) => page.items.map((o) => (o.data as { value: string }).value);
    const exact = await store.list(configMaps, {
      resourceVersion: rv(one!),
      resourceVersionMatch: "Exact",
    });
    assert.deepEqual(value(exact), ["1"]);
    assert.equal(exact.resourceVersion, String(rv(one!)));
    const paged = await store.list(configMaps, { resourceVersion: rv(one!), limit: 10 });
    assert.deepEqual(value(paged), ["1"]);
    // NotOlderThan (and no match without a limit) reads the newest state.
    const notOlder = await store.list(configMaps, {
      resourceVersion: rv(one!),
      resourceVersionMatch: "NotOlderThan",
    });
    assert.deepEqual(value(notOlder), ["2", "1"]);
    assert.deepEqual(value(await store.list(configMaps, { resourceVersion: rv(one!) })), [
      "2",
      "1",
    ]);
  });

  it("refuses a list or continue token older than the compacted revision with 410", async () => {
    const items = await createMany(4);
    const first = await store.list(configMaps, { namespace: "a", limit: 2 });
    await store.update(configMaps, items[0]!, rv(items[0]!));
    await backend.compact(await backend.currentRevision());
    const cases: [string, () => Promise<unknown>, RegExp][] = [
      [
        "continue",
        () => store.list(configMaps, { namespace: "a", limit: 2, continue: first.continue }),
        /continue parameter is too old/,
      ],
      [
        "exact",
        () =>
          store.list(configMaps, { resourceVersion: rv(items[0]!), resourceVersionMatch: "Exact" }),
        new RegExp(`too old resource version: ${rv(items[0]!)} \\(\\d+\\)`),
      ],
    ];
    for (const [what, call, message] of cases) {
      const error = await call().catch((e: unknown) => e);
      assert.ok(error instanceof ExpiredError, `${what}: ${String(error)}`);
      assert.equal(error.code, 410);
      assert.match(error.message, message, what);
    }
  });

  it("waits for a resourceVersion the server has not reached, then reads", async () => {
    const [one] = await createMany(1);
    const ahead = rv(one!) + 1;
    const reading = store.get(configMaps, "a", "cm-000", ahead);
    const listing = store.list(configMaps, { resourceVersion: ahead });
    await store.create(configMaps, configMap("a", "cm-001"));
    assert.equal((await reading).metadata.name, "cm-000");
    assert.deepEqual(names(await listing), ["cm-000", "cm-001"]);
  });
});

describe("ObjectStore on a type stored as another", () => {
  // As events.k8s.io/v1 Events live in core Events' keys: a made-up Note kept as ConfigMaps.
  const notes: ResourceType = {
    ...configMaps,
    kind: "Note",
    plural: "notes",
    storage: {
      resource: { group: "", plural: "configmaps" },
      fromStorage: (obj) => ({ ...obj, kind: "Note", data: undefined, text: obj.data }),
      toStorage: ({ text, ...obj }) => ({ ...obj, kind: "ConfigMap", data: text }),
    },
  };

  it("reads and writes under the stored resource's keys, converting both ways", async () => {
    const backend = new MemoryBackend();
    try {
      const store = new ObjectStore(backend);
      const note = {
        apiVersion: "v1",
        kind: "Note",
        metadata: { name: "n", namespace: "a" },
        text: { v: "1" },
      };
      const created = await store.create(notes, note);
      assert.equal(created.kind, "Note");
      assert.deepEqual(created.text, { v: "1" });
      const asStored = await store.get(configMaps, "a", "n");
      assert.equal(asStored.kind, "ConfigMap");
      assert.deepEqual(asStored.data, { v: "1" });
      assert.equal(await backend.count("/registry/core/notes/"), 0);
      const updated = await store.update(notes, { ...created, text: { v: "2" } }, rv(created));
      assert.deepEqual((await store.get(notes, "a", "n")).text, { v: "2" });
      assert.deepEqual(names(await store.list(notes, { namespace: "a" })), ["n"]);
      // The raw LIST splices stored JSON, which is in the other form: it does not apply.
      assert.equal(await store.listRaw(notes, {}), undefined);
      await store.remove(notes, updated, rv(updated));
      assert.equal(await store.tryGet(configMaps, "a", "n"), undefined);
    } finally {
      await backend.close();
    }
  });
});
