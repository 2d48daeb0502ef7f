/**
 * The engine's one reconciler against an in-memory client (a unit test of this
 * layer; test/e2e/tenants*.test.ts drive it through a real apiserver): the
 * inventory is written before anything is applied, children carry the
 * application labels and the field manager, a new render prunes what it no
 * longer holds, and uninstall keeps its order — preDelete, delete the children
 * and wait, postDelete, drop the finalizer — with a failing hook surfaced as a
 * condition and a Warning Event, never deleting children, and Stalled after
 * repeated failures.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConflictError, NotFoundError, STALE_OBJECT_MESSAGE } from "../../api/errors.js";
import type { KubeList, KubeObject, Status } from "../../api/types.js";
import {
  type ApplyOptions,
  type Client,
  EventRecorder,
  type ListOptions,
  type ObjectRef,
  type PatchType,
  type TypeRef,
} from "../../client/index.js";
import { type Condition, findCondition } from "../../runtime/index.js";
import type { ApplicationDefinition } from "../definitions.js";
import {
  AppReconciler,
  FIELD_MANAGER,
  STALL_AFTER,
  UNINSTALL_FINALIZER,
} from "./app-reconciler.js";
import {
  APPS_API_VERSION,
  type App,
  type AppHooks,
  type AppModule,
  type HookContext,
  type HookResult,
  type InventoryEntry,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_NAME,
  LABEL_APP_UID,
  type WorkloadReport,
} from "./module.js";

interface Call {
  verb: "create" | "apply" | "patch" | "patchStatus" | "delete";
  /** `Kind namespace/name`. */
  target: string;
  body?: unknown;
  opts?: unknown;
}

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** RFC 7386 JSON merge patch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return structuredClone(patch);
  const out: Json = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const keyOf = (apiVersion: string, kind: string, name: string, namespace?: string) =>
  `${apiVersion}|${kind}|${namespace ?? ""}|${name}`;
const keyOfObject = (o: KubeObject) =>
  keyOf(o.apiVersion, o.kind, o.metadata.name!, o.metadata.namespace);
const target = (kind: string, name: string, namespace?: string) =>
  namespace ? `${kind} ${namespace}/${name}` : `${kind} ${name}`;
const targetOf = (o: KubeObject) => target(o.kind, o.metadata.name!, o.metadata.namespace);

/**
 * Objects in a Map, with what the reconciler relies on: resourceVersion
 * preconditions on patches (409 when stale), status written only through
 * patchStatus, finalizers holding a deleted object until they are removed.
 * Every write is recorded in `calls`.
 */
class MemoryClient {
  readonly objects = new Map<string, KubeObject>();
  readonly calls: Call[] = [];
  /** Makes `apply` of a child fail while it returns an error. */
  failApply: (obj: KubeObject) => Error | undefined = () => undefined;
  private revision = 0;

  /** Stores `obj` with a fresh resourceVersion; answers a copy. */
  put(obj: KubeObject): KubeObject {
    obj.metadata.resourceVersion = String(++this.revision);
    this.objects.set(keyOfObject(obj), obj);
    return structuredClone(obj);
  }

  find(apiVersion: string, kind: string, name: string, namespace?: string) {
    return this.objects.get(keyOf(apiVersion, kind, name, namespace));
  }

  private existing(apiVersion: string, kind: string, name: string, namespace?: string) {
    const obj = this.find(apiVersion, kind, name, namespace);
    if (!obj) throw new NotFoundError({ group: apiVersion.split("/")[0]!, resource: kind, name });
    return obj;
  }

  /** Removes the finalizers other controllers hold on an object, which then goes if deleted. */
  release(apiVersion: string, kind: string, name: string, namespace?: string): void {
    const obj = this.existing(apiVersion, kind, name, namespace);
    obj.metadata.finalizers = [];
    if (obj.metadata.deletionTimestamp) this.objects.delete(keyOfObject(obj));
  }

