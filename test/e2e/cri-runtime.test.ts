/**
 * The CRI client against a real containerd that Hearth supervises, on a temp
 * data directory: a sandbox (in the node's network namespace: no CNI network
 * exists yet) and a busybox container run, log, exec and stop; nothing is
 * left afterwards (process, shim, mount, directory). And a container outlives
 * a SIGKILL of the process owning the supervisor, and the next supervisor on
 * the same directory adopts containerd and finds the container through CRI.
 * Skips when not root or when containerd or the image tools are missing.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { NotFoundError } from "../../src/api/index.js";
import {
  ContainerdSupervisor,
  CriClient,
  checkCanRun,
  containerdLayout,
  isRunning,
  type PodSandboxConfig,
} from "../../src/node/index.js";
import {
  BUSYBOX_IMAGE,
  buildBusyboxArchive,
  busyboxImageMissing,
  importImage,
} from "../support/busybox-image.js";
import { mountsUnder, processesNaming, removeLeftovers } from "../support/containerd-leftovers.js";
import { waitFor } from "../support/hearth-process.js";

function skipReason(): string | false {
  try {
    checkCanRun("containerd");
  } catch (e) {
    return (e as Error).message;
  }
  return busyboxImageMissing() ?? false;
}

const CHILD = fileURLToPath(new URL("../support/containerd-child.js", import.meta.url));
const call = { timeoutMs: 30_000 };

function sandboxConfig(name: string, logDirectory: string): PodSandboxConfig {
  // NODE: the sandbox shares the host's network (and so UTS) namespace, so it
  // may not set a hostname of its own; containerd writes the node's.
  return {
    metadata: { name, uid: `uid-${name}`, namespace: "default" },
    logDirectory,
    linux: { securityContext: { namespaceOptions: { network: "NODE" } } },
  };
}

/** Everything of one test directory: cleanup kills only what names it, unmounts only under it. */
function leftovers(tmp: string): string[] {
  const l = containerdLayout(join(tmp, "data"));
  return removeLeftovers(tmp, [l.config, l.socket]);
}

