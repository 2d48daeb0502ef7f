/** Discovery-based kind → resource mapping: caching, refetch on a miss, errors. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DiscoveryMapper, kindTable } from "./discovery-mapper.js";
import type { RawResponse } from "./interface.js";

type Resource = { name: string; kind: string; namespaced: boolean };

/** A discovery endpoint over `docs` (mutable), counting fetches per path. */
function fakeDiscovery(docs: Map<string, Resource[]>) {
  const fetches: string[] = [];
  const fetch = async (_method: string, path: string): Promise<RawResponse> => {
    fetches.push(path);
    const resources = docs.get(path);
    if (!resources) return { status: 404, headers: {}, body: "404 page not found" };
    return {
      status: 200,
      headers: {},
      body: JSON.stringify({ kind: "APIResourceList", resources }),
    };
  };
  return { fetch, fetches };
}

const core: Resource[] = [
  { name: "pods", kind: "Pod", namespaced: true },
  { name: "pods/status", kind: "Pod", namespaced: true },
  { name: "namespaces", kind: "Namespace", namespaced: false },
  { name: "namespaces/finalize", kind: "Namespace", namespaced: false },
];

describe("kindTable", () => {
  it("skips subresources and malformed entries", () => {
    const table = kindTable({
      resources: [{ name: "a/status", kind: "A", namespaced: true }, { name: 1 }, ...core],
    });
    assert.deepEqual([...table.keys()], ["Pod", "Namespace"]);
    assert.equal(table.get("A"), undefined);
  });
});

describe("DiscoveryMapper", () => {
  it("maps core and grouped kinds and caches each group version", async () => {
    const docs = new Map([
      ["/api/v1", core],
      ["/apis/apps/v1", [{ name: "deployments", kind: "Deployment", namespaced: true }]],
    ]);
    const { fetch, fetches } = fakeDiscovery(docs);
    const mapper = new DiscoveryMapper(fetch);
    assert.deepEqual(await mapper.resolve("v1", "Pod"), { plural: "pods", namespaced: true });
    assert.deepEqual(await mapper.resolve("v1", "Namespace"), {
      plural: "namespaces",
      namespaced: false,
    });
    assert.deepEqual(await mapper.resolve("apps/v1", "Deployment"), {
      plural: "deployments",
      namespaced: true,
    });
    assert.deepEqual(fetches, ["/api/v1", "/apis/apps/v1"]);
  });

  it("refetches once on a miss, finding a kind registered since", async () => {
    const crontab = { name: "crontabs", kind: "CronTab", namespaced: true };
    const docs = new Map<string, Resource[]>([["/apis/stable.example.com/v1", []]]);
    const { fetch, fetches } = fakeDiscovery(docs);
    const mapper = new DiscoveryMapper(fetch);
    await assert.rejects(mapper.resolve("stable.example.com/v1", "CronTab"), {
      code: 404,
      reason: "NotFound",
      message: 'no matches for kind "CronTab" in version "stable.example.com/v1"',
    });
    assert.equal(fetches.length, 1, "a cold miss fetches once, not twice");
    docs.set("/apis/stable.example.com/v1", [crontab]);
    assert.deepEqual(await mapper.resolve("stable.example.com/v1", "CronTab"), {
      plural: "crontabs",
      namespaced: true,
    });
    assert.equal(fetches.length, 2);
    await mapper.resolve("stable.example.com/v1", "CronTab");
    assert.equal(fetches.length, 2, "a hit is served from the cache");
  });

  it("reports a group version the server does not serve as no match", async () => {
    const mapper = new DiscoveryMapper(fakeDiscovery(new Map()).fetch);
    await assert.rejects(mapper.resolve("nope.io/v1", "Thing"), {
      code: 404,
      message: 'no matches for kind "Thing" in version "nope.io/v1"',
    });
  });

  it("shares one request among concurrent lookups", async () => {
    const { fetch, fetches } = fakeDiscovery(new Map([["/api/v1", core]]));
    const mapper = new DiscoveryMapper(fetch);
    const results = await Promise.all([
      mapper.resolve("v1", "Pod"),
      mapper.resolve("v1", "Namespace"),
      mapper.resolve("v1", "Pod"),
    ]);
    assert.equal(results[0]?.plural, "pods");
    assert.equal(fetches.length, 1);
  });

  it("does not cache a failed discovery", async () => {
    let fail = true;
    const fetch = async (): Promise<RawResponse> =>
      fail
        ? { status: 503, headers: {}, body: "unavailable" }
        : { status: 200, headers: {}, body: JSON.stringify({ resources: core }) };
    const mapper = new DiscoveryMapper(fetch);
    await assert.rejects(mapper.resolve("v1", "Pod"), {
      code: 503,
      message: /cannot discover resources of v1/,
    });
    fail = false;
    assert.equal((await mapper.resolve("v1", "Pod")).plural, "pods");
  });

  it("rediscovers everything after reset", async () => {
    const { fetch, fetches } = fakeDiscovery(new Map([["/api/v1", core]]));
    const mapper = new DiscoveryMapper(fetch);
    await mapper.resolve("v1", "Pod");
    mapper.reset();
    await mapper.resolve("v1", "Pod");
    assert.equal(fetches.length, 2);
  });
});