  /**
   * A merge patch (the only type the reconciler sends) behind the
   * resourceVersion precondition; `write` makes the new object from the old.
   */
  private patcher(
    verb: "patch" | "patchStatus",
    write: (obj: KubeObject, patch: Json) => KubeObject,
  ) {
    return async <T extends KubeObject>(
      { apiVersion, kind, name, namespace }: ObjectRef,
      patch: unknown,
      { type }: { type: PatchType },
    ): Promise<T> => {
      this.calls.push({ verb, target: target(kind, name, namespace), body: patch });
      assert.equal(type, "merge");
      const obj = this.existing(apiVersion, kind, name, namespace);
      const rv = ((patch as Json).metadata as Json | undefined)?.resourceVersion;
      if (rv !== undefined && rv !== obj.metadata.resourceVersion)
        throw new ConflictError({ group: "", resource: kind, name }, STALE_OBJECT_MESSAGE);
      const next = write(obj, patch as Json);
      if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
        this.objects.delete(keyOfObject(next));
        return structuredClone(next) as T;
      }
      return this.put(next) as T;
    };
  }

  client(): Client {
    const unused = (what: string) => () => {
      throw new Error(`the test client has no ${what}`);
    };
    return {
      mapper: { resolve: unused("mapper") },
      watch: unused("watch"),
      update: unused("update"),
      updateStatus: unused("updateStatus"),
      deleteCollection: unused("deleteCollection"),
      request: unused("request"),
      get: async <T extends KubeObject>({ apiVersion, kind, name, namespace }: ObjectRef) =>
        structuredClone(this.existing(apiVersion, kind, name, namespace)) as T,
      list: async <T extends KubeObject>({ apiVersion, kind }: TypeRef, opts?: ListOptions) => {
        const items = [...this.objects.values()].filter(
          (o) =>
            o.apiVersion === apiVersion &&
            o.kind === kind &&
            (opts?.namespace === undefined || o.metadata.namespace === opts.namespace),
        );
        const list = { apiVersion, kind: `${kind}List`, metadata: {}, items };
        return structuredClone(list) as KubeList<T>;
      },
      create: async <T extends KubeObject>(obj: T) => {
        this.calls.push({ verb: "create", target: targetOf(obj), body: obj });
        return this.put(structuredClone(obj)) as T;
      },
      apply: async <T extends KubeObject>(obj: KubeObject, opts: ApplyOptions) => {
        this.calls.push({ verb: "apply", target: targetOf(obj), body: obj, opts });
        const failure = this.failApply(obj);
        if (failure) throw failure;
        const old = this.objects.get(keyOfObject(obj));
        const next = structuredClone(obj);
        const m = old?.metadata;
        next.metadata.uid = m?.uid ?? `uid-${obj.metadata.name}`;
        if (m?.deletionTimestamp) next.metadata.deletionTimestamp = m.deletionTimestamp;
        if (old?.status !== undefined) next.status = old.status;
        return this.put(next) as T;
      },
      patch: this.patcher("patch", (obj, patch) => {
        const { status: _ignored, ...rest } = patch;
        const next = mergePatch(obj, rest) as KubeObject;
        if (obj.status !== undefined) next.status = obj.status;
        return next;
      }),
      patchStatus: this.patcher("patchStatus", (obj, patch) => ({
        ...obj,
        status: mergePatch(obj.status, patch.status) as Json,
      })),
      delete: async ({ apiVersion, kind, name, namespace }: ObjectRef) => {
        this.calls.push({ verb: "delete", target: target(kind, name, namespace) });
        const obj = this.existing(apiVersion, kind, name, namespace);
        if ((obj.metadata.finalizers ?? []).length > 0) {
          obj.metadata.deletionTimestamp ??= "2024-01-01T00:00:00Z";
          return this.put(obj);
        }
        this.objects.delete(keyOfObject(obj));
        return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success" } as Status;
      },
    };
  }
}

const definition: ApplicationDefinition = {
  apiVersion: "hearth.io/v1alpha1",
  kind: "ApplicationDefinition",
  metadata: { name: "widget" },
  spec: {
    application: {
      kind: "Widget",
      singular: "widget",
      plural: "widgets",
      openAPISchema: '{"type":"object"}',
    },
    release: { prefix: "widget-" },
  },
};

const KEY = "ns1/w";

interface SetUpOptions {
  hooks?: AppHooks;
  status?: (app: App) => Promise<WorkloadReport>;
  /** A finalizer each rendered child carries, held by "another controller". */
  childFinalizer?: string;
}

