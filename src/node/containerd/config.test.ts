import assert from "node:assert/strict";
import { test } from "node:test";
import { renderContainerdConfig, tomlString } from "./config.js";
import { containerdLayout, SOCKET_PATH_MAX, socketPathFor } from "./layout.js";

test("the config puts root, state, sockets, runc roots, CNI and registry dirs under DIR", () => {
  const l = containerdLayout("/var/lib/h");
  const toml = renderContainerdConfig(l, { sandboxImage: "hearth.invalid/busybox:test" });
  const lines = toml.split("\n").map((s) => s.trim());
  for (const want of [
    "version = 2",
    'root = "/var/lib/h/containerd/root"',
    'state = "/var/lib/h/containerd/state"',
    'address = "/var/lib/h/containerd/c.sock"',
    'address = "/var/lib/h/containerd/c.sock.ttrpc"',
    'runtime_root = "/var/lib/h/containerd/state/runc-v1"',
    'Root = "/var/lib/h/containerd/state/runc"',
    'path = "/var/lib/h/containerd/opt"',
    'conf_dir = "/var/lib/h/containerd/cni/net.d"',
    'bin_dir = "/usr/lib/cni"',
    'config_path = "/var/lib/h/containerd/certs.d"',
    'sandbox_image = "hearth.invalid/busybox:test"',
    'snapshotter = "overlayfs"',
    'runtime_type = "io.containerd.runc.v2"',
    "SystemdCgroup = false",
    "restrict_oom_score_adj = true",
    "netns_mounts_under_state_dir = true",
    'stream_server_address = "127.0.0.1"',
  ])
    assert.ok(lines.includes(want), `missing line: ${want}`);
  // No debug or metrics listener: both addresses are empty.
  assert.equal(lines.filter((s) => s === 'address = ""').length, 2);
  assert.ok(!toml.includes('io.containerd.runtime.v1.linux",'), "v1 runtime stays enabled");
});

test("each section header appears once, in the order containerd reads them", () => {
  const toml = renderContainerdConfig(containerdLayout("/d"), { sandboxImage: "x" });
  const headers = toml.split("\n").filter((s) => s.startsWith("["));
  assert.equal(new Set(headers).size, headers.length);
  assert.deepEqual(headers.slice(0, 4), ["[grpc]", "[ttrpc]", "[debug]", "[metrics]"]);
});

test("TOML strings escape quotes, backslashes and control characters", () => {
  assert.equal(tomlString('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(tomlString("x\ny"), '"x\\u000ay"');
  const l = containerdLayout('/tmp/we"ird');
  assert.ok(renderContainerdConfig(l, { sandboxImage: "i" }).includes('root = "/tmp/we\\"ird/'));
});

test("the socket stays under DIR while it fits the unix socket limit, else moves to /run/hearth", () => {
  assert.equal(socketPathFor("/srv/h"), "/srv/h/containerd/c.sock");
  const long = `/srv/${"d".repeat(100)}`;
  const moved = socketPathFor(long);
  assert.match(moved, /^\/run\/hearth\/[0-9a-f]{16}\/c\.sock$/);
  assert.equal(socketPathFor(long), moved, "stable for one DIR");
  assert.notEqual(socketPathFor(`${long}x`), moved, "distinct per DIR");
  // The longest path that still fits: DIR/containerd/c.sock.ttrpc is exactly 107 bytes.
  const edge = `/${"e".repeat(SOCKET_PATH_MAX - "/containerd/c.sock.ttrpc".length - 1)}`;
  assert.equal(socketPathFor(edge), `${edge}/containerd/c.sock`);
  assert.match(socketPathFor(`${edge}e`), /^\/run\/hearth\//);
  assert.equal(containerdLayout(long).ttrpcSocket, `${moved}.ttrpc`);
});
