/** Cache keys: the same inputs give the same key, any changed input a new one. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  baseKey,
  imageKey,
  parsePolicyCandidates,
  parseSimulatedInstall,
  upstreamVersion,
} from "./cache-key.js";
import { findSpec } from "./specs.js";

const SIMULATED = `NOTE: This is only a simulation!
Reading package lists...
Inst libpq5 (15.20-0+deb12u1 Debian-Security:12/oldstable-security [amd64])
Inst etcd-server (3.4.23-4+b4 Debian:12.15/oldstable [amd64])
Inst tzdata [2024a-0+deb12u1] (2025b-0+deb12u2 Debian:12.15/oldstable [all])
Conf etcd-server (3.4.23-4+b4 Debian:12.15/oldstable [amd64])
`;

const POLICY = `busybox-static:
  Installed: (none)
  Candidate: 1:1.35.0-4+deb12u1+b1
  Version table:
     1:1.35.0-4+deb12u1+b1 500
gone:
  Installed: (none)
  Candidate: (none)
`;

describe("version parsing", () => {
  it("reads every Inst line of a simulated install, upgrades too, sorted by name", () => {
    assert.deepEqual(parseSimulatedInstall(SIMULATED), [
      { name: "etcd-server", version: "3.4.23-4+b4" },
      { name: "libpq5", version: "15.20-0+deb12u1" },
      { name: "tzdata", version: "2025b-0+deb12u2" },
    ]);
  });

  it("reads the candidate of each package and refuses one without", () => {
    assert.deepEqual(parsePolicyCandidates(POLICY, ["busybox-static"]), [
      { name: "busybox-static", version: "1:1.35.0-4+deb12u1+b1" },
    ]);
    assert.throws(
      () => parsePolicyCandidates(POLICY, ["gone"]),
      /package gone has no installable version/,
    );
    assert.throws(() => parsePolicyCandidates(POLICY, ["absent"]), /package absent/);
  });

  it("names the upstream version without epoch and Debian revision", () => {
    assert.equal(upstreamVersion("1:1.35.0-4+deb12u1+b1"), "1.35.0");
    assert.equal(upstreamVersion("3.4.23-4+b4"), "3.4.23");
    assert.equal(upstreamVersion("15.20-0+deb12u1"), "15.20");
  });
});

describe("imageKey", () => {
  const spec = findSpec("etcd")!;
  const v = [
    { name: "etcd-server", version: "3.4.23-4+b4" },
    { name: "libc6", version: "2.36-9" },
  ];
  const key = imageKey(spec, "base1", v);

  it("does not depend on the order versions come in", () => {
    assert.equal(imageKey(spec, "base1", [...v].reverse()), key);
  });

  it("changes with a package version, the base, the spec or the extra input", () => {
    const others = [
      imageKey(spec, "base1", [{ ...v[0]!, version: "3.4.23-4+b5" }, v[1]!]),
      imageKey(spec, "base1", [v[0]!]),
      imageKey(spec, "base2", v),
      imageKey({ ...spec, config: { ...spec.config, cmd: ["etcd"] } }, "base1", v),
      imageKey(spec, "base1", v, "script"),
    ];
    for (const k of others) assert.notEqual(k, key);
    assert.equal(new Set(others).size, others.length);
  });
});

describe("baseKey", () => {
  it("is the set of installed packages and the sources, whatever the line order", () => {
    const k = baseKey("apt 2.6.1\nbash 5.2.15-2+b7\n", "deb x bookworm main\n");
    assert.equal(baseKey("bash 5.2.15-2+b7\n\napt 2.6.1", "deb x bookworm main\n"), k);
    assert.notEqual(baseKey("apt 2.6.1\nbash 5.2.15-2+b8\n", "deb x bookworm main\n"), k);
    assert.notEqual(baseKey("apt 2.6.1\nbash 5.2.15-2+b7\n", "deb y bookworm main\n"), k);
  });
});
