/** The local registry's configuration: loopback only, filesystem storage where it is told. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { registryConfig } from "./registry-config.js";

describe("registryConfig", () => {
  it("stores on the filesystem under the given root and listens on the loopback address", () => {
    const c = parse(
      registryConfig({ storage: "/d/registry/storage", host: "127.0.0.1", port: 5123 }),
    );
    assert.equal(c.version, 0.1);
    assert.deepEqual(c.storage.filesystem, { rootdirectory: "/d/registry/storage" });
    assert.equal(c.storage.delete.enabled, true);
    assert.equal(c.http.addr, "127.0.0.1:5123");
    assert.equal(c.http.tls, undefined);
  });

  it("brackets an IPv6 loopback", () => {
    const c = parse(registryConfig({ storage: "/s", host: "::1", port: 5 }));
    assert.equal(c.http.addr, "[::1]:5");
  });

  it("refuses any address but loopback", () => {
    for (const host of ["0.0.0.0", "10.0.0.1", "", "localhost"])
      assert.throws(
        () => registryConfig({ storage: "/s", host, port: 5000 }),
        /listens on loopback only/,
        host,
      );
  });
});
