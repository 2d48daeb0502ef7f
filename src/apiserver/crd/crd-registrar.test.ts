/**
 * The CRD registrar on a watch-fed memory backend: it serves stored CRDs at
 * start and follows new ones, updates and deletions; a CRD marked for deletion
 * stays served as `terminating` while its objects are removed (those with
 * finalizers marked and waited for), then loses its cleanup finalizer and goes;
 * and a relist after a broken watch forgets CRDs deleted meanwhile.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KubeObject } from "../../api/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import { decodeObject, encodeObject } from "../store/object-store.js";
import { CRD_CLEANUP_FINALIZER } from "./crd-kind.js";
import { CrdRegistrar } from "./crd-registrar.js";

const GROUP = "reg.example.com";
const crdKey = (plural: string) =>
  `/registry/apiextensions.k8s.io/customresourcedefinitions/${plural}.${GROUP}`;
const objectKey = (plural: string, name: string) => `/registry/${GROUP}/${plural}/default/${name}`;

function crd(plural: string, versions: [string, boolean][] = [["v1", true]]): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${GROUP}`, finalizers: [CRD_CLEANUP_FINALIZER] },
    spec: {
      group: GROUP,
      names: { plural, kind: "Thing" },
      scope: "Namespaced",
      versions: versions.map(([name, served], i) => ({ name, served, storage: i === 0 })),
    },
  };
}

describe("CrdRegistrar", () => {
  let backend: LaggingBackend;
  let registry: ResourceRegistry;
  let controller: AbortController;
  let registrar: CrdRegistrar;
  const served = (plural: string, version = "v1") => registry.lookup(GROUP, version, plural);
  const put = async (obj: KubeObject) => {
    const key = crdKey((obj.spec as { names: { plural: string } }).names.plural);
    const current = await backend.get(key);
    return current
      ? backend.update(key, encodeObject(obj), current.modRevision)
      : backend.create(key, encodeObject(obj));
  };
  /** Waits with a deadline until `condition` holds, checking after each storage event. */
  async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!(await condition())) {
      assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  beforeEach(() => {
    backend = new LaggingBackend();
    registry = new ResourceRegistry(builtinTypes());
    controller = new AbortController();
    registrar = new CrdRegistrar(backend, registry);
  });
  afterEach(async () => {
    controller.abort();
    await registrar.drain();
    await backend.close();
  });

  it("serves stored CRDs at start and follows creates, version changes and deletes", async () => {
    await put(crd("early"));
    await registrar.start(controller.signal);
    assert.equal(served("early")?.kind, "Thing");
    await put(
      crd("later", [
        ["v1", true],
        ["v2", false],
      ]),
    );
    assert.ok(served("later"));
    assert.equal(served("later", "v2"), undefined);
    await put(
      crd("later", [
        ["v1", true],
        ["v2", true],
      ]),
    );
    assert.ok(served("later", "v2"));
    const kv = (await backend.get(crdKey("early")))!;
    await backend.delete(kv.key, kv.modRevision);
    assert.equal(served("early"), undefined);
    assert.equal(registrar.progress.revision, await backend.currentRevision());
  });

  it("removes a deleted CRD's objects, waiting for finalizers, then the CRD itself", async () => {
    await registrar.start(controller.signal);
    await put(crd("things"));
    await backend.create(
      objectKey("things", "free"),
      encodeObject({
        apiVersion: `${GROUP}/v1`,
        kind: "Thing",
        metadata: { name: "free", namespace: "default" },
      }),
    );
    await backend.create(
      objectKey("things", "held"),
      encodeObject({
        apiVersion: `${GROUP}/v1`,
        kind: "Thing",
        metadata: { name: "held", namespace: "default", finalizers: ["example.com/hold"] },
      }),
    );
    const marked = crd("things");
    marked.metadata.deletionTimestamp = new Date().toISOString();
    await put(marked);
    assert.equal(served("things")?.terminating, true, "served, taking no new objects");
    await until(
      async () => (await backend.get(objectKey("things", "free"))) === undefined,
      "the free object to go",
    );
    await until(
      async () =>
        Boolean(
          decodeObject((await backend.get(objectKey("things", "held")))!).metadata
            .deletionTimestamp,
        ),
      "the held object to be marked",
    );
    assert.ok(await backend.get(crdKey("things")), "the CRD waits for the held object");
    // Its finalizer removed, the object goes; then the CRD loses its finalizer and goes.
    const held = (await backend.get(objectKey("things", "held")))!;
    await backend.delete(held.key, held.modRevision);
    await until(async () => (await backend.get(crdKey("things"))) === undefined, "the CRD to go");
    assert.equal(served("things"), undefined);
  });

  it("forgets on relist the CRDs deleted while its watch was broken", async () => {
    await put(crd("kept"));
    await put(crd("dropped"));
    await registrar.start(controller.signal);
    // The relist fails once (etcd down), so it reads after the deletion, a second later.
    backend.failLists = 1;
    backend.breakWatches();
    const kv = (await backend.get(crdKey("dropped")))!;
    await backend.delete(kv.key, kv.modRevision);
    const added = await put(crd("added"));
    await registrar.progress.reached(added.modRevision, 5000);
    assert.ok(served("kept"));
    assert.ok(served("added"));
    assert.equal(served("dropped"), undefined);
  });
});
