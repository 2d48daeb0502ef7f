/**
 * The process helpers clean up after themselves: `stopChild` kills a child
 * that ignores SIGTERM once its grace has passed, and a `hearth up` that is not
 * ready in time is killed, not left running.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startHearth, stopChild, waitFor } from "./hearth-process.js";
import { processTable } from "./node-pods.js";

describe("test process helpers", () => {
  it("stopChild sends SIGKILL to a child that ignores SIGTERM, after the grace", {
    timeout: 20_000,
  }, async () => {
    const child = spawn(
      process.execPath,
      ["-e", "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);"],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    await new Promise((r) => child.stdout!.once("data", r));
    const started = Date.now();
    try {
      assert.equal(await stopChild(child, 300), null);
      assert.equal(child.signalCode, "SIGKILL");
      assert.ok(Date.now() - started >= 250, "it had its grace first");
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });

  it("stopChild returns the exit code of a child that stops on SIGTERM", {
    timeout: 20_000,
  }, async () => {
    const child = spawn(
      process.execPath,
      [
        "-e",
        "process.on('SIGTERM', () => process.exit(3)); console.log('ready'); setInterval(() => {}, 1000);",
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    await new Promise((r) => child.stdout!.once("data", r));
    assert.equal(await stopChild(child, 30_000), 3);
  });

  it("kills a hearth up that is not ready in time", { timeout: 30_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "hearth-helper-"));
    try {
      await assert.rejects(startHearth({ dataDir, timeoutMs: 1 }), /not ready in time/);
      await waitFor(
        "no process left on the data directory",
        () => !processTable().some((p) => p.cmdline.some((a) => a.includes(dataDir))),
        10_000,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
