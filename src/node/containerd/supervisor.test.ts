import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, test } from "node:test";
import { ContainerdSupervisor, checkCanRun } from "./supervisor.js";

const realGetuid = process.getuid;
afterEach(() => {
  process.getuid = realGetuid;
});

test("without root, starting containerd is refused with what is needed", async () => {
  process.getuid = () => 1000;
  assert.throws(
    () => checkCanRun("containerd"),
    /running containers needs root.*--containerd-socket PATH.*--no-node-agent/,
  );
  const sup = new ContainerdSupervisor({ dataDir: "/nonexistent/h", sandboxImage: "x" });
  await assert.rejects(sup.start(new AbortController().signal), /needs root/);
});

test("a missing containerd binary names the Debian package", () => {
  process.getuid = () => 0;
  assert.throws(
    () => checkCanRun("/nonexistent/containerd"),
    /cannot run \/nonexistent\/containerd: .*install the Debian package containerd/,
  );
});

test("with an existing socket nothing is started, and a silent socket is a clear error", async () => {
  // A real directory, so that a supervisor ignoring `socket` would show here, not litter /.
  const dir = mkdtempSync(join(tmpdir(), "hearth-sup-"));
  const sup = new ContainerdSupervisor({
    dataDir: dir,
    socket: "/nonexistent/containerd.sock",
    sandboxImage: "x",
    readyTimeoutMs: 300,
  });
  assert.equal(sup.socket, "/nonexistent/containerd.sock");
  await assert.rejects(
    sup.start(new AbortController().signal),
    /no containerd answers CRI on \/nonexistent\/containerd.sock/,
  );
  assert.equal(sup.pid, undefined);
  rmSync(dir, { recursive: true, force: true });
});
