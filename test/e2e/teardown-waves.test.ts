/**
 * The engine's wave runner against a real in-process apiserver
 * (test/support/envtest.ts), driving one AppReconciler by hand on a FakeClock:
 * teardown waves run in order (the second wave deletes nothing before the
 * first one's wait holds), progress is kept in `status.teardown` with Events, a
 * wave past its deadline records residue and the teardown goes on, a new
 * reconciler (a restart) resumes at the stored wave with the deadline counted
 * from its stored start; install waves wait on `waveReady`, `observe` feeds
 * render, and the spec is checked against the module's shape.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { EventRecorder, getOptional } from "../../src/client/index.js";
import { crdFor } from "../../src/platform/definitions.js";
import { AppReconciler } from "../../src/platform/engine/app-reconciler.js";
import type { App, AppModule } from "../../src/platform/engine/module.js";
import { TEARDOWN_STATUS_FIELDS } from "../../src/platform/engine/teardown-progress.js";
import { FakeClock, findCondition } from "../../src/runtime/index.js";
import {
  GADGET_DEFINITION,
  gadgetModule,
  HOLDS_LABEL,
  TOKEN_WAVE_DEADLINE_MS,
} from "../fixtures/gadget/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const NS = "ns1";
const GADGET = { apiVersion: "apps.cozystack.io/v1alpha1", kind: "Gadget" };
const MESSAGE_WAVE_DEADLINE_MS = 120_000;

interface EventObject extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  involvedObject?: { name?: string };
}

describe("teardown and install waves", () => {
  let env: Env;
  let clock: FakeClock;
  let events: EventRecorder;

  beforeEach(async () => {
    env = await startEnv();
    clock = new FakeClock();
    events = new EventRecorder(env.client, { component: "apps-engine" });
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    await env.client.apply(crdFor(GADGET_DEFINITION, TEARDOWN_STATUS_FIELDS), {
      fieldManager: "test",
      force: true,
    });
    await waitFor("the Gadget kind to be served", async () =>
      env.client
        .list(GADGET, { namespace: NS })
        .then(() => true)
        .catch(() => false),
    );
  });
  afterEach(async () => {
    await events.flush();
    await env.stop();
  });

  const reconcilerFor = (module: AppModule = gadgetModule(GADGET_DEFINITION)) => {
    const r = new AppReconciler(module, {
      client: env.client,
      events,
      cluster: {},
      appKinds: () => ["Gadget"],
      clock,
    });
    return (name: string) =>
      r.reconcile({ namespace: NS, name }, { signal: new AbortController().signal, retries: 0 });
  };
  const get = (kind: string, name: string, apiVersion = "v1") =>
    getOptional(env.client, { apiVersion, kind, name, namespace: NS });
  const app = async (name: string) =>
    (await get("Gadget", name, GADGET.apiVersion)) as App | undefined;
  const teardownOf = async (name: string) =>
    (await app(name))?.status?.teardown as
      | { wave: string; startedAt: string; waitingOn: string; residue: string[] }
      | undefined;
  const create = (name: string, spec: Record<string, unknown> = { message: "hi" }) =>
    env.client.create({ ...GADGET, metadata: { name, namespace: NS }, spec });
  const hold = (name: string, wave: string, gadget: string) =>
    env.client.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: NS, labels: { [`${HOLDS_LABEL}-${wave}`]: gadget } },
    });
  const release = (name: string) =>
    env.client.delete({ apiVersion: "v1", kind: "ConfigMap", name, namespace: NS });
  const deleteApp = (name: string) => env.client.delete({ ...GADGET, name, namespace: NS });
  const eventsOf = async (name: string) => {
    await events.flush();
    const list = await env.client.list<EventObject>(
      { apiVersion: "v1", kind: "Event" },
      { namespace: NS },
    );
    return list.items
      .filter((e) => e.involvedObject?.name === name)
      .map((e) => `${e.type} ${e.reason}: ${e.message}`);
  };
  const installed = async (name: string) => {
    const reconcile = reconcilerFor();
    await create(name);
    await reconcile(name);
    assert.ok(await get("ConfigMap", `${name}-message`));
    assert.ok(await get("Secret", `${name}-token`));
    return reconcile;
  };

  it("runs the waves in order: the second deletes only once the first's wait holds", async () => {
    const reconcile = await installed("g");
    await hold("hold-message", "message", "g");
    await deleteApp("g");
    await reconcile("g");
    let teardown = await teardownOf("g");
    assert.equal(teardown?.wave, "message");
    assert.equal(teardown?.waitingOn, "ConfigMap ns1/hold-message to be gone");
    assert.equal(await get("ConfigMap", "g-message"), undefined, "the first wave deleted nothing");
    assert.ok(await get("Secret", "g-token"), "the second wave ran before the first's wait held");
    const ready = findCondition((await app("g"))?.status?.conditions, "Ready");
    assert.deepEqual(
      [ready?.status, ready?.reason, ready?.message],
      ["False", "TeardownWaiting", "waiting for ConfigMap ns1/hold-message to be gone"],
    );

    await reconcile("g");
    teardown = await teardownOf("g");
    assert.equal(teardown?.wave, "message");
    assert.ok(await get("Secret", "g-token"));

    await release("hold-message");
    await reconcile("g");
    assert.equal(await app("g"), undefined, "the finalizer was not dropped");
    assert.equal(await get("Secret", "g-token"), undefined);
    assert.deepEqual(await eventsOf("g"), [
      'Normal TeardownWave: wave 1/4 "message" started',
      'Normal TeardownWave: wave 2/4 "token" started',
      'Normal TeardownWave: wave 3/4 "children" started',
      'Normal TeardownWave: wave 4/4 "namespaces" started',
    ]);
  });

  it("records a wave's residue when its deadline passes, and goes on", async () => {
    const reconcile = await installed("g");
    await hold("hold-message", "message", "g");
    await hold("hold-token", "token", "g");
    await deleteApp("g");
    await reconcile("g");
    clock.advance(MESSAGE_WAVE_DEADLINE_MS - 1_000);
    await reconcile("g");
    assert.equal((await teardownOf("g"))?.wave, "message", "gave up before the deadline");
    assert.ok(await get("Secret", "g-token"));

    clock.advance(2_000);
    await reconcile("g");
    const teardown = await teardownOf("g");
    assert.equal(teardown?.wave, "token");
    assert.deepEqual(teardown?.residue, ["ConfigMap ns1/hold-message still holds wave message"]);
    assert.equal(teardown?.waitingOn, "ConfigMap ns1/hold-token to be gone");
    assert.equal(await get("Secret", "g-token"), undefined, "the next wave did not delete");
    assert.ok(
      (await eventsOf("g")).includes(
        'Warning CleanupResidue: teardown wave "message" did not finish within 120000 ms; left behind: ConfigMap ns1/hold-message still holds wave message',
      ),
    );

    clock.advance(TOKEN_WAVE_DEADLINE_MS + 1);
    await reconcile("g");
    assert.equal(await app("g"), undefined, "a wave past its deadline held the teardown");
    assert.ok(
      (await eventsOf("g")).some((e) =>
        e.startsWith('Warning CleanupResidue: teardown wave "token" did not finish'),
      ),
    );
    assert.ok(await get("ConfigMap", "hold-message"), "the holders are not the engine's to delete");
  });

  it("resumes at the stored wave after a restart, its deadline counted from the stored start", async () => {
    const before = await installed("g");
    await hold("hold-message", "message", "g");
    await deleteApp("g");
    await before("g");
    const started = (await teardownOf("g"))?.startedAt;
    assert.equal(started, new Date(clock.now()).toISOString());

    clock.advance(MESSAGE_WAVE_DEADLINE_MS - 20_000);
    const after = reconcilerFor();
    await after("g");
    assert.equal((await teardownOf("g"))?.wave, "message");
    assert.equal((await teardownOf("g"))?.startedAt, started, "a restart moved the wave's start");

    clock.advance(21_000);
    await after("g");
    assert.equal(
      (await teardownOf("g"))?.wave,
      undefined,
      "the deadline restarted with the reconciler",
    );
    assert.equal(await app("g"), undefined);
  });

  it("applies install wave 1 only once wave 0 is ready, and renders what observe read", async () => {
    const module: AppModule<{ message?: string }, string> = {
      definition: GADGET_DEFINITION,
      version: "0.0.1",
      spec: { message: "string" },
      observe: async (a, reader) => {
        const seen = await getOptional(reader, {
          apiVersion: "v1",
          kind: "ConfigMap",
          name: "observed",
          namespace: a.metadata.namespace,
        });
        return String((seen?.data as Record<string, string> | undefined)?.value ?? "none");
      },
      render: (a, _context, observed) => [
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: `${a.metadata.name}-first` },
          data: { observed },
        },
        {
          object: {
            apiVersion: "v1",
            kind: "Secret",
            metadata: { name: `${a.metadata.name}-second` },
          },
          wave: 1,
        },
      ],
      waveReady: async (a, wave, reader) =>
        (await getOptional(reader, {
          apiVersion: "v1",
          kind: "ConfigMap",
          name: "gate",
          namespace: a.metadata.namespace,
        }))
          ? { done: true }
          : { done: false, waitingFor: `wave ${wave}'s gate` },
    };
    const reconcile = reconcilerFor(module);
    await env.client.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "observed", namespace: NS },
      data: { value: "seen" },
    });
    await create("s");
    await reconcile("s");
    assert.deepEqual((await get("ConfigMap", "s-first"))?.data, { observed: "seen" });
    assert.equal(
      await get("Secret", "s-second"),
      undefined,
      "wave 1 was applied before wave 0 was ready",
    );
    const ready = findCondition((await app("s"))?.status?.conditions, "Ready");
    assert.deepEqual(
      [ready?.status, ready?.message],
      ["False", "waiting for install wave 0: wave 0's gate"],
    );

    await env.client.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "gate", namespace: NS },
    });
    await reconcile("s");
    assert.ok(await get("Secret", "s-second"));
    assert.equal(findCondition((await app("s"))?.status?.conditions, "Ready")?.status, "True");
  });

  it("refuses a module whose spec shape differs from its schema, and a spec that does not fit", async () => {
    const wrong = { ...gadgetModule(GADGET_DEFINITION), spec: { message: "boolean" as const } };
    assert.throws(
      () => reconcilerFor(wrong),
      /spec of Gadget does not match its definition: message: the schema says string, the module boolean/,
    );
    const reconcile = reconcilerFor();
    await create("bad", { message: "hi", other: 1 });
    await assert.rejects(reconcile("bad"), /cannot render: spec.other: not a field of this kind/);
    assert.equal(await get("ConfigMap", "bad-message"), undefined);
  });
});
