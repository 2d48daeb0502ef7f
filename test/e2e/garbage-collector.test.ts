/**
 * The garbage collector on a Manager (a controller whose one source is its
 * monitors, requests by uid), against a real in-process apiserver: a dependent
 * whose owner is gone is deleted; an owner deleted in the foreground waits for
 * its blocking dependent; one deleted with `orphan` leaves its dependent
 * without the reference.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/index.js";
import { getOptional } from "../../src/client/index.js";
import { GarbageCollector } from "../../src/controllers/index.js";
import { type Env, startEnv } from "../support/envtest.js";
import { waitFor } from "../support/hearth-process.js";

const CM = { apiVersion: "v1", kind: "ConfigMap" };
const NS = "t";

function configMap(name: string, owner?: KubeObject, block = false): KubeObject {
  return {
    ...CM,
    metadata: {
      name,
      namespace: NS,
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: "v1",
                kind: "ConfigMap",
                name: owner.metadata.name ?? "",
                uid: owner.metadata.uid ?? "",
                ...(block ? { blockOwnerDeletion: true } : {}),
              },
            ],
          }
        : {}),
    },
  };
}

describe("garbage collector on a Manager", () => {
  let env: Env;
  beforeEach(async () => {
    env = await startEnv();
    await env.client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
    new GarbageCollector(env.client, {
      resyncDiscoveryMs: 60_000,
    }).register(env.manager);
    env.startManager();
  });
  afterEach(() => env.stop());

  const live = (name: string) => getOptional(env.client, { ...CM, namespace: NS, name });

  it("deletes a dependent whose owner is gone", async () => {
    const owner = await env.client.create(configMap("owner"));
    await env.client.create(configMap("child", owner));
    // An object created before the owner was seen must not be collected while the owner lives.
    await waitFor("the collector to watch ConfigMaps", () =>
      env.backend.openWatches("/registry/core/configmaps/") === 1 ? true : undefined,
    );
    assert.ok(await live("child"));
    await env.client.delete({ ...CM, namespace: NS, name: "owner" });
    await waitFor("the child collected", async () => ((await live("child")) ? undefined : true));
  });

  it("holds an owner deleted in the foreground until its blocking dependent is gone", async () => {
    const owner = await env.client.create(configMap("fg-owner"));
    await env.client.create(configMap("fg-child", owner, true));
    await env.client.delete(
      { ...CM, namespace: NS, name: "fg-owner" },
      { propagationPolicy: "Foreground" },
    );
    await waitFor("both gone", async () =>
      (await live("fg-child")) || (await live("fg-owner")) ? undefined : true,
    );
  });

  it("strips an orphaned dependent's reference instead of deleting it", async () => {
    const owner = await env.client.create(configMap("o-owner"));
    await env.client.create(configMap("o-child", owner));
    await env.client.delete(
      { ...CM, namespace: NS, name: "o-owner" },
      { propagationPolicy: "Orphan" },
    );
    await waitFor("the owner gone", async () => ((await live("o-owner")) ? undefined : true));
    const child = await waitFor("the child orphaned", async () => {
      const c = await live("o-child");
      return c && !c.metadata.ownerReferences ? c : undefined;
    });
    assert.equal(child.metadata.name, "o-child");
  });
});
