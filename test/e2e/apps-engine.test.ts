/**
 * The apps engine on a Manager against a real in-process apiserver
 * (test/support/envtest.ts): an app is woken by its children's events, never
 * by a timer — a child deleted out of band comes back at once, a settled app
 * is not reconciled again, and an uninstall waiting for a child a finalizer
 * holds finishes when the finalizer goes, without looking in between. The
 * module here declares no requeue of its own, so only events can wake it.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { register } from "prom-client";
import type { KubeObject } from "../../src/api/types.js";
import { getOptional, type Reader } from "../../src/client/index.js";
import { DEFINITION_CRD } from "../../src/platform/bootstrap.js";
import { installCrds } from "../../src/platform/crds.js";
import type { ApplicationDefinition } from "../../src/platform/definitions.js";
import { AppsEngine } from "../../src/platform/engine/engine.js";
import type { App, AppModule } from "../../src/platform/engine/module.js";
import { findCondition } from "../../src/runtime/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const NS = "t";
const PROBE = { apiVersion: "apps.cozystack.io/v1alpha1", kind: "Probe" };
const HOLD = "example.com/hold";
/** A window longer than any back-off step the test could hide behind, short enough for CI. */
const QUIET_MS = 2_500;

const definition: ApplicationDefinition = {
  apiVersion: "hearth.io/v1alpha1",
  kind: "ApplicationDefinition",
  metadata: { name: "probe" },
  spec: {
    application: {
      kind: "Probe",
      singular: "probe",
      plural: "probes",
      openAPISchema: JSON.stringify({ type: "object", properties: {} }),
    },
    release: { prefix: "probe-" },
  },
};

/**
 * A module of one ConfigMap that counts its installs (renders) and uninstalls
 * (preDelete); with `readsChild`, its observe and status read the child back.
 */
function probeModule(opts: { childFinalizer?: string; readsChild?: boolean } = {}) {
  const counts = { installs: 0, uninstalls: 0 };
  const readChild = (reader: Reader) =>
    getOptional(reader, { apiVersion: "v1", kind: "ConfigMap", name: "p-data", namespace: NS });
  const module: AppModule = {
    definition,
    version: "0.0.1",
    childKinds: [{ apiVersion: "v1", kind: "ConfigMap" }],
    ...(opts.readsChild
      ? {
          observe: async (_app: App, reader: Reader) => (await readChild(reader))?.data,
          status: async (_app: App, reader: Reader) =>
            (await readChild(reader))
              ? { ready: true, reason: "ChildThere", message: "the child is there" }
              : { ready: false, reason: "ChildMissing", message: "no child yet" },
        }
      : {}),
    render: (app: App) => {
      counts.installs++;
      return [
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: {
            name: `${app.metadata.name}-data`,
            ...(opts.childFinalizer ? { finalizers: [opts.childFinalizer] } : {}),
          },
          data: { hello: "world" },
        },
      ];
    },
    hooks: {
      permissions: [],
      preDelete: async () => {
        counts.uninstalls++;
        return { done: true };
      },
    },
  };
  return { module, counts };
}

const childRef = { apiVersion: "v1", kind: "ConfigMap", name: "p-data", namespace: NS };
const appRef = { ...PROBE, name: "p", namespace: NS };

