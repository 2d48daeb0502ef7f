/**
 * The ResourceQuota plugin's charge under concurrency, on a backend whose every
 * read and write yields first (as a networked store does): requests racing for
 * the last units of a quota cannot overshoot it, a quota another writer changed
 * meanwhile is re-read and re-checked, and a dry run charges nothing. Its quota
 * cache: a namespace without quotas costs no storage read, its own charges are
 * not read back, and two apiservers whose caches lag cannot both take the last unit.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KubeObject, ResourceQuota } from "../../api/index.js";
import { ForbiddenError } from "../../api/index.js";
import type { KeyValue, ListOptions, ListResult } from "../../storage/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { ResourceRegistry } from "../resources/registry.js";
import type { ResourceType } from "../resources/resource-type.js";
import { ObjectStore } from "../store/object-store.js";
import { ResourceQuotaAdmission } from "./resource-quota.js";
import type { AdmissionAttributes } from "./types.js";

const tick = () => new Promise((r) => setImmediate(r));

/** A backend that yields before each read and write, and can run a hook before an update. */
class YieldingBackend extends LaggingBackend {
  beforeUpdate?: (key: string) => Promise<void>;

  override async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    await tick();
    return super.list(prefix, options);
  }

  override async update(key: string, value: string, expected: number): Promise<KeyValue> {
    await tick();
    const hook = this.beforeUpdate;
    this.beforeUpdate = undefined;
    await hook?.(key);
    return super.update(key, value, expected);
  }
}

const stops: AbortController[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
});

/** A started plugin (an apiserver's) on `backend`. */
async function startPlugin(backend: LaggingBackend, registry: ResourceRegistry) {
  const plugin = new ResourceQuotaAdmission(backend, registry);
  const stop = new AbortController();
  stops.push(stop);
  await plugin.start(stop.signal);
  return plugin;
}

async function setUp(hard: Record<string, string>, used: Record<string, string>) {
  const backend = new YieldingBackend();
  const registry = new ResourceRegistry(builtinTypes());
  const store = new ObjectStore(backend);
  const quotaType = registry.lookup("", "v1", "resourcequotas")!;
  const podType = registry.lookup("", "v1", "pods")!;
  const quota: ResourceQuota = {
    apiVersion: "v1",
    kind: "ResourceQuota",
    metadata: { name: "q", namespace: "ns" },
    spec: { hard },
    status: { hard, used },
  };
  await store.create(quotaType, quota);
  const stored = async () => (await store.get(quotaType, "ns", "q")) as ResourceQuota;
  return {
    backend,
    registry,
    store,
    quotaType,
    podType,
    stored,
    plugin: await startPlugin(backend, registry),
  };
}

function createPod(
  type: ResourceType,
  name: string,
  dryRun = false,
  namespace = "ns",
): AdmissionAttributes {
  const object: KubeObject = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace },
    spec: { containers: [{ name: "app", resources: { requests: { cpu: "100m" } } }] },
  };
  return {
    operation: "CREATE",
    type,
    subresource: "",
    namespace,
    name,
    object,
    oldObject: undefined,
    user: { username: "alice", groups: [] },
    dryRun,
  };
}