function setUp(opts: SetUpOptions = {}) {
  const store = new MemoryClient();
  store.put({ apiVersion: "v1", kind: "Namespace", metadata: { name: "ns1", uid: "uid-ns1" } });
  store.put({
    apiVersion: APPS_API_VERSION,
    kind: "Widget",
    metadata: { name: "w", namespace: "ns1", uid: "uid-w", generation: 1 },
    spec: { size: 1 },
  });
  const parts = { names: ["one", "two"] };
  const module: AppModule = {
    definition,
    version: "1.2.3",
    render: (app) =>
      parts.names.map((part) => ({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: `${app.metadata.name}-${part}`,
          labels: { "example.com/part": part },
          ...(opts.childFinalizer ? { finalizers: [opts.childFinalizer] } : {}),
        },
        data: { part },
      })),
    ...(opts.hooks ? { hooks: opts.hooks } : {}),
    ...(opts.status ? { status: (app: App) => opts.status!(app) } : {}),
  };
  const client = store.client();
  const events = new EventRecorder(client, { component: "apps-engine" });
  const reconciler = new AppReconciler(module, {
    client,
    events,
    cluster: {},
    appKinds: () => ["Widget"],
  });
  const signal = new AbortController().signal;
  return {
    store,
    parts,
    events,
    reconcile: () => reconciler.reconcile(signal, KEY),
    app: () => store.find(APPS_API_VERSION, "Widget", "w", "ns1") as App | undefined,
    child: (part: string) => store.find("v1", "ConfigMap", `w-${part}`, "ns1"),
    /** Deletes the app as a user would: it stays, marked, while the finalizer holds it. */
    deleteApp: async () => {
      await client.delete({
        apiVersion: APPS_API_VERSION,
        kind: "Widget",
        name: "w",
        namespace: "ns1",
      });
      store.calls.length = 0;
    },
    /** Warning Events about the app, after every write in flight has finished. */
    warnings: async () => {
      await events.flush();
      return [...store.objects.values()]
        .filter((o) => o.kind === "Event" && o.type === "Warning")
        .map((o) => ({ reason: o.reason as string, message: o.message as string }));
    },
  };
}

const entry = (part: string): InventoryEntry => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: `w-${part}`,
  namespace: "ns1",
});

function condition(app: App | undefined, type: string): Condition {
  const c = findCondition(app?.status?.conditions, type);
  assert.ok(c, `no ${type} condition on ${JSON.stringify(app?.status)}`);
  return c;
}

const verbs = (calls: Call[], verb: Call["verb"]) => calls.filter((c) => c.verb === verb);