describe("apps engine on the Manager", () => {
  let env: Env;
  beforeEach(async () => {
    env = await startEnv();
    const signal = AbortSignal.timeout(20_000);
    await installCrds(env.client, [DEFINITION_CRD], "test", signal);
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  });
  afterEach(() => env.stop());

  /** Starts the engine on `module`, creates the app and waits until it is Ready. */
  async function readyApp(module: AppModule): Promise<void> {
    new AppsEngine([module]).register(env.manager);
    env.startManager();
    await env.client.create(definition);
    await waitFor("the Probe kind served", () =>
      env.client.list(PROBE, { namespace: NS }).then(() => true),
    );
    await env.client.create({ ...PROBE, metadata: { name: "p", namespace: NS }, spec: {} });
    await waitFor("the app Ready", async () => {
      const app = await getOptional<App>(env.client, appRef);
      return findCondition(app?.status?.conditions, "Ready")?.status === "True";
    });
  }

  /** Resolves once `read` has not changed for `ms` (the app's own status write has settled). */
  async function steady(read: () => number, ms = 500): Promise<number> {
    let last = read();
    let since = Date.now();
    await waitFor("the reconciles to settle", () => {
      if (read() !== last) {
        last = read();
        since = Date.now();
      }
      return Date.now() - since >= ms;
    });
    return last;
  }

  it("re-applies a child deleted out of band, woken by its delete event", async () => {
    const { module } = probeModule();
    await readyApp(module);
    const before = await env.client.get<KubeObject>(childRef);
    await env.client.delete(childRef);
    const back = await waitFor(
      "the child re-applied",
      async () => {
        const c = await getOptional<KubeObject>(env.client, childRef);
        return c && c.metadata.uid !== before.metadata.uid ? c : undefined;
      },
      5_000,
    );
    assert.deepEqual(back.data, { hello: "world" });
  });

  /** The apiserver's GET and LIST requests so far, by resource (`apiserver_request_total`). */
  async function reads(): Promise<Map<string, number>> {
    const metric = register.getSingleMetric("apiserver_request_total");
    const out = new Map<string, number>();
    for (const { labels, value } of (await metric?.get())?.values ?? []) {
      if ((labels.verb !== "GET" && labels.verb !== "LIST") || !labels.resource) continue;
      const key = `${labels.verb} ${labels.resource}`;
      out.set(key, (out.get(key) ?? 0) + value);
    }
    return out;
  }

  it("reads from the cache: reconciles of an unchanged app GET nothing but the app", async () => {
    const { module, counts } = probeModule({ readsChild: true });
    await readyApp(module);
    const start = await steady(() => counts.installs);
    const before = await reads();
    // Each annotation wakes the app; nothing it renders from changes.
    for (let i = 0; i < 5; i++) {
      const n = counts.installs;
      const poke = { metadata: { annotations: { "example.com/poke": String(i) } } };
      await env.client.patch(appRef, poke, { type: "merge" });
      await waitFor("the app reconciled", () => counts.installs > n);
    }
    const reconciles = (await steady(() => counts.installs)) - start;
    const after = await reads();
    const made = [...after]
      .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
      .filter(([, v]) => v > 0);
    assert.deepEqual(
      Object.fromEntries(made),
      { "GET probes": reconciles },
      "a reconcile read something else than its app from the apiserver",
    );
  });

  it("reconciles a settled app no more while nothing changes", async () => {
    const { module, counts } = probeModule();
    await readyApp(module);
    const settled = await steady(() => counts.installs);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    assert.equal(counts.installs, settled, "a settled app was reconciled again");
  });

  it("finishes an uninstall as soon as the finalizer holding a child goes, without polling", async () => {
    const { module, counts } = probeModule({ childFinalizer: HOLD });
    await readyApp(module);
    await env.client.delete(appRef);
    await waitFor("the app waiting for its child", async () => {
      const app = await getOptional<App>(env.client, appRef);
      return findCondition(app?.status?.conditions, "Ready")?.reason === "DeletingChildren";
    });
    const waiting = await steady(() => counts.uninstalls);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    assert.equal(counts.uninstalls, waiting, "the wait was polled");
    assert.ok(await getOptional(env.client, appRef), "the app went while its child was held");

    await env.client.patch(childRef, { metadata: { finalizers: null } }, { type: "merge" });
    await waitFor(
      "the app gone",
      async () => (await getOptional(env.client, appRef)) === undefined,
      5_000,
    );
    assert.equal(await getOptional(env.client, childRef), undefined);
  });
});
