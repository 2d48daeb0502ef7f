import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  mirrorPathOf,
  parseInsecureRegistry,
  renderHostsToml,
  SANDBOX_IMAGE,
  writeRegistryHosts,
} from "./registry-hosts.js";

test("the path a mirror is asked for: Docker Hub's library/ for bare names, the path after any other host", () => {
  assert.equal(mirrorPathOf("nginx:1.22"), "library/nginx:1.22");
  assert.equal(mirrorPathOf("docker.io/library/postgres:15"), "library/postgres:15");
  assert.equal(mirrorPathOf("docker.io/redis:7"), "library/redis:7");
  assert.equal(mirrorPathOf("bitnami/redis:7"), "bitnami/redis:7");
  assert.equal(mirrorPathOf(SANDBOX_IMAGE), "pause:3.9");
  assert.equal(mirrorPathOf("127.0.0.1:5000/library/etcd:3.4"), "library/etcd:3.4");
  assert.equal(mirrorPathOf("localhost/app:1"), "app:1");
});

test("a mirrored registry's hosts.toml: the local registry first for pull and resolve, the real server behind", () => {
  const text = renderHostsToml("https://registry-1.docker.io", "127.0.0.1:5000");
  const lines = text.split("\n").filter((l) => l && !l.startsWith("#"));
  assert.deepEqual(lines, [
    'server = "https://registry-1.docker.io"',
    '[host."http://127.0.0.1:5000"]',
    '  capabilities = ["pull", "resolve"]',
  ]);
});

test("a registry of its own: the server is also its one [host] (containerd 1.6 ignores a hosts.toml without one)", () => {
  const lines = (text: string) => text.split("\n").filter((l) => l && !l.startsWith("#"));
  assert.deepEqual(lines(renderHostsToml("http://127.0.0.1:5000")), [
    'server = "http://127.0.0.1:5000"',
    '[host."http://127.0.0.1:5000"]',
    '  capabilities = ["pull", "resolve"]',
  ]);
  assert.deepEqual(lines(renderHostsToml("https://registry.lan", undefined, true)), [
    'server = "https://registry.lan"',
    "skip_verify = true",
    '[host."https://registry.lan"]',
    '  capabilities = ["pull", "resolve"]',
    "  skip_verify = true",
  ]);
});

test("writeRegistryHosts writes docker.io, registry.k8s.io and the registry itself, and drops an old port", () => {
  const dir = mkdtempSync(join(tmpdir(), "hearth-hosts-"));
  try {
    const certs = join(dir, "certs.d");
    mkdirSync(join(certs, "127.0.0.1:4000"), { recursive: true });
    writeFileSync(
      join(certs, "127.0.0.1:4000", "hosts.toml"),
      'server = "http://127.0.0.1:4000"\n',
    );
    writeRegistryHosts(certs, "127.0.0.1:5001");
    assert.deepEqual(readdirSync(certs).sort(), ["127.0.0.1:5001", "docker.io", "registry.k8s.io"]);
    assert.equal(existsSync(join(certs, "127.0.0.1:4000")), false);
    writeRegistryHosts(certs, "127.0.0.1:5001", [
      parseInsecureRegistry("127.0.0.1:4000"),
      parseInsecureRegistry("https://registry.lan"),
    ]);
    assert.deepEqual(readdirSync(certs).sort(), [
      "127.0.0.1:4000",
      "127.0.0.1:5001",
      "docker.io",
      "registry.k8s.io",
      "registry.lan",
    ]);
    const read = (host: string) => readFileSync(join(certs, host, "hosts.toml"), "utf8");
    assert.match(read("docker.io"), /^server = "https:\/\/registry-1\.docker\.io"$/m);
    assert.match(read("docker.io"), /^\[host\."http:\/\/127\.0\.0\.1:5001"\]$/m);
    assert.match(read("registry.k8s.io"), /^server = "https:\/\/registry\.k8s\.io"$/m);
    assert.match(read("registry.k8s.io"), /^\[host\."http:\/\/127\.0\.0\.1:5001"\]$/m);
    assert.match(read("127.0.0.1:5001"), /^server = "http:\/\/127\.0\.0\.1:5001"$/m);
    assert.match(read("127.0.0.1:4000"), /^server = "http:\/\/127\.0\.0\.1:4000"$/m);
    assert.match(read("127.0.0.1:4000"), /^\[host\."http:\/\/127\.0\.0\.1:4000"\]$/m);
    assert.doesNotMatch(read("127.0.0.1:4000"), /skip_verify/);
    assert.match(read("registry.lan"), /^server = "https:\/\/registry\.lan"\nskip_verify = true$/m);
    writeRegistryHosts(certs, "127.0.0.1:5001");
    assert.equal(existsSync(join(certs, "registry.lan")), false, "a registry no longer named goes");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--insecure-registry: a host (plain http), http:// or https:// (TLS, unverified); nothing an image could not name", () => {
  assert.deepEqual(parseInsecureRegistry("127.0.0.1:5000"), {
    host: "127.0.0.1:5000",
    server: "http://127.0.0.1:5000",
    skipVerify: false,
  });
  assert.deepEqual(parseInsecureRegistry("http://registry.lan/"), {
    host: "registry.lan",
    server: "http://registry.lan",
    skipVerify: false,
  });
  assert.deepEqual(parseInsecureRegistry("https://registry.lan:8443"), {
    host: "registry.lan:8443",
    server: "https://registry.lan:8443",
    skipVerify: true,
  });
  assert.equal(parseInsecureRegistry("localhost").server, "http://localhost");
  assert.equal(parseInsecureRegistry("[::1]:5000").server, "http://[::1]:5000");
  for (const bad of ["", "reg.lan/team", "ftp://reg.lan", "reg.lan:99999", "-x.lan", "a b.lan"])
    assert.throws(() => parseInsecureRegistry(bad), /must be HOST\[:PORT\]/, bad);
  assert.throws(() => parseInsecureRegistry("registry"), /with a "\." or a ":PORT"/);
  assert.throws(() => parseInsecureRegistry("docker.io"), /local registry is its mirror/);
});