describe("AppReconciler: install", () => {
  it("adds the finalizer and writes the inventory before applying anything", async () => {
    const t = setUp();
    await t.reconcile();
    const calls = t.store.calls.filter((c) => c.verb !== "create");
    assert.equal(calls[0]?.verb, "patch");
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);
    const firstApply = calls.findIndex((c) => c.verb === "apply");
    const writeAhead = calls.findIndex(
      (c) =>
        c.verb === "patchStatus" &&
        (c.body as { status: App["status"] }).status?.inventory?.length === 2,
    );
    assert.ok(writeAhead >= 0, "the inventory was never written");
    assert.ok(firstApply >= 0, "nothing was applied");
    assert.ok(writeAhead < firstApply, `inventory written after apply: ${JSON.stringify(calls)}`);
    assert.deepEqual((calls[writeAhead]!.body as { status: App["status"] }).status?.inventory, [
      entry("one"),
      entry("two"),
    ]);
  });

  it("applies the children under one field manager with the application labels", async () => {
    const t = setUp();
    await t.reconcile();
    const applies = verbs(t.store.calls, "apply");
    assert.deepEqual(
      applies.map((c) => c.target),
      ["ConfigMap ns1/w-one", "ConfigMap ns1/w-two"],
    );
    for (const c of applies) assert.deepEqual(c.opts, { fieldManager: FIELD_MANAGER, force: true });
    for (const part of ["one", "two"]) {
      const child = t.child(part);
      assert.ok(child, `w-${part} was not created`);
      assert.deepEqual(child.metadata.labels, {
        "example.com/part": part,
        [LABEL_APP_KIND]: "Widget",
        [LABEL_APP_GROUP]: "apps.cozystack.io",
        [LABEL_APP_NAME]: "w",
        [LABEL_APP_UID]: "uid-w",
      });
      assert.deepEqual(child.data, { part });
    }
  });

  it("reports Released, WorkloadsReady and Ready, the version and the inventory", async () => {
    const t = setUp();
    const result = await t.reconcile();
    assert.ok((result.requeueAfter ?? 0) > 0, "a ready app is not resynced");
    const app = t.app();
    for (const type of ["Released", "WorkloadsReady", "Ready"]) {
      const c = condition(app, type);
      assert.equal(c.status, "True", type);
      assert.equal(c.observedGeneration, 1, type);
    }
    assert.equal(condition(app, "Released").message, "2 objects applied");
    assert.equal(condition(app, "Ready").reason, "Ready");
    assert.equal(app?.status?.version, "1.2.3");
    assert.equal(app?.status?.observedGeneration, 1);
    assert.deepEqual(app?.status?.inventory, [entry("one"), entry("two")]);
  });

  it("writes nothing but the children when nothing changed", async () => {
    const t = setUp();
    await t.reconcile();
    t.store.calls.length = 0;
    await t.reconcile();
    assert.deepEqual(
      t.store.calls.map((c) => c.verb),
      ["apply", "apply"],
    );
  });

  it("reports what the module's status says about its workloads", async () => {
    const t = setUp({
      status: async () => ({
        ready: false,
        reason: "PodsPending",
        message: "2 pods are pending: no node has room",
        fields: { endpoint: "w.ns1.svc" },
      }),
    });
    await t.reconcile();
    const app = t.app();
    assert.equal(condition(app, "Released").status, "True");
    assert.deepEqual(
      [condition(app, "WorkloadsReady"), condition(app, "Ready")].map((c) => [
        c.status,
        c.reason,
        c.message,
      ]),
      [
        ["False", "PodsPending", "2 pods are pending: no node has room"],
        ["False", "PodsPending", "2 pods are pending: no node has room"],
      ],
    );
    assert.equal(app?.status?.endpoint, "w.ns1.svc");
  });

  it("prunes a child a new render no longer holds and shrinks the inventory", async () => {
    const t = setUp();
    await t.reconcile();
    t.parts.names = ["one"];
    t.store.calls.length = 0;
    await t.reconcile();
    assert.deepEqual(
      verbs(t.store.calls, "delete").map((c) => c.target),
      ["ConfigMap ns1/w-two"],
    );
    assert.equal(t.child("two"), undefined);
    assert.ok(t.child("one"));
    assert.deepEqual(t.app()?.status?.inventory, [entry("one")]);
    assert.equal(condition(t.app(), "Released").message, "1 objects applied");
  });

  it("keeps every planned child in the inventory when an apply fails, and stalls, then recovers", async () => {
    const t = setUp();
    t.store.failApply = (o) =>
      o.metadata.name === "w-two" ? new Error("admission webhook refused it") : undefined;
    for (let i = 1; i <= STALL_AFTER; i++) {
      await assert.rejects(t.reconcile(), /cannot apply ConfigMap ns1\/w-two: admission webhook/);
      const stalled = findCondition(t.app()?.status?.conditions, "Stalled");
      if (i < STALL_AFTER) assert.equal(stalled, undefined, `Stalled after ${i} failures`);
    }
    const app = t.app();
    assert.deepEqual(app?.status?.inventory, [entry("one"), entry("two")]);
    assert.equal(condition(app, "Ready").status, "False");
    assert.equal(condition(app, "Ready").reason, "ApplyFailed");
    const stalled = condition(app, "Stalled");
    assert.equal(stalled.status, "True");
    assert.match(stalled.message, /5 attempts in a row failed; last error: cannot apply/);
    assert.ok((await t.warnings()).some((w) => w.reason === "ApplyFailed"));

    t.store.failApply = () => undefined;
    await t.reconcile();
    assert.equal(findCondition(t.app()?.status?.conditions, "Stalled"), undefined);
    assert.equal(condition(t.app(), "Ready").status, "True");
  });
});

/** A module's hooks, each answering what the test sets next, and recording each call. */
function scriptedHooks() {
  const script = {
    pre: async (): Promise<HookResult> => ({ done: true }),
    post: async (_ctx: HookContext): Promise<HookResult> => ({ done: true }),
    calls: [] as string[],
  };
  const hooks: AppHooks = {
    permissions: [{ apiVersion: "v1", kind: "ConfigMap", verbs: ["get", "list"] }],
    preDelete: async () => {
      script.calls.push("preDelete");
      return script.pre();
    },
    postDelete: async (ctx) => {
      script.calls.push("postDelete");
      return script.post(ctx);
    },
  };
  return { script, hooks };
}

