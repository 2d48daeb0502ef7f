/**
 * The core controllers of `hearth up` on one Manager: however many of them
 * read Pods (scheduler, node lifecycle, endpoints, jobs, storage protection,
 * the garbage collector), the apiserver holds one WATCH of Pods, one of Nodes.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, it } from "node:test";
import { runCoreControllers } from "../../src/controllers/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

describe("core controllers", () => {
  let env: Env | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await env?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("share one watch per resource", async () => {
    env = await startEnv();
    dir = mkdtempSync(join(tmpdir(), "hearth-core-watches-"));
    const stop = new AbortController();
    const running = runCoreControllers(env.client, stop.signal, {
      storage: { volumesDir: dir, poolBytes: 1n << 30n },
    });
    try {
      const open = (prefix: string) => env!.backend.openWatches(prefix);
      // ConfigMaps are watched by the garbage collector alone: once it watches them,
      // its monitors cover every kind, Pods and Nodes included.
      await waitFor("the garbage collector's monitors", () =>
        open("/registry/core/configmaps/") >= 1 ? true : undefined,
      );
      await waitFor("the storage controllers' watches", () =>
        open("/registry/core/persistentvolumeclaims/") >= 1 ? true : undefined,
      );
      const kinds = [
        "core/pods",
        "core/nodes",
        "core/persistentvolumeclaims",
        "batch/jobs",
        "core/services",
      ];
      assert.deepEqual(
        Object.fromEntries(kinds.map((k) => [k, open(`/registry/${k}/`)])),
        Object.fromEntries(kinds.map((k) => [k, 1])),
      );
    } finally {
      stop.abort();
      await running;
    }
  });
});
