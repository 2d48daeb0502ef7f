import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { parseArgs } from "./args.js";
import { checkRuntimeCanStart, runtimeChoice, startContainerRuntime } from "./container-runtime.js";

const choice = (...argv: string[]) => runtimeChoice(parseArgs(argv));

test("the runtime is cri by default, on a private pod CIDR (10.88.0.0/24) and service CIDR (10.96.0.0/16) unless given; host when asked", () => {
  const defaults = { kind: "cri", podCIDR: "10.88.0.0/24", serviceCIDR: "10.96.0.0/16" };
  assert.deepEqual(choice(), defaults);
  assert.deepEqual(choice("--runtime", "host", "--pod-cidr", "127.1.0.0/16"), { kind: "host" });
  assert.deepEqual(choice("--runtime", "cri"), {
    kind: "cri",
    podCIDR: "10.88.0.0/24",
    serviceCIDR: "10.96.0.0/16",
  });
  assert.deepEqual(
    choice("--runtime=cri", "--pod-cidr", "10.90.3.0/24", "--service-cidr", "10.97.0.0/16"),
    { kind: "cri", podCIDR: "10.90.3.0/24", serviceCIDR: "10.97.0.0/16" },
  );
  assert.throws(() => choice("--runtime", "cri", "--pod-cidr", "127.1.0.0/16"), /is loopback/);
  assert.throws(() => choice("--runtime", "docker"), /--runtime must be host or cri, got "docker"/);
});

test("--containerd-socket means cri on that socket, and is refused with --runtime host", () => {
  assert.deepEqual(choice("--containerd-socket", "/run/c.sock"), {
    kind: "cri",
    podCIDR: "10.88.0.0/24",
    serviceCIDR: "10.96.0.0/16",
    socket: "/run/c.sock",
  });
  assert.throws(
    () => choice("--runtime", "host", "--containerd-socket", "/run/c.sock"),
    /--containerd-socket needs --runtime cri/,
  );
});

test("--insecure-registry takes comma-separated hosts with --runtime cri, and is refused elsewhere", () => {
  assert.deepEqual(
    choice("--runtime", "cri", "--insecure-registry", "127.0.0.1:5000,https://registry.lan"),
    {
      kind: "cri",
      podCIDR: "10.88.0.0/24",
      serviceCIDR: "10.96.0.0/16",
      insecureRegistries: [
        { host: "127.0.0.1:5000", server: "http://127.0.0.1:5000", skipVerify: false },
        { host: "registry.lan", server: "https://registry.lan", skipVerify: true },
      ],
    },
  );
  assert.throws(
    () => choice("--runtime", "host", "--insecure-registry", "127.0.0.1:5000"),
    /--insecure-registry needs --runtime cri/,
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
  assert.throws(
    () =>
      checkRuntimeCanStart({ kind: "cri", podCIDR: "10.88.0.0/24", serviceCIDR: "10.96.0.0/16" }),
    /running containers needs root.*--containerd-socket PATH.*--runtime host/,
  );
  await assert.rejects(
    startContainerRuntime(
      { kind: "cri", podCIDR: "10.88.0.0/24", serviceCIDR: "10.96.0.0/16" },
      "/nonexistent/h",
      () => {},
    ),
    /needs root/,
  );
  checkRuntimeCanStart({
    kind: "cri",
    podCIDR: "10.88.0.0/24",
    serviceCIDR: "10.96.0.0/16",
    socket: "/run/c.sock",
  });
  checkRuntimeCanStart({ kind: "host" });
  const host = await startContainerRuntime({ kind: "host" }, "/nonexistent/h", () => {});
  assert.equal(host.cri, undefined);
  await host.stop();
});