describe("AppReconciler: uninstall", () => {
  it("keeps the children while preDelete is waiting", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    script.pre = async () => ({ done: false, waitingFor: "the nightly backup to finish" });
    const result = await t.reconcile();
    assert.ok((result.requeueAfter ?? 0) > 0, "a waiting hook is not asked again");
    assert.deepEqual(verbs(t.store.calls, "delete"), []);
    assert.ok(t.child("one") && t.child("two"));
    const ready = condition(t.app(), "Ready");
    assert.deepEqual(
      [ready.status, ready.reason, ready.message],
      ["False", "PreDeleteWaiting", "waiting for the nightly backup to finish"],
    );
    assert.deepEqual(script.calls, ["preDelete"]);
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);
  });

  it("surfaces a failing preDelete, never deletes the children, and stalls after repeated failures", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    let attempt = 0;
    script.pre = async () => {
      throw new Error(`backup service unreachable (attempt ${++attempt})`);
    };
    for (let i = 1; i <= STALL_AFTER; i++) {
      await assert.rejects(t.reconcile(), /preDelete hook failed: backup service unreachable/);
      const ready = condition(t.app(), "Ready");
      assert.equal(ready.status, "False");
      assert.equal(ready.reason, "PreDeleteHookFailed");
      assert.match(ready.message, new RegExp(`attempt ${i}\\)`));
      if (i < STALL_AFTER)
        assert.equal(findCondition(t.app()?.status?.conditions, "Stalled"), undefined);
    }
    assert.deepEqual(verbs(t.store.calls, "delete"), []);
    assert.ok(t.child("one") && t.child("two"));
    assert.deepEqual(script.calls, Array(STALL_AFTER).fill("preDelete"));

    const stalled = condition(t.app(), "Stalled");
    assert.equal(stalled.status, "True");
    assert.equal(stalled.reason, "PreDeleteHookFailed");
    assert.match(
      stalled.message,
      new RegExp(
        `${STALL_AFTER} attempts in a row failed; last error: .*attempt ${STALL_AFTER}\\)`,
      ),
    );
    const warnings = await t.warnings();
    assert.equal(warnings.length, STALL_AFTER);
    for (const w of warnings) {
      assert.equal(w.reason, "PreDeleteHookFailed");
      assert.match(w.message, /preDelete hook failed: backup service unreachable/);
    }
  });

  it("fails a hook that runs past its deadline, aborting its signal", async () => {
    let aborted: boolean | undefined;
    const hooks: AppHooks = {
      permissions: [],
      deadlineMs: 20,
      preDelete: async ({ signal }) => {
        await new Promise((r) => signal.addEventListener("abort", r, { once: true }));
        aborted = signal.aborted;
        return { done: true };
      },
    };
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    await assert.rejects(t.reconcile(), /preDelete hook did not finish within 20 ms/);
    assert.equal(aborted, true);
    assert.equal(condition(t.app(), "Ready").reason, "PreDeleteHookFailed");
    assert.deepEqual(verbs(t.store.calls, "delete"), []);
  });

  it("deletes the children once preDelete is done, drops the finalizer only after they are gone, postDelete in between", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks, childFinalizer: "example.com/hold" });
    await t.reconcile();
    await t.deleteApp();
    const seenByPostDelete: string[][] = [];
    script.post = async ({ client }) => {
      const left = await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "ns1" });
      seenByPostDelete.push(left.items.map((o) => o.metadata.name!));
      return { done: true, residue: ["a snapshot in the external bucket"] };
    };

    await t.reconcile();
    assert.deepEqual(
      verbs(t.store.calls, "delete").map((c) => c.target),
      ["ConfigMap ns1/w-one", "ConfigMap ns1/w-two"],
    );
    assert.ok(t.child("one")?.metadata.deletionTimestamp, "w-one is not being deleted");
    const ready = condition(t.app(), "Ready");
    assert.equal(ready.reason, "DeletingChildren");
    assert.match(ready.message, /waiting for 2 objects to be deleted: ConfigMap ns1\/w-one/);
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);
    assert.deepEqual(script.calls, ["preDelete"]);

    t.store.calls.length = 0;
    t.store.release("v1", "ConfigMap", "w-one", "ns1");
    await t.reconcile();
    assert.deepEqual(verbs(t.store.calls, "delete"), [], "a child being deleted was deleted again");
    assert.match(
      condition(t.app(), "Ready").message,
      /waiting for 1 objects to be deleted: ConfigMap ns1\/w-two/,
    );
    assert.ok(t.app(), "the app went while a child was left");
    assert.deepEqual(script.calls, ["preDelete", "preDelete"]);

    t.store.release("v1", "ConfigMap", "w-two", "ns1");
    await t.reconcile();
    assert.equal(t.app(), undefined, "the finalizer was not removed");
    assert.deepEqual(script.calls, ["preDelete", "preDelete", "preDelete", "postDelete"]);
    assert.deepEqual(seenByPostDelete, [[]]);
    const residue = (await t.warnings()).filter((w) => w.reason === "CleanupResidue");
    assert.deepEqual(residue, [
      { reason: "CleanupResidue", message: "left behind: a snapshot in the external bucket" },
    ]);
    assert.deepEqual(await t.reconcile(), {});
  });

  it("keeps the finalizer while postDelete is waiting", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks });
    await t.reconcile();
    await t.deleteApp();
    const childrenAtPost: unknown[] = [];
    script.post = async () => {
      childrenAtPost.push(t.child("one"), t.child("two"));
      return { done: false, waitingFor: "the DNS record to expire" };
    };
    // Children without finalizers go at once, so postDelete follows in the same pass.
    await t.reconcile();
    assert.deepEqual(script.calls, ["preDelete", "postDelete"]);
    assert.deepEqual(
      childrenAtPost,
      [undefined, undefined],
      "postDelete ran before the children were gone",
    );
    const ready = condition(t.app(), "Ready");
    assert.deepEqual(
      [ready.reason, ready.message],
      ["PostDeleteWaiting", "waiting for the DNS record to expire"],
    );
    assert.deepEqual(t.app()?.metadata.finalizers, [UNINSTALL_FINALIZER]);

    script.post = async () => ({ done: true });
    await t.reconcile();
    assert.equal(t.app(), undefined);
  });

  it("clears Stalled once the failing hook succeeds", async () => {
    const { script, hooks } = scriptedHooks();
    const t = setUp({ hooks, childFinalizer: "example.com/hold" });
    await t.reconcile();
    await t.deleteApp();
    script.pre = async () => {
      throw new Error("backup service unreachable");
    };
    for (let i = 0; i < STALL_AFTER; i++) await assert.rejects(t.reconcile());
    assert.equal(condition(t.app(), "Stalled").status, "True");
    script.pre = async () => ({ done: true });
    await t.reconcile();
    assert.equal(condition(t.app(), "Ready").reason, "DeletingChildren");
    assert.equal(findCondition(t.app()?.status?.conditions, "Stalled"), undefined);
  });
});

