import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatIpv4, inRange, lowestFree, parseCidr, parseIpv4, serialized } from "./cluster-ip.js";

describe("ClusterIP ranges", () => {
  it("parses addresses strictly", () => {
    assert.equal(parseIpv4("127.2.0.1"), 0x7f020001);
    assert.equal(formatIpv4(0x7f020001), "127.2.0.1");
    for (const bad of ["127.2.0", "127.2.0.256", "127.02.0.1", "a.b.c.d", "1.2.3.4/8", ""])
      assert.equal(parseIpv4(bad), undefined, bad);
  });

  it("excludes the network and broadcast addresses", () => {
    const r = parseCidr("127.2.0.0/16");
    assert.equal(formatIpv4(r.first), "127.2.0.1");
    assert.equal(formatIpv4(r.last), "127.2.255.254");
    assert.equal(inRange(r, "127.2.0.0"), false);
    assert.equal(inRange(r, "127.2.255.255"), false);
    assert.equal(inRange(r, "127.2.3.4"), true);
    assert.equal(inRange(r, "127.3.0.1"), false);
    assert.equal(parseCidr("10.0.0.7/24").cidr, "10.0.0.0/24");
    assert.throws(() => parseCidr("10.0.0.0/31"), /invalid service CIDR/);
    assert.throws(() => parseCidr("nope"), /invalid service CIDR/);
  });

  it("keeps the tenth address (the cluster DNS Service's) for last", () => {
    const r = parseCidr("10.96.0.0/28");
    const used = new Set(Array.from({ length: 9 }, (_, i) => `10.96.0.${i + 1}`));
    assert.equal(lowestFree(r, used), "10.96.0.11");
    for (let i = 11; i <= 14; i++) used.add(`10.96.0.${i}`);
    assert.equal(lowestFree(r, used), "10.96.0.10");
    used.add("10.96.0.10");
    assert.equal(lowestFree(r, used), undefined);
  });

  it("takes the lowest free address until the range is full", () => {
    const r = parseCidr("10.0.0.0/30"); // two usable addresses
    assert.equal(lowestFree(r, new Set()), "10.0.0.1");
    assert.equal(lowestFree(r, new Set(["10.0.0.1"])), "10.0.0.2");
    assert.equal(lowestFree(r, new Set(["10.0.0.1", "10.0.0.2"])), undefined);
  });

  it("runs calls on one key one after another, even when one fails", async () => {
    const key = {};
    const order: string[] = [];
    const step = (name: string, ms: number, fail = false) =>
      serialized(key, async () => {
        order.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        order.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step("a", 20, true), step("b", 1), step("c", 5)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ["rejected", "fulfilled", "fulfilled"],
    );
    assert.deepEqual(order, ["start a", "end a", "start b", "end b", "start c", "end c"]);
  });
});
