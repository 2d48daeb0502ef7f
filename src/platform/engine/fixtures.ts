/**
 * What the AppReconciler unit tests share: an in-memory client with what the
 * reconciler relies on (resourceVersion preconditions, status through
 * patchStatus, finalizers holding a deleted object), a Widget app whose module
 * renders one ConfigMap per part, and scripted hooks. test/e2e/tenants*.test.ts
 * drive the reconciler through a real apiserver.
 */
import assert from "node:assert/strict";
import type { KubeList, KubeObject, Status } from "../../api/index.js";
import { ConflictError, NotFoundError, STALE_OBJECT_MESSAGE } from "../../api/index.js";
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
import { AppReconciler } from "./app-reconciler.js";
import {
  APPS_API_VERSION,
  type App,
  type AppHooks,
  type AppModule,
  type HookContext,
  type HookResult,
  type InventoryEntry,
  type WorkloadReport,
} from "./module.js";

export interface Call {
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
export class MemoryClient {
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

export const definition: ApplicationDefinition = {
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

export const REQUEST = { namespace: "ns1", name: "w" };

export interface SetUpOptions {
  hooks?: AppHooks;
  status?: (app: App) => Promise<WorkloadReport>;
  /** A finalizer each rendered child carries, held by "another controller". */
  childFinalizer?: string;
}

export function setUp(opts: SetUpOptions = {}) {
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
    childKinds: [{ apiVersion: "v1", kind: "ConfigMap" }],
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
  // As the runtime does: the failures in a row before this reconcile, reset by a success.
  let retries = 0;
  const reconcile = async () => {
    try {
      const result = await reconciler.reconcile(REQUEST, { signal, retries });
      retries = 0;
      return result;
    } catch (e) {
      retries++;
      throw e;
    }
  };
  return {
    store,
    parts,
    events,
    reconcile,
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

export const entry = (part: string): InventoryEntry => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: `w-${part}`,
  namespace: "ns1",
});

export function condition(app: App | undefined, type: string): Condition {
  const c = findCondition(app?.status?.conditions, type);
  assert.ok(c, `no ${type} condition on ${JSON.stringify(app?.status)}`);
  return c;
}

export const verbs = (calls: Call[], verb: Call["verb"]) => calls.filter((c) => c.verb === verb);

/** A module's hooks, each answering what the test sets next, and recording each call. */
export function scriptedHooks() {
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
