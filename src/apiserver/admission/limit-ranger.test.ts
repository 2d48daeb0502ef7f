/**
 * The LimitRanger plugin reads a namespace's LimitRanges from its watch-fed
 * cache: a new pod is defaulted and checked without a storage read, a
 * LimitRange stored later applies to the next pod, and other namespaces are
 * left alone.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { LaggingBackend } from "../../../test/support/fixtures/store.js";
import type { KubeObject, Pod } from "../../api/index.js";
import { ForbiddenError } from "../../api/index.js";
import { builtinTypes } from "../resources/builtin.js";
import { defaultLimitRange, type LimitRange } from "../resources/quota-validation.js";
import { ResourceRegistry } from "../resources/registry.js";
import { ObjectStore } from "../store/object-store.js";
import { LimitRanger } from "./limit-ranger.js";
import type { AdmissionAttributes } from "./types.js";

const registry = new ResourceRegistry(builtinTypes());
const podType = registry.lookup("", "v1", "pods")!;
const limitRangeType = registry.lookup("", "v1", "limitranges")!;

function limitRange(namespace: string, name: string, max: string): KubeObject {
  const r: LimitRange = {
    spec: { limits: [{ type: "Container", max: { cpu: max }, default: { cpu: "200m" } }] },
  };
  defaultLimitRange(r);
  return { apiVersion: "v1", kind: "LimitRange", metadata: { name, namespace }, ...r };
}

function createPod(namespace: string, limits?: Record<string, string>): AdmissionAttributes {
  const object: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace },
    spec: { containers: [{ name: "app", resources: limits ? { limits } : {} }] },
  };
  return {
    operation: "CREATE",
    type: podType,
    subresource: "",
    namespace,
    name: "p",
    object,
    oldObject: undefined,
    user: { username: "alice", groups: [] },
    dryRun: false,
  };
}

const cpuLimit = (attrs: AdmissionAttributes) =>
  (attrs.object as Pod).spec?.containers[0]?.resources?.limits?.cpu;

describe("LimitRanger", () => {
  let backend: LaggingBackend;
  let store: ObjectStore;
  let controller: AbortController;
  let plugin: LimitRanger;

  beforeEach(async () => {
    backend = new LaggingBackend();
    store = new ObjectStore(backend);
    controller = new AbortController();
    await store.create(limitRangeType, limitRange("ns", "limits", "1"));
    plugin = new LimitRanger(backend);
    await plugin.start(controller.signal);
    backend.reads = 0;
  });
  afterEach(async () => {
    controller.abort();
    await backend.close();
  });

  it("defaults and checks a new pod from its cache, without reading storage", () => {
    const defaulted = createPod("ns");
    plugin.admit(defaulted);
    assert.deepEqual(plugin.validate(defaulted), []);
    assert.equal(cpuLimit(defaulted), "200m");
    const big = createPod("ns", { cpu: "2" });
    plugin.admit(big);
    assert.throws(
      () => plugin.validate(big),
      (e) => e instanceof ForbiddenError && /maximum cpu usage per Container is 1/.test(e.message),
    );
    const elsewhere = createPod("free");
    plugin.admit(elsewhere);
    assert.equal(cpuLimit(elsewhere), undefined);
    assert.equal(backend.reads, 0);
  });

  it("applies a LimitRange stored later to the next pod", async () => {
    await store.create(limitRangeType, limitRange("free", "limits", "500m"));
    const big = createPod("free", { cpu: "1" });
    plugin.admit(big);
    assert.throws(() => plugin.validate(big), /maximum cpu usage per Container is 500m/);
  });
});
