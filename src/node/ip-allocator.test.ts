import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IpAllocator, ipToNumber, numberToIp, parseCidr } from "./ip-allocator.js";

describe("parseCidr", () => {
  it("parses a loopback range", () => {
    const c = parseCidr("127.1.0.0/16");
    assert.equal(numberToIp(c.base), "127.1.0.0");
    assert.equal(c.size, 65536);
  });

  it("refuses ranges outside loopback, host bits and bad prefixes", () => {
    assert.throws(() => parseCidr("10.0.0.0/16"), /inside 127\.0\.0\.0\/8/);
    assert.throws(() => parseCidr("127.1.0.5/16"), /did you mean 127\.1\.0\.0\/16/);
    assert.throws(() => parseCidr("127.1.0.0/31"), /between \/8 and \/30/);
    assert.throws(() => parseCidr("127.1.0.0"), /must look like/);
    assert.throws(() => parseCidr("127.1.0.300/24"), /not an IPv4 address/);
  });

  it("round-trips addresses", () => {
    assert.equal(numberToIp(ipToNumber("127.255.1.2")), "127.255.1.2");
  });
});

describe("IpAllocator", () => {
  it("hands out the lowest free address, skipping network and broadcast", () => {
    const a = new IpAllocator(parseCidr("127.9.0.0/30"));
    assert.equal(a.allocate(), "127.9.0.1");
    assert.equal(a.allocate(), "127.9.0.2");
    assert.throws(() => a.allocate(), /no free pod IP in 127\.9\.0\.0\/30/);
    a.release("127.9.0.1");
    assert.equal(a.allocate(), "127.9.0.1");
  });

  it("keeps addresses reserved from state files", () => {
    const a = new IpAllocator(parseCidr("127.9.0.0/24"));
    assert.equal(a.reserve("127.9.0.1"), true);
    assert.equal(a.reserve("127.9.0.3"), true);
    assert.equal(a.reserve("127.8.0.3"), false);
    assert.equal(a.allocate(), "127.9.0.2");
    assert.equal(a.allocate(), "127.9.0.4");
    assert.equal(a.inUse, 4);
  });
});