describe("CRI on a supervised containerd", { skip: skipReason() }, () => {
  let imageDir = "";
  let archive = "";
  before(() => {
    imageDir = mkdtempSync("/tmp/hearth-cri-image-");
    archive = buildBusyboxArchive(imageDir);
  });
  after(() => rmSync(imageDir, { recursive: true, force: true }));

  test("runs a sandbox and a container, logs, execs, stops, and leaves nothing", async () => {
    const tmp = mkdtempSync("/tmp/hearth-cri-");
    let cleaned: string[] = [];
    const abort = new AbortController();
    let cri: CriClient | undefined;
    try {
      const sup = new ContainerdSupervisor({
        dataDir: join(tmp, "data"),
        sandboxImage: BUSYBOX_IMAGE,
        stopGraceMs: 5000,
      });
      await sup.start(abort.signal);
      const containerdPid = sup.pid!;
      assert.ok(isRunning(containerdPid));
      importImage(sup.socket, archive);
      cri = await CriClient.connect(sup.socket);

      const version = await cri.version(call);
      assert.equal(version.runtimeName, "containerd");
      assert.equal(version.runtimeApiVersion, "v1");
      assert.ok(await cri.imageStatus({ image: BUSYBOX_IMAGE }, call));

      const hostFile = join(tmp, "host-only.txt");
      writeFileSync(hostFile, "not for containers\n");
      const logs = join(tmp, "logs");
      mkdirSync(logs);
      const config = sandboxConfig("p1", logs);
      const sandboxId = await cri.runPodSandbox(config, call);
      const sandbox = await cri.podSandboxStatus(sandboxId, call);
      assert.equal(sandbox.status?.state, "SANDBOX_READY");

      const id = await cri.createContainer(
        sandboxId,
        {
          metadata: { name: "c1" },
          image: { image: BUSYBOX_IMAGE },
          command: ["sh", "-c", "echo hi; sleep 3600"],
          logPath: "c1.log",
        },
        config,
        call,
      );
      await cri.startContainer(id, call);
      assert.equal((await cri.containerStatus(id, call)).status?.state, "CONTAINER_RUNNING");

      const logFile = join(logs, "c1.log");
      const line = await waitFor("the container's CRI log line", () => {
        const text = existsSync(logFile) ? readFileSync(logFile, "utf8") : "";
        return text.split("\n").find((l) => l.endsWith(" stdout F hi"));
      });
      assert.ok(!Number.isNaN(Date.parse(line.split(" ")[0]!)), `a timestamp first: ${line}`);

      const name = await cri.execSync(id, ["cat", "/etc/hostname"], 10, call);
      assert.equal(name.exitCode, 0);
      assert.equal(name.stdout.toString().trim(), hostname());
      const peek = await cri.execSync(id, ["cat", hostFile], 10, call);
      assert.notEqual(peek.exitCode, 0, "the host's file is not in the container");
      assert.match(peek.stderr.toString(), /No such file/);

      const stats = await cri.containerStats(id, call);
      assert.equal(stats.attributes?.id, id);
      assert.ok((stats.memory?.workingSetBytes?.value ?? 0) > 0);
      assert.deepEqual(
        (await cri.listContainerStats({ podSandboxId: sandboxId }, call)).map(
          (s) => s.attributes?.id,
        ),
        [id],
      );

      await cri.stopContainer(id, 1, call);
      assert.equal((await cri.containerStatus(id, call)).status?.state, "CONTAINER_EXITED");
      await cri.removeContainer(id, call);
      await assert.rejects(cri.containerStatus(id, call), NotFoundError);
      await cri.stopPodSandbox(sandboxId, call);
      await cri.removePodSandbox(sandboxId, call);
      assert.deepEqual(await cri.listContainers({}, call), []);
      assert.deepEqual(await cri.listPodSandbox({}, call), []);
      cri.close();
      cri = undefined;

      abort.abort();
      await sup.stopped();
      assert.equal(isRunning(containerdPid), false, "containerd stopped");
      const l = sup.layout;
      assert.deepEqual([...processesNaming(l.config), ...processesNaming(l.socket)], []);
      assert.deepEqual(mountsUnder(tmp), [], "nothing mounted under the test's directory");
    } finally {
      cri?.close();
      abort.abort();
      cleaned = leftovers(tmp);
      rmSync(tmp, { recursive: true, force: true });
    }
    // After the finally, so a failure inside the test is the one reported.
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
    assert.equal(existsSync(tmp), false);
  });

  test("a containerd that dies is started again; a clean stop leaves none", async () => {
    const tmp = mkdtempSync("/tmp/hearth-cri-");
    let cleaned: string[] = [];
    const abort = new AbortController();
    let cri: CriClient | undefined;
    try {
      const sup = new ContainerdSupervisor({
        dataDir: join(tmp, "data"),
        sandboxImage: BUSYBOX_IMAGE,
        restartBackoff: { baseMs: 100, maxMs: 1000 },
      });
      await sup.start(abort.signal);
      const first = sup.pid!;
      process.kill(first, "SIGKILL");
      const second = await waitFor("a new containerd", () => sup.pid !== first && sup.pid);
      cri = await CriClient.connect(sup.socket);
      await waitFor("CRI on the restarted containerd", () => cri!.version(call));
      cri.close();
      cri = undefined;
      abort.abort();
      await sup.stopped();
      assert.equal(isRunning(second), false);
      assert.equal(existsSync(sup.layout.pidFile), false, "the pid file goes with it");
    } finally {
      cri?.close();
      abort.abort();
      cleaned = leftovers(tmp);
      rmSync(tmp, { recursive: true, force: true });
    }
    // After the finally, so a failure inside the test is the one reported.
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
  });

  test("a container outlives the supervisor's owner; the next supervisor finds it", async () => {
    const tmp = mkdtempSync("/tmp/hearth-cri-");
    let cleaned: string[] = [];
    const dataDir = join(tmp, "data");
    const abort = new AbortController();
    let child: ChildProcess | undefined;
    let cri: CriClient | undefined;
    try {
      child = spawn(process.execPath, [CHILD, dataDir, BUSYBOX_IMAGE], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child!.stdout! }).once("line", resolve);
        child!.once("exit", (code) => reject(new Error(`supervisor child exited ${code}`)));
      });
      const owned = JSON.parse(first) as { pid: number; socket: string };
      importImage(owned.socket, archive);
      cri = await CriClient.connect(owned.socket);
      const logs = join(tmp, "logs");
      mkdirSync(logs);
      const config = sandboxConfig("p2", logs);
      const sandboxId = await cri.runPodSandbox(config, call);
      const id = await cri.createContainer(
        sandboxId,
        { metadata: { name: "c2" }, image: { image: BUSYBOX_IMAGE }, command: ["sleep", "3600"] },
        config,
        call,
      );
      await cri.startContainer(id, call);
      const info = (await cri.containerStatus(id, { ...call, verbose: true })).info;
      const containerPid = (JSON.parse(info.info ?? "{}") as { pid?: number }).pid;
      assert.ok(containerPid && isRunning(containerPid));
      cri.close();
      cri = undefined;

      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGKILL");
      await exited;
      child = undefined;
      assert.ok(isRunning(containerPid), "the container survives its owner's kill -9");
      assert.ok(isRunning(owned.pid), "containerd is detached from the killed owner");

      const sup = new ContainerdSupervisor({ dataDir, sandboxImage: BUSYBOX_IMAGE });
      await sup.start(abort.signal);
      assert.equal(sup.pid, owned.pid, "the next supervisor adopts the running containerd");
      cri = await CriClient.connect(sup.socket);
      const found = await cri.listContainers({}, call);
      assert.deepEqual(
        found.map((c) => [c.id, c.state]),
        [[id, "CONTAINER_RUNNING"]],
      );
      await cri.stopPodSandbox(sandboxId, call);
      await cri.removePodSandbox(sandboxId, call);
      assert.deepEqual(await cri.listContainers({}, call), []);
      assert.equal(isRunning(containerPid), false);
      cri.close();
      cri = undefined;
      abort.abort();
      await sup.stopped();
      assert.equal(isRunning(owned.pid), false, "the adopted containerd is stopped");
      assert.deepEqual(mountsUnder(tmp), []);
    } finally {
      cri?.close();
      child?.kill("SIGKILL");
      abort.abort();
      cleaned = leftovers(tmp);
      rmSync(tmp, { recursive: true, force: true });
    }
    // After the finally, so a failure inside the test is the one reported.
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
  });
});
