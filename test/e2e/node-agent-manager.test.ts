/**
 * The node agent on its own Manager, against a real in-process apiserver
 * (test/support/envtest.ts) and a containerd of the test's own: the agent
 * opens one pod WATCH, scoped by `spec.nodeName=<node>`, and a pod bound to
 * another node never reaches the agent (no worker, no status), whether it was
 * there at the first list or arrived on the watch. Pods name an image no
 * registry holds, so the agent reports ErrImagePull without running anything.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { KubeObject, Pod } from "../../src/api/index.js";
import { type RunningNode, startNodeAgent } from "../../src/cli/node.js";
import type { HttpClient } from "../../src/client/index.js";
import { podsOf } from "../../src/node/index.js";
import { testCriPodCidr } from "../support/agent-env.js";
import { type CriNode, criSkipReason, startCriNode } from "../support/cri-node.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const NODE = "agent-envtest";
const NS = "t";
const POD = { apiVersion: "v1", kind: "Pod" };

function pod(name: string, nodeName: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: NS },
    spec: {
      nodeName,
      terminationGracePeriodSeconds: 0,
      containers: [{ name: "c", image: "hearth.test/no-such-image:1" }],
    },
  };
}

interface SeenWatch {
  kind: string;
  fieldSelector?: string;
  labelSelector?: string;
}

/** The client, recording every watch it is asked to open. */
function recording(client: HttpClient, watches: SeenWatch[]): HttpClient {
  return new Proxy(client, {
    get(target, prop) {
      if (prop === "watch") {
        const watch: HttpClient["watch"] = (type, opts) => {
          watches.push({
            kind: type.kind,
            ...(opts.fieldSelector ? { fieldSelector: opts.fieldSelector } : {}),
            ...(opts.labelSelector ? { labelSelector: opts.labelSelector } : {}),
          });
          return target.watch(type, opts);
        };
        return watch;
      }
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("node agent on its Manager", { skip: criSkipReason() }, () => {
  let env: Env;
  let dataDir: string;
  let cri: CriNode | undefined;
  let node: RunningNode | undefined;
  const podCIDR = testCriPodCidr();
  const stop = new AbortController();

  beforeEach(async () => {
    env = await startEnv();
    dataDir = mkdtempSync(join(tmpdir(), "hearth-agent-envtest-"));
    cri = await startCriNode(dataDir, podCIDR);
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  });
  afterEach(async () => {
    stop.abort();
    try {
      await node?.stopped();
    } finally {
      await cri?.stop();
      await env.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("watches its own pods once, by field selector, and never sees another node's", async () => {
    await env.client.create(pod("mine", NODE));
    const theirs = await env.client.create(pod("theirs", "other-node"));
    const watches: SeenWatch[] = [];
    node = await startNodeAgent(
      recording(env.client, watches),
      { dataDir, nodeName: NODE, podCIDR, pollMs: 100, cri: { socket: cri!.socket } },
      stop.signal,
    );
    const get = (name: string) => env.client.get<Pod>({ ...POD, namespace: NS, name });
    // The apiserver defaults phase and qosClass on create; container statuses come from the agent.
    const reported = async (name: string) =>
      ((await get(name)).status?.containerStatuses ?? []).length > 0;
    await waitFor("the agent to report its pod", () => reported("mine"));
    // Both arrive on the watch now; the later one of ours is seen only after the other's event.
    const theirsLater = await env.client.create(pod("theirs-later", "other-node"));
    await env.client.create(pod("mine-later", NODE));
    await waitFor("the agent to report its later pod", () => reported("mine-later"));

    const pods = watches.filter((w) => w.kind === "Pod");
    assert.deepEqual(pods, [{ kind: "Pod", fieldSelector: `spec.nodeName=${NODE}` }]);
    assert.equal(env.backend.openWatches("/registry/core/pods/"), 1);

    const workers = [...node.agent.workers.values()].map((w) => w.key).sort();
    assert.deepEqual(workers, [`${NS}/mine`, `${NS}/mine-later`]);
    const cached = node.agent.manager.cache.informer(POD, podsOf(NODE).scope).informer.list();
    assert.deepEqual(cached.map((p) => p.metadata.name).sort(), ["mine", "mine-later"]);
    // Nothing was written to another node's pods: not a status, not a deletion.
    for (const other of [theirs, theirsLater]) {
      const now = await get(other.metadata.name ?? "");
      assert.equal(now.metadata.resourceVersion, other.metadata.resourceVersion);
      assert.equal(now.status?.containerStatuses, undefined);
    }
  });
});
