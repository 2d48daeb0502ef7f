/**
 * The plugin over a real store: policies and bindings followed by watch, Deny /
 * Warn / Audit, refusal codes and wording, bindings narrowing, params, namespace
 * selectors and objects, configuration errors, exemptions, and the compile cache.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import { ApiError } from "../../../api/index.js";
import { MemoryBackend } from "../../../storage/index.js";
import { builtinTypes } from "../../resources/builtin.js";
import { ResourceRegistry } from "../../resources/registry.js";
import type { ResourceType } from "../../resources/resource-type.js";
import { ObjectStore } from "../../store/object-store.js";
import type { AdmissionAttributes } from "../types.js";
import { ValidatingAdmissionPolicyPlugin } from "./plugin.js";
import { bindingResourceType, policyResourceType } from "./resource-types.js";

const registry = new ResourceRegistry(builtinTypes());
const typeOf = (group: string, kind: string): ResourceType => registry.byKind(group, "v1", kind)!;
const CONFIG_MAPS = typeOf("", "ConfigMap");
const NAMESPACES = typeOf("", "Namespace");

const configMap = (name: string, labels: Record<string, string> = {}, data = {}): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace: "shop", labels },
  data,
});

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const object = over.object === undefined && !("object" in over) ? configMap("c") : over.object;
  return {
    operation: "CREATE",
    type: CONFIG_MAPS,
    subresource: "",
    namespace: "shop",
    name: "c",
    oldObject: undefined,
    user: { username: "alice", groups: ["devs"] },
    dryRun: false,
    ...over,
    object,
  };
}

const allConfigMaps = {
  resourceRules: [
    { apiGroups: [""], apiVersions: ["v1"], operations: ["*"], resources: ["configmaps"] },
  ],
};

describe("ValidatingAdmissionPolicyPlugin", () => {
  let backend: MemoryBackend;
  let store: ObjectStore;
  let plugin: ValidatingAdmissionPolicyPlugin;
  let stop: AbortController;

  async function put(t: ResourceType, name: string, spec: Record<string, unknown>, extra = {}) {
    const obj: KubeObject = {
      apiVersion: `${t.group}/${t.version}`,
      kind: t.kind,
      metadata: { name, uid: `uid-${name}`, generation: 1, ...extra },
      spec,
    };
    t.prepareForCreate?.(obj);
    assert.deepEqual(t.validate?.(obj, undefined), [], "the fixture is valid");
    const current = await store.tryGet(t, undefined, name);
    if (!current) return store.create(t, obj);
    obj.metadata.generation = (current.metadata.generation ?? 1) + 1;
    return store.update(t, obj, Number(current.metadata.resourceVersion));
  }
  const policy = (name: string, spec: Record<string, unknown>) =>
    put(policyResourceType, name, { matchConstraints: allConfigMaps, ...spec });
  const binding = (name: string, spec: Record<string, unknown>) =>
    put(bindingResourceType, name, { validationActions: ["Deny"], ...spec });

  async function refusal(a: AdmissionAttributes): Promise<ApiError> {
    try {
      await plugin.validate(a);
    } catch (e) {
      if (e instanceof ApiError) return e;
      throw e;
    }
    assert.fail("expected a refusal");
  }

  before(() => {
    stop = new AbortController();
  });
  after(() => stop.abort());

  beforeEach(async () => {
    backend = new MemoryBackend();
    store = new ObjectStore(backend);
    await store.create(NAMESPACES, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "shop", labels: { env: "prod" }, managedFields: [] },
    });
    plugin = new ValidatingAdmissionPolicyPlugin(backend, registry);
    await plugin.start(stop.signal);
  });

  it("refuses with kube's wording, the validation's reason and its code", async () => {
    await policy("no-big", {
      validations: [
        {
          expression: "size(object.data) < 2",
          message: "too much data",
          reason: "RequestEntityTooLarge",
        },
      ],
    });
    await binding("no-big-binding", { policyName: "no-big" });
    assert.deepEqual(await plugin.validate(attrs()), []);
    const e = await refusal(attrs({ object: configMap("c", {}, { a: "1", b: "2" }) }));
    assert.equal(e.code, 413);
    assert.equal(e.reason, "RequestEntityTooLarge");
    const why =
      "ValidatingAdmissionPolicy 'no-big' with binding 'no-big-binding' denied request: too much data";
    assert.equal(e.message, `configmaps "c" is forbidden: ${why}`);
    assert.deepEqual(e.details, {
      name: "c",
      group: "",
      kind: "configmaps",
      causes: [{ message: why }],
    });
  });

  it("defaults the refusal to 422 Invalid and names a group's resource", async () => {
    await put(policyResourceType, "no-leases", {
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: ["coordination.k8s.io"],
            apiVersions: ["*"],
            operations: ["DELETE"],
            resources: ["leases"],
          },
        ],
      },
      validations: [{ expression: "false" }],
    });
    await binding("b", { policyName: "no-leases" });
    const lease = typeOf("coordination.k8s.io", "Lease");
    const e = await refusal(
      attrs({
        operation: "DELETE",
        type: lease,
        name: "l",
        object: undefined,
        oldObject: configMap("l"),
      }),
    );
    assert.equal(e.code, 422);
    assert.equal(e.reason, "Invalid");
    assert.match(
      e.message,
      /^leases\.coordination\.k8s\.io "l" is forbidden: .*denied request: failed expression: false$/,
    );
  });

  it("turns Warn into warnings and ignores Audit, allowing the write", async () => {
    await policy("p", {
      validations: [{ expression: "object.metadata.name != 'c'", message: "bad name" }],
    });
    await binding("warn", { policyName: "p", validationActions: ["Warn", "Audit"] });
    await binding("audit", { policyName: "p", validationActions: ["Audit"] });
    assert.deepEqual(await plugin.validate(attrs()), [
      "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'warn': bad name",
    ]);
  });

  it("evaluates every binding; the first denial (by policy, then binding name) is reported", async () => {
    await policy("a-policy", { validations: [{ expression: "false", message: "from a" }] });
    await policy("b-policy", { validations: [{ expression: "false", message: "from b" }] });
    await binding("z", { policyName: "b-policy" });
    await binding("y", { policyName: "a-policy", validationActions: ["Warn"] });
    await binding("x", { policyName: "a-policy" });
    const e = await refusal(attrs());
    assert.match(e.message, /'a-policy' with binding 'x' denied request: from a$/);
  });

  it("skips bindings of missing policies and policies without bindings", async () => {
    await binding("orphan", { policyName: "nowhere" });
    await policy("unbound", { validations: [{ expression: "false" }] });
    assert.deepEqual(await plugin.validate(attrs()), []);
  });

  it("follows the store: updates, new bindings and deletions apply to the next request", async () => {
    await policy("p", { validations: [{ expression: "true" }] });
    await binding("b", { policyName: "p" });
    assert.deepEqual(await plugin.validate(attrs()), []);
    await policy("p", { validations: [{ expression: "false" }] });
    await refusal(attrs());
    const b = await store.get(bindingResourceType, undefined, "b");
    await store.remove(bindingResourceType, b, Number(b.metadata.resourceVersion));
    assert.deepEqual(await plugin.validate(attrs()), []);
  });

  it("compiles a policy once per generation", async () => {
    await policy("p", { validations: [{ expression: "true" }] });
    await binding("b", { policyName: "p" });
    for (let i = 0; i < 3; i++) await plugin.validate(attrs());
    assert.equal(plugin.cache.compilations, 1);
    const p = await store.get(policyResourceType, undefined, "p");
    p.metadata.labels = { touched: "yes" };
    await store.update(policyResourceType, p, Number(p.metadata.resourceVersion));
    await plugin.validate(attrs());
    assert.equal(plugin.cache.compilations, 1, "a label change keeps the generation");
    await policy("p", { validations: [{ expression: "1 == 1" }] });
    await plugin.validate(attrs());
    assert.equal(plugin.cache.compilations, 2);
  });

  it("lets a binding's matchResources narrow the policy", async () => {
    await policy("p", { validations: [{ expression: "false" }] });
    await binding("b", {
      policyName: "p",
      matchResources: { objectSelector: { matchLabels: { guarded: "yes" } } },
    });
    assert.deepEqual(await plugin.validate(attrs()), []);
    await refusal(attrs({ object: configMap("c", { guarded: "yes" }) }));
  });

  it("matches namespace selectors and exposes namespaceObject and request", async () => {
    await policy("p", {
      validations: [
        {
          expression:
            "namespaceObject.metadata.labels.env == 'prod' && request.userInfo.username == 'alice' && request.namespace == 'shop' && request.resource.resource == 'configmaps' && !has(namespaceObject.metadata.managedFields)",
        },
      ],
    });
    await binding("b", {
      policyName: "p",
      matchResources: { namespaceSelector: { matchLabels: { env: "prod" } } },
    });
    assert.deepEqual(await plugin.validate(attrs()), []);
    await refusal(attrs({ user: { username: "bob", groups: [] } }));
    assert.deepEqual(
      await plugin.validate(
        attrs({ namespace: "elsewhere", user: { username: "bob", groups: [] } }),
      ),
      [],
      "a namespace that does not match (here: does not exist) is not validated",
    );
  });

  it("reads the request's namespace through the lookup it is given (the apiserver's cache)", async () => {
    const cached = new ValidatingAdmissionPolicyPlugin(backend, registry, undefined, {
      lookup: async (name) => ({
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name, labels: { env: "prod", tier: "from-cache" } },
      }),
    });
    await cached.start(stop.signal);
    await policy("p", {
      validations: [{ expression: "namespaceObject.metadata.labels.tier == 'from-cache'" }],
    });
    await binding("b", {
      policyName: "p",
      matchResources: { namespaceSelector: { matchLabels: { env: "prod" } } },
    });
    assert.deepEqual(await cached.validate(attrs()), []);
    // The stored namespace has no such label: the plugin reading storage refuses.
    await refusal(attrs());
  });

  it("feeds params by name, by selector, and applies parameterNotFoundAction", async () => {
    for (const [name, max] of [
      ["limits", "1"],
      ["strict", "0"],
    ] as const)
      await store.create(CONFIG_MAPS, {
        ...configMap(name, { role: "limits" }, { max }),
        metadata: { name, namespace: "shop", labels: { role: "limits" } },
      });
    await policy("p", {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      matchConstraints: {
        resourceRules: [{ ...allConfigMaps.resourceRules[0], operations: ["UPDATE"] }],
      },
      validations: [
        {
          expression: "size(object.data) <= int(params.data.max)",
          messageExpression: "'at most ' + params.data.max",
        },
      ],
    });
    const update = (n: number) =>
      attrs({
        operation: "UPDATE",
        object: configMap(
          "c",
          {},
          Object.fromEntries([...Array(n).keys()].map((i) => [`k${i}`, "v"])),
        ),
        oldObject: configMap("c"),
      });
    await binding("by-name", {
      policyName: "p",
      paramRef: { name: "limits", parameterNotFoundAction: "Deny" },
    });
    assert.deepEqual(await plugin.validate(update(1)), []);
    assert.match((await refusal(update(2))).message, /denied request: at most 1$/);

    await binding("by-name", {
      policyName: "p",
      paramRef: { selector: { matchLabels: { role: "limits" } }, parameterNotFoundAction: "Deny" },
    });
    assert.match(
      (await refusal(update(1))).message,
      /denied request: at most 0$/,
      "every param must pass",
    );

    await binding("by-name", {
      policyName: "p",
      paramRef: { name: "absent", parameterNotFoundAction: "Deny" },
    });
    assert.match(
      (await refusal(update(0))).message,
      /'p' with binding 'by-name' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/,
    );
    await binding("by-name", {
      policyName: "p",
      paramRef: { name: "absent", parameterNotFoundAction: "Allow" },
    });
    assert.deepEqual(await plugin.validate(update(9)), []);
  });

  it("applies failurePolicy to configuration errors", async () => {
    await policy("p", {
      paramKind: { apiVersion: "example.com/v1", kind: "Nothing" },
      validations: [{ expression: "true" }],
    });
    await binding("b", {
      policyName: "p",
      paramRef: { name: "x", parameterNotFoundAction: "Deny" },
    });
    assert.match(
      (await refusal(attrs())).message,
      /ValidatingAdmissionPolicy 'p' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com\/v1, Kind=Nothing'$/,
    );
    await policy("p", {
      failurePolicy: "Ignore",
      paramKind: { apiVersion: "example.com/v1", kind: "Nothing" },
      validations: [{ expression: "true" }],
    });
    assert.deepEqual(await plugin.validate(attrs()), []);
  });

  it("stops following the store when its signal aborts", async () => {
    const own = new AbortController();
    const fresh = new ValidatingAdmissionPolicyPlugin(backend, registry);
    await fresh.start(own.signal);
    own.abort();
    await policy("p", { validations: [{ expression: "false" }] });
    await binding("b", { policyName: "p" });
    assert.deepEqual(await fresh.validate(attrs()), [], "writes after the abort are not seen");
    await refusal(attrs());
  });

  it("guards a Namespace on its own labels, and never its policies and bindings", async () => {
    await put(policyResourceType, "guard", {
      matchConstraints: {
        resourceRules: [
          { apiGroups: ["*"], apiVersions: ["*"], operations: ["DELETE"], resources: ["*/*"] },
        ],
      },
      validations: [{ expression: "false", message: "blocked" }],
    });
    await binding("guard", {
      policyName: "guard",
      matchResources: { objectSelector: { matchLabels: { keep: "true" } } },
    });
    const ns = {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "keepme", labels: { keep: "true" } },
    };
    const del = (type: ResourceType, old: KubeObject) =>
      attrs({
        operation: "DELETE",
        type,
        namespace: "",
        name: old.metadata.name!,
        object: undefined,
        oldObject: old,
      });
    assert.match(
      (await refusal(del(NAMESPACES, ns))).message,
      /^namespaces "keepme" is forbidden: .*: blocked$/,
    );
    const guarded = { ...ns, metadata: { name: "guard", labels: { keep: "true" } } };
    assert.deepEqual(await plugin.validate(del(policyResourceType, guarded)), []);
    assert.deepEqual(await plugin.validate(del(bindingResourceType, guarded)), []);
  });
});
