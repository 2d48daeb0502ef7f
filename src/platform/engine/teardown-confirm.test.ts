/**
 * A teardown wave's wait reads the Manager's cache, but a wait the cache says
 * is over is asked again live before the teardown moves past it: here the
 * cache is stopped before a holder is created, so only the server knows of it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../../test/support/envtest.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { EventRecorder } from "../../client/index.js";
import { Cache } from "../../runtime/index.js";
import type { ApplicationDefinition } from "../definitions.js";
import type { EngineContext } from "./engine-context.js";
import type { App, AppModule, HookResult } from "./module.js";
import { runTeardown } from "./teardown.js";
import { teardownPlan } from "./teardown-plan.js";

const NS = "confirm";
const CM = { apiVersion: "v1", kind: "ConfigMap" } as const;

const module: AppModule = {
  definition: {} as ApplicationDefinition,
  version: "0.0.1",
  render: () => [],
  teardown: [
    {
      name: "held",
      permissions: [{ ...CM, verbs: ["list"] }],
      deadlineMs: 60_000,
      waitFor: async ({ client }): Promise<HookResult> => {
        const held = await client.list(CM, { namespace: NS, labelSelector: "holds=app" });
        return held.items.length === 0 ? { done: true } : { done: false, waitingFor: "holders" };
      },
    },
  ],
};

describe("teardown waits on the cache, confirmed live", () => {
  let env: Env;
  let cache: Cache;

  before(async () => {
    env = await startEnv();
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    cache = new Cache(env.client);
    cache.informer(CM);
    const stop = new AbortController();
    const running = cache.start(stop.signal);
    await waitFor("the ConfigMap informer synced", () => cache.hasSynced(), 5_000);
    // A stale cache: it keeps what it listed and hears of nothing more.
    stop.abort();
    await running;
    await env.client.create({
      ...CM,
      metadata: { name: "h", namespace: NS, labels: { holds: "app" } },
    });
  });
  after(() => env.stop());

  const teardown = () => {
    const engine: EngineContext = {
      client: env.client,
      cache,
      events: { event: () => {} } as unknown as EventRecorder,
      cluster: {},
      appKinds: () => [],
    };
    const app: App = {
      apiVersion: "apps.cozystack.io/v1alpha1",
      kind: "Probe",
      metadata: { name: "p", namespace: NS },
    };
    return runTeardown(
      {
        engine,
        kind: "Probe",
        scope: { namespaces: [NS], clusterScoped: [] },
        plan: teardownPlan(module),
        reads: env.client,
        signal: new AbortController().signal,
        writeStatus: async (a, status) => ({ ...a, status: { ...a.status, ...status } }),
      },
      app,
    );
  };

  it("does not pass a wave the cache says is over while the server still holds it", async () => {
    const outcome = await teardown();
    assert.equal(outcome.done, false, "the wave was passed on the cache's word");
    assert.equal(outcome.done ? "" : outcome.message, "waiting for holders");
  });

  it("passes it once the server agrees", async () => {
    await env.client.delete({ ...CM, name: "h", namespace: NS });
    assert.equal((await teardown()).done, true);
  });
});
