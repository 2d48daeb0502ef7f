import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { parseArgs } from "./args.js";
import {
  checkRuntimeCanStart,
  HOST_RUNTIME_GONE,
  runtimeChoice,
  startContainerRuntime,
} from "./container-runtime.js";

const choice = (...argv: string[]) => runtimeChoice(parseArgs(argv));

test("pods are containers, on a private pod CIDR (10.88.0.0/24) and service CIDR (10.96.0.0/16) unless given", () => {
  const defaults = { podCIDR: "10.88.0.0/24", serviceCIDR: "10.96.0.0/16" };
  assert.deepEqual(choice(), defaults);
  assert.deepEqual(
    choice("--runtime", "cri"),
    defaults,
    "--runtime cri is accepted and changes nothing",
  );
  assert.deepEqual(
    choice("--runtime=cri", "--pod-cidr", "10.90.3.0/24", "--service-cidr", "10.97.0.0/16"),
    { podCIDR: "10.90.3.0/24", serviceCIDR: "10.97.0.0/16" },
  );
  assert.throws(() => choice("--pod-cidr", "127.1.0.0/16"), /is loopback/);
  assert.throws(() => choice("--runtime", "docker"), /--runtime must be cri, got "docker"/);
});

test("--runtime host is refused, saying host processes are gone and what to do instead", () => {
  for (const argv of [
    ["--runtime", "host"],
    ["--runtime=host", "--containerd-socket", "/run/c.sock"],
  ])
    assert.throws(
      () => choice(...argv),
      (e: Error) => {
        assert.equal(e.message, HOST_RUNTIME_GONE);
        assert.match(e.message, /gone.*as root.*--containerd-socket PATH.*--no-node-agent/);
        return true;
      },
    );
});

test("--containerd-socket means that containerd's socket", () => {
  assert.deepEqual(choice("--containerd-socket", "/run/c.sock"), {
    podCIDR: "10.88.0.0/24",
    serviceCIDR: "10.96.0.0/16",
    socket: "/run/c.sock",
  });
});

test("--insecure-registry takes comma-separated hosts for its own containerd, and is refused with a given one", () => {
  assert.deepEqual(
    choice("--runtime", "cri", "--insecure-registry", "127.0.0.1:5000,https://registry.lan"),
    {
      podCIDR: "10.88.0.0/24",
      serviceCIDR: "10.96.0.0/16",
      insecureRegistries: [
        { host: "127.0.0.1:5000", server: "http://127.0.0.1:5000", skipVerify: false },
        { host: "registry.lan", server: "https://registry.lan", skipVerify: true },
      ],
    },
  );
  assert.throws(
    () => choice("--containerd-socket", "/run/c.sock", "--insecure-registry", "127.0.0.1:5000"),
    /with --containerd-socket, configure that containerd's registry hosts/,
  );
  assert.throws(
    () => choice("--runtime", "cri", "--insecure-registry", "127.0.0.1:5000/x"),
    /--insecure-registry "127\.0\.0\.1:5000\/x": must be HOST/,
  );
});

const realGetuid = process.getuid;
afterEach(() => {
  process.getuid = realGetuid;
});

test("without root, a containerd of its own is refused with what is needed; a given socket is not", async () => {
  process.getuid = () => 1000;
  const own = { podCIDR: "10.88.0.0/24", serviceCIDR: "10.96.0.0/16" };
  assert.throws(
    () => checkRuntimeCanStart(own),
    /running containers needs root.*--containerd-socket PATH.*--no-node-agent/,
  );
  await assert.rejects(
    startContainerRuntime(own, "/nonexistent/h", () => {}),
    /needs root/,
  );
  checkRuntimeCanStart({ ...own, socket: "/run/c.sock" });
});
