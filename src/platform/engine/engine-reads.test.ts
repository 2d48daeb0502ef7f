/**
 * The engine's cache-first reader on the real in-process apiserver: a cached
 * child is read without a request, a miss and a kind the app does not watch
 * are read live, what the pass wrote is read as written, and a list is served
 * from the child informer only when its selector pins the group label.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../../test/support/envtest.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { KubeObject } from "../../api/index.js";
import type { Reader } from "../../client/index.js";
import { Cache } from "../../runtime/index.js";
import { CHILD_SCOPE } from "./child-watch.js";
import { PassReader } from "./engine-reads.js";
import { APPS_GROUP, LABEL_APP_GROUP } from "./module.js";

const NS = "reads";
const CM = { apiVersion: "v1", kind: "ConfigMap" } as const;
const GROUP = `${LABEL_APP_GROUP}=${APPS_GROUP}`;

const configMap = (name: string, labels: Record<string, string>, v = "1"): KubeObject => ({
  ...CM,
  metadata: { name, namespace: NS, labels },
  data: { v },
});

describe("PassReader (in-process apiserver)", () => {
  let env: Env;
  let cache: Cache;
  const stop = new AbortController();
  let running: Promise<void>;
  const calls: string[] = [];
  /** The server, counting what reaches it. */
  let live: Reader;

  before(async () => {
    env = await startEnv();
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    await env.client.create(configMap("child", { [LABEL_APP_GROUP]: APPS_GROUP, app: "a" }));
    await env.client.create(configMap("plain", { app: "a" }));
    cache = new Cache(env.client);
    cache.informer(CM, CHILD_SCOPE);
    running = cache.start(stop.signal);
    await waitFor("the child informer synced", () => cache.hasSynced(), 5_000);
    live = {
      get: (ref, opts) => {
        calls.push(`get ${ref.name}`);
        return env.client.get(ref, opts);
      },
      list: (type, opts) => {
        calls.push(`list ${opts?.labelSelector ?? ""}`);
        return env.client.list(type, opts);
      },
    };
  });

  after(async () => {
    stop.abort();
    await running;
    await env.stop();
  });

  const reader = () => new PassReader(live, cache, [CM], []);
  const ref = (name: string) => ({ ...CM, name, namespace: NS });

  it("reads a cached child without a request, and a miss from the server", async () => {
    calls.length = 0;
    const r = reader();
    assert.equal((await r.get(ref("child"))).metadata.name, "child");
    assert.deepEqual(calls, [], "a cached child was read from the server");
    assert.equal((await r.get(ref("plain"))).metadata.name, "plain");
    assert.deepEqual(calls, ["get plain"]);
  });

  it("reads a kind the app does not watch from the server", async () => {
    calls.length = 0;
    const r = new PassReader(live, cache, [], []);
    await r.get(ref("child"));
    assert.deepEqual(calls, ["get child"]);
  });

  it("reads what the pass wrote as written, not the cached copy", async () => {
    const r = reader();
    r.wrote(configMap("child", { [LABEL_APP_GROUP]: APPS_GROUP, app: "a" }, "written"));
    assert.deepEqual((await r.get(ref("child"))).data, { v: "written" });
    const listed = await r.list(CM, { namespace: NS, labelSelector: `${GROUP},app=a` });
    assert.deepEqual(
      listed.items.map((o) => o.data),
      [{ v: "written" }],
    );
  });

  it("lists from the child informer only when the selector pins the group label", async () => {
    calls.length = 0;
    const r = reader();
    const pinned = await r.list(CM, { namespace: NS, labelSelector: `app=a, ${GROUP}` });
    assert.deepEqual(
      pinned.items.map((o) => o.metadata.name),
      ["child"],
    );
    assert.deepEqual(calls, [], "a pinned list went to the server");
    const open = await r.list(CM, { namespace: NS, labelSelector: "app=a" });
    assert.deepEqual(open.items.map((o) => o.metadata.name).sort(), ["child", "plain"]);
    assert.deepEqual(calls, ["list app=a"]);
  });
});
