/**
 * The pod routes controller on the envtest apiserver, with a stand-in for
 * `ip` that records each call instead of touching the kernel (so it runs
 * without root): routes follow the Nodes as they come, change and go; a
 * route a crashed run left (in the inventory) is removed; a CIDR that a
 * route of the machine covers is not taken over; every route goes, and the
 * inventory with them, when the Manager stops. test/e2e/cri-routing.test.ts
 * runs it against the kernel.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../../test/support/envtest.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { Node } from "../../api/index.js";
import { registerPodRoutes } from "./pod-route-controller.js";
import { readRouteInventory, routeInventoryPath, writeRouteInventory } from "./route-inventory.js";

/** Logs its arguments; `route show` prints the machine's table from the file `routes`. */
const FAKE_IP = `#!/bin/sh
dir=$(dirname "$0")
echo "$*" >> "$dir/calls"
case "$*" in
  "-o -4 route show table main") cat "$dir/routes" ;;
esac
`;

const node = (name: string, podCIDR: string, ip: string) => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name },
  spec: { podCIDR },
  status: { addresses: [{ type: "InternalIP", address: ip }] },
});

describe("Pod routes controller (ip stood in for)", () => {
  let env: Env;
  let dir: string;
  /** Creates the Node, then its status (a create drops it), as an agent registers. */
  const createNode = async (n: ReturnType<typeof node>) => {
    const created = await env.client.create(n);
    await env.client.updateStatus({ ...created, status: n.status });
  };
  before(async () => {
    env = await startEnv();
    dir = mkdtempSync(join(tmpdir(), "hearth-routes-"));
    writeFileSync(join(dir, "ip"), FAKE_IP);
    chmodSync(join(dir, "ip"), 0o755);
    writeFileSync(
      join(dir, "routes"),
      "default via 192.0.2.1 dev eth0\n192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2\n",
    );
  });
  after(async () => {
    await env.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const calls = () =>
    existsSync(join(dir, "calls"))
      ? readFileSync(join(dir, "calls"), "utf8").trim().split("\n")
      : [];
  const changes = () => calls().filter((c) => !c.includes("route show"));
  const waitCall = (call: string) =>
    waitFor(call, () => changes().includes(call) || undefined, 20_000);

  it("keeps a route per other Node, follows changes, never takes over the machine's, removes all at stop", async () => {
    const inventory = routeInventoryPath(dir);
    // A run killed before it could remove its route to a Node that has gone since.
    writeRouteInventory(inventory, [{ cidr: "10.240.0.0/24", via: "10.250.0.9" }]);
    await createNode(node("self", "10.248.0.0/24", "10.250.0.1"));
    await createNode(node("b", "10.249.0.0/24", "10.250.0.2"));
    await createNode(node("host-net", "192.0.2.128/25", "10.250.0.3"));
    const warnings: string[] = [];
    registerPodRoutes(env.manager, {
      name: "self",
      podCIDR: "10.248.0.0/24",
      dataDir: dir,
      ip: join(dir, "ip"),
      warn: (m) => warnings.push(m),
    });
    env.startManager();

    await waitCall("-4 route replace 10.249.0.0/24 via 10.250.0.2 proto 77");
    await waitCall("-4 route del 10.240.0.0/24 via 10.250.0.9 proto 77");
    // The inventory is rewritten once the stale route is gone.
    await waitFor("the inventory without the stale route", () =>
      readRouteInventory(inventory).length === 1 ? true : undefined,
    );
    assert.deepEqual(readRouteInventory(inventory), [{ cidr: "10.249.0.0/24", via: "10.250.0.2" }]);
    assert.ok(
      changes().every((c) => !c.includes("10.248.0.0") && !c.includes("192.0.2.128")),
      `never its own CIDR, nor one the machine routes: ${changes().join("; ")}`,
    );
    assert.match(
      warnings.join("\n"),
      /Node host-net: pod CIDR 192\.0\.2\.128\/25 overlaps 192\.0\.2\.0\/24 dev eth0/,
    );

    // The Node moves: the route follows it.
    const b = await env.client.get<Node>({ apiVersion: "v1", kind: "Node", name: "b" });
    await env.client.patchStatus(
      { apiVersion: "v1", kind: "Node", name: "b" },
      { status: { ...b.status, addresses: [{ type: "InternalIP", address: "10.250.0.6" }] } },
      { type: "merge" },
    );
    await waitCall("-4 route replace 10.249.0.0/24 via 10.250.0.6 proto 77");
    await waitCall("-4 route del 10.249.0.0/24 via 10.250.0.2 proto 77");

    await createNode(node("c", "10.247.0.0/24", "10.250.0.7"));
    await waitCall("-4 route replace 10.247.0.0/24 via 10.250.0.7 proto 77");
    await env.client.delete({ apiVersion: "v1", kind: "Node", name: "c" });
    await waitCall("-4 route del 10.247.0.0/24 via 10.250.0.7 proto 77");
    await waitFor("the inventory without c", () =>
      readRouteInventory(inventory).length === 1 ? true : undefined,
    );

    await env.stopManager();
    assert.equal(changes().at(-1), "-4 route del 10.249.0.0/24 via 10.250.0.6 proto 77");
    assert.equal(existsSync(inventory), false, "the inventory goes with the routes");
  });
});
