/**
 * The window between a shared informer's sync and its WATCH: objects created
 * after the cache reports synced but before the watch request reaches the
 * server still reach the cache, because the watch starts from the list's
 * resourceVersion and the server replays what came after it. The watch is held
 * back with `intercept` (test/support/controller-run.ts) on a real HttpClient,
 * on both storage backends (memory, SQLite).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intercept } from "../../test/support/controller-run.js";
import { startEnv } from "../../test/support/envtest.js";
import { waitFor } from "../../test/support/hearth-process.js";
import { startInProcess } from "../../test/support/in-process.js";
import { createHttpClient, type HttpClient } from "../client/index.js";
import { Cache } from "./cache.js";

const CM = { apiVersion: "v1", kind: "ConfigMap" } as const;
const configMap = (name: string) => ({ ...CM, metadata: { namespace: "w", name } });

const servers: [string, () => Promise<{ url: string; stop(): Promise<void> }>][] = [
  ["memory", startEnv],
  ["sqlite", () => startInProcess()],
];

describe("Cache: objects created between sync and WATCH", () => {
  for (const [backend, startServer] of servers) {
    it(`reach the cache (${backend} backend)`, async () => {
      const server = await startServer();
      const client: HttpClient = createHttpClient({ server: server.url });
      const stop = new AbortController();
      let running: Promise<void> | undefined;
      let open: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      let watches = 0;
      try {
        await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: "w" } });
        await client.create(configMap("before"));
        // Every WATCH waits at the gate before its request is sent.
        const held = intercept(client, {
          async before(call) {
            if (call.method !== "watch") return;
            watches++;
            await gate;
          },
        });
        const cache = new Cache(held);
        running = cache.start(stop.signal);
        cache.informer(CM);
        assert.equal(await cache.waitForCacheSync(stop.signal), true);
        await waitFor("the watch to reach the gate", () => (watches === 1 ? true : undefined));
        await client.create(configMap("in-window-1"));
        await client.create(configMap("in-window-2"));
        open();
        await waitFor("the objects of the window in the cache", async () =>
          (await cache.list(CM, { namespace: "w" })).items.length === 3 ? true : undefined,
        );
        const names = (await cache.list(CM)).items.map((o) => o.metadata.name).sort();
        assert.deepEqual(names, ["before", "in-window-1", "in-window-2"]);
        assert.equal(watches, 1, "one watch, no relist needed");
      } finally {
        open();
        stop.abort();
        await running;
        client.close();
        await server.stop();
      }
    });
  }
});