describe("AppReconciler: acts only on its own children, whatever the status says", () => {
  /** Objects someone else made, and a forged inventory naming them beside the real children. */
  function forge(t: ReturnType<typeof setUp>) {
    const labels = { [LABEL_APP_KIND]: "Widget", [LABEL_APP_GROUP]: "apps.cozystack.io" };
    t.store.put({ apiVersion: "v1", kind: "Secret", metadata: { name: "s", namespace: "other" } });
    t.store.put({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "mine", namespace: "ns1" },
    });
    t.store.put({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "earlier",
        namespace: "ns1",
        labels: { ...labels, [LABEL_APP_NAME]: "w", [LABEL_APP_UID]: "uid-an-earlier-w" },
      },
    });
    t.store.put({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "crb", labels: { ...labels, [LABEL_APP_NAME]: "w" } },
    });
    const forged: InventoryEntry[] = [
      { apiVersion: "v1", kind: "Secret", name: "s", namespace: "other" },
      { apiVersion: "v1", kind: "ConfigMap", name: "mine", namespace: "ns1" },
      { apiVersion: "v1", kind: "ConfigMap", name: "earlier", namespace: "ns1" },
      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRoleBinding", name: "crb" },
    ];
    const app = t.app()!;
    app.status = { ...app.status, inventory: [...(app.status?.inventory ?? []), ...forged] };
    return forged;
  }
  const untouched = (t: ReturnType<typeof setUp>) => {
    assert.ok(t.store.find("v1", "Secret", "s", "other"), "the Secret in another namespace went");
    assert.ok(t.store.find("v1", "ConfigMap", "mine", "ns1"), "an unlabelled ConfigMap went");
    assert.ok(t.store.find("v1", "ConfigMap", "earlier", "ns1"), "an earlier app's child went");
    assert.ok(
      t.store.find("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "crb"),
      "a cluster-scoped object went",
    );
  };
  const ignoredWarnings = async (t: ReturnType<typeof setUp>) =>
    (await t.warnings())
      .filter((w) => w.reason === "InventoryEntryIgnored")
      .map((w) => w.message)
      .sort();

  it("prunes none of a forged inventory's entries: a Warning names each, and it is dropped", async () => {
    const t = setUp();
    await t.reconcile();
    forge(t);
    await t.reconcile();
    untouched(t);
    assert.deepEqual(t.app()?.status?.inventory, [entry("one"), entry("two")]);
    const messages = await ignoredWarnings(t);
    assert.equal(messages.length, 4, messages.join("\n"));
    assert.match(
      messages[0]!,
      /^ignored inventory entry ClusterRoleBinding crb: it is a cluster-scoped object the app does not render;/,
    );
    assert.match(
      messages[1]!,
      /ConfigMap ns1\/earlier: it belongs to another Widget of that name \(uid uid-an-earlier-w\)/,
    );
    assert.match(
      messages[2]!,
      /ConfigMap ns1\/mine: it does not carry the labels the engine sets on the children of Widget w/,
    );
    assert.match(messages[3]!, /Secret other\/s: it is outside the app's namespaces \(ns1\)/);
    assert.deepEqual(
      verbs(t.store.calls, "delete").map((c) => c.target),
      [],
    );
  });

  it("uninstalls its own children and none of a forged inventory's entries, then finishes", async () => {
    const t = setUp();
    await t.reconcile();
    await t.deleteApp();
    forge(t);
    await t.reconcile();
    untouched(t);
    assert.equal(t.child("one"), undefined);
    assert.equal(t.child("two"), undefined);
    assert.equal(t.app(), undefined, "the app is still there");
    assert.equal((await ignoredWarnings(t)).length, 4);
  });

  it("still prunes and uninstalls children applied before the uid label existed", async () => {
    const t = setUp();
    await t.reconcile();
    for (const part of ["one", "two"]) delete t.child(part)!.metadata.labels![LABEL_APP_UID];
    t.parts.names = ["one"];
    await t.reconcile();
    assert.equal(t.child("two"), undefined, "the earlier child was not pruned");
    delete t.child("one")!.metadata.labels![LABEL_APP_UID];
    await t.deleteApp();
    await t.reconcile();
    assert.equal(t.child("one"), undefined, "the earlier child was not uninstalled");
    assert.equal(t.app(), undefined);
    assert.deepEqual(await ignoredWarnings(t), []);
  });

  it("refuses a render that puts a child outside the app's scope, and applies nothing", async () => {
    const t = setUp();
    t.parts.names = ["one"];
    const module = {
      definition,
      version: "1",
      render: () => [
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x", namespace: "other" } },
      ],
    };
    const reconciler = new AppReconciler(module, {
      client: t.store.client(),
      events: t.events,
      cluster: {},
      appKinds: () => ["Widget"],
    });
    await assert.rejects(
      reconciler.reconcile(new AbortController().signal, KEY),
      /cannot render: ConfigMap other\/x: it is outside the app's namespaces \(ns1\)/,
    );
    assert.deepEqual(verbs(t.store.calls, "apply"), []);
  });

  it("is deleted whatever malformed status it was left with", async () => {
    for (const status of [
      { inventory: "everything", conditions: "broken" },
      { inventory: [{ kind: 5, name: ["x"] }, null, "x"], conditions: [{ type: 1 }, null] },
    ]) {
      const t = setUp();
      await t.reconcile();
      await t.deleteApp();
      t.app()!.status = status as unknown as App["status"];
      await t.reconcile();
      assert.equal(t.app(), undefined, JSON.stringify(status));
    }
  });
});
