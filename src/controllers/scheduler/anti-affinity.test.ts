import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { antiAffinity, node, pod } from "../../../test/support/fixtures/scheduler.js";
import {
  REASON_ANTI_AFFINITY,
  REASON_EXISTING_ANTI_AFFINITY,
  termSelects,
} from "./anti-affinity.js";
import { schedule } from "./fit.js";

describe("scheduler anti-affinity", () => {
  const nodes = [node("a"), node("b")];

  it("spreads replicas that repel each other over hostnames", () => {
    const first = pod("db-0", { labels: { app: "db" }, spec: antiAffinity("db") });
    const second = pod("db-1", { labels: { app: "db" }, spec: antiAffinity("db") });
    const third = pod("db-2", { labels: { app: "db" }, spec: antiAffinity("db") });
    const bound = [{ pod: first, nodeName: "a" }];
    assert.deepEqual(schedule(second, { nodes, bound }), { nodeName: "b" });
    bound.push({ pod: second, nodeName: "b" });
    assert.deepEqual(schedule(third, { nodes, bound }), {
      unschedulable: `0/2 nodes are available: 2 ${REASON_EXISTING_ANTI_AFFINITY}.`,
    });
  });

  it("checks the incoming pod's terms against pods already placed", () => {
    const web = pod("web", { labels: { app: "web" } });
    const picky = pod("p", { spec: antiAffinity("web") });
    assert.deepEqual(schedule(picky, { nodes, bound: [{ pod: web, nodeName: "a" }] }), {
      nodeName: "b",
    });
    assert.deepEqual(
      schedule(picky, {
        nodes,
        bound: [
          { pod: web, nodeName: "a" },
          { pod: pod("web2", { labels: { app: "web" } }), nodeName: "b" },
        ],
      }),
      { unschedulable: `0/2 nodes are available: 2 ${REASON_ANTI_AFFINITY}.` },
    );
  });

  it("uses the topology key's label for domains", () => {
    const zoned = [
      node("a", { labels: { zone: "z1" } }),
      node("b", { labels: { zone: "z1" } }),
      node("c", { labels: { zone: "z2" } }),
    ];
    const web = pod("web", { labels: { app: "web" } });
    const picky = pod("p", { spec: antiAffinity("web", "zone") });
    assert.deepEqual(schedule(picky, { nodes: zoned, bound: [{ pod: web, nodeName: "a" }] }), {
      nodeName: "c",
    });
  });

  it("ignores finished pods and pods of other namespaces", () => {
    const done = pod("web", { labels: { app: "web" }, phase: "Succeeded" });
    const elsewhere = pod("web", { labels: { app: "web" }, namespace: "other" });
    const picky = pod("p", { spec: antiAffinity("web") });
    const one = [node("a")];
    assert.deepEqual(
      schedule(picky, {
        nodes: one,
        bound: [
          { pod: done, nodeName: "a" },
          { pod: elsewhere, nodeName: "a" },
        ],
      }),
      { nodeName: "a" },
    );
  });

  it("scopes terms by namespaces and an empty namespaceSelector", () => {
    const target = pod("t", { labels: { app: "x" }, namespace: "other" });
    const sel = { matchLabels: { app: "x" } };
    assert.equal(termSelects({ labelSelector: sel, topologyKey: "h" }, "default", target), false);
    assert.equal(
      termSelects(
        { labelSelector: sel, namespaces: ["other"], topologyKey: "h" },
        "default",
        target,
      ),
      true,
    );
    assert.equal(
      termSelects(
        { labelSelector: sel, namespaceSelector: {}, topologyKey: "h" },
        "default",
        target,
      ),
      true,
    );
    assert.equal(termSelects({ labelSelector: null, topologyKey: "h" }, "other", target), false);
  });
});