describe("ResourceQuota admission", () => {
  it("admits exactly the quota's worth of pods created at once", async () => {
    const { plugin, podType, stored } = await setUp(
      { pods: "2", "requests.cpu": "1" },
      { pods: "0", "requests.cpu": "0" },
    );
    const names = ["p1", "p2", "p3", "p4", "p5", "p6"];
    const results = await Promise.allSettled(
      names.map((n) => plugin.validate(createPod(podType, n))),
    );
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 2);
    for (const r of results)
      if (r.status === "rejected") {
        assert.ok(r.reason instanceof ForbiddenError);
        assert.match(
          r.reason.message,
          /is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2$/,
        );
      }
    assert.deepEqual((await stored()).status?.used, { pods: "2", "requests.cpu": "200m" });
  });

  it("re-reads a quota another writer changed and checks it again", async () => {
    const { backend, store, quotaType, plugin, podType, stored } = await setUp(
      { pods: "2" },
      { pods: "0" },
    );
    // The controller measures one pod just before admission writes its charge.
    backend.beforeUpdate = async () => {
      const q = (await store.get(quotaType, "ns", "q")) as ResourceQuota;
      q.status = { hard: { pods: "2" }, used: { pods: "1" } };
      await store.update(quotaType, q, Number(q.metadata.resourceVersion));
    };
    await plugin.validate(createPod(podType, "p1"));
    assert.deepEqual((await stored()).status?.used, { pods: "2" });
    await assert.rejects(plugin.validate(createPod(podType, "p2")), /exceeded quota: q/);
  });

  it("charges a claim's growth on update, and refuses growth past the limit", async () => {
    const { plugin, stored, quotaType } = await setUp(
      { "requests.storage": "10Gi" },
      { "requests.storage": "4Gi" },
    );
    const claimType = {
      ...quotaType,
      kind: "PersistentVolumeClaim",
      plural: "persistentvolumeclaims",
    };
    const claim = (storage: string): KubeObject => ({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: "data", namespace: "ns", resourceVersion: "3" },
      spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage } } },
    });
    const update = (storage: string): AdmissionAttributes => ({
      ...createPod(claimType, "data"),
      operation: "UPDATE",
      object: claim(storage),
      oldObject: claim("4Gi"),
    });
    await plugin.validate(update("6Gi"));
    assert.deepEqual((await stored()).status?.used, { "requests.storage": "6Gi" });
    await assert.rejects(
      plugin.validate(update("12Gi")),
      /persistentvolumeclaims "data" is forbidden: exceeded quota: q, requested: requests.storage=8Gi, used: requests.storage=6Gi, limited: requests.storage=10Gi/,
    );
  });

  it("checks a dry run without charging it", async () => {
    const { plugin, podType, stored } = await setUp({ pods: "1" }, { pods: "0" });
    await plugin.validate(createPod(podType, "p1", true));
    assert.deepEqual((await stored()).status?.used, { pods: "0" });
  });

  it("reads no storage for a namespace without quotas", async () => {
    const { backend, plugin, podType } = await setUp({ pods: "1" }, { pods: "0" });
    backend.reads = 0;
    await plugin.validate(createPod(podType, "p1", false, "free"));
    await plugin.validate(createPod(podType, "p2", false, "free"));
    assert.equal(backend.reads, 0);
  });

  it("charges back-to-back from its own writes, without waiting for or re-reading them", async () => {
    const { backend, plugin, podType, stored } = await setUp({ pods: "2" }, { pods: "0" });
    backend.hold();
    backend.reads = 0;
    await plugin.validate(createPod(podType, "p1"));
    await plugin.validate(createPod(podType, "p2"));
    await assert.rejects(plugin.validate(createPod(podType, "p3")), /exceeded quota: q/);
    assert.equal(backend.reads, 0);
    assert.deepEqual((await stored()).status?.used, { pods: "2" });
  });

  it("lets two apiservers whose caches lag take the last unit only once", async () => {
    const { backend, registry, plugin, podType, stored } = await setUp(
      { pods: "2" },
      { pods: "1" },
    );
    const other = await startPlugin(backend, registry);
    backend.hold();
    await plugin.validate(createPod(podType, "p1"));
    // The other apiserver's cache still says pods=1: its charge conflicts, it re-reads, refuses.
    await assert.rejects(
      other.validate(createPod(podType, "p2")),
      (e) => e instanceof ForbiddenError && /exceeded quota: q/.test(e.message),
    );
    assert.deepEqual((await stored()).status?.used, { pods: "2" });
  });

  it("ignores a quota deleted through another apiserver that its cache still has", async () => {
    const { backend, store, quotaType, plugin, podType } = await setUp(
      { pods: "2" },
      { pods: "1" },
    );
    backend.hold();
    const q = await store.get(quotaType, "ns", "q");
    await store.remove(quotaType, q, Number(q.metadata.resourceVersion));
    // Its charge finds the quota gone (404), which does not refuse the pod.
    await plugin.validate(createPod(podType, "p1"));
  });

  it("charges in different namespaces without waiting for each other", {
    timeout: 20_000,
  }, async () => {
    const { backend, store, quotaType, plugin, podType, stored } = await setUp(
      { pods: "2" },
      { pods: "0" },
    );
    await store.create(quotaType, {
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "q", namespace: "other" },
      spec: { hard: { pods: "2" } },
      status: { hard: { pods: "2" }, used: { pods: "0" } },
    });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let reached!: () => void;
    const atUpdate = new Promise<void>((resolve) => {
      reached = resolve;
    });
    backend.beforeUpdate = () => {
      reached();
      return gate;
    };
    // A charge in "ns" stalls in its quota write; one in "other" goes ahead of it.
    const first = plugin.validate(createPod(podType, "p1"));
    await atUpdate;
    await plugin.validate(createPod(podType, "p2", false, "other"));
    open();
    await first;
    assert.deepEqual((await stored()).status?.used, { pods: "1" });
  });
});
