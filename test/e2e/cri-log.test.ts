/**
 * A log file written by a real containerd, read through the CRI log reader:
 * a busybox container prints lines to stdout and stderr, one line on each
 * longer than containerd's 16 KiB record limit (so it is cut into partial
 * records) and a last one without newline; the reader gives back exactly
 * what the container printed, each stream's lines in order, both when read
 * after the container exited and when followed while it was writing.
 * Skips when not root or when containerd or the image tools are missing.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  ContainerdSupervisor,
  CriClient,
  checkCanRun,
  containerdLayout,
  readCriLog,
} from "../../src/node/index.js";
import {
  BUSYBOX_IMAGE,
  buildBusyboxArchive,
  busyboxImageMissing,
  importImage,
} from "../support/busybox-image.js";
import { mountsUnder, removeLeftovers } from "../support/containerd-leftovers.js";
import { waitFor } from "../support/hearth-process.js";

function skipReason(): string | false {
  try {
    checkCanRun("containerd");
  } catch (e) {
    return (e as Error).message;
  }
  return busyboxImageMissing() ?? false;
}

const call = { timeoutMs: 30_000 };
const seq = (n: number, sep: string) => Array.from({ length: n }, (_, i) => i + 1).join(sep);

// What the container prints, per stream; the last stdout line has no newline.
const SCRIPT = [
  "echo out-1",
  "echo err-1 >&2",
  "seq -s ' ' 1 8000",
  "seq -s , 1 6000 >&2",
  "echo err-2 >&2",
  "printf 'no newline'",
].join("; ");
const STDOUT = ["out-1", seq(8000, " "), "no newline"];
const STDERR = ["err-1", seq(6000, ","), "err-2"];

/** Each stream's lines in the order they come in `text`; fails on a line of neither. */
function byStream(text: string): { stdout: string[]; stderr: string[] } {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  for (const l of lines)
    assert.ok(
      STDOUT.includes(l) || STDERR.includes(l),
      `a line the container printed: ${l.slice(0, 80)}`,
    );
  return {
    stdout: lines.filter((l) => STDOUT.includes(l)),
    stderr: lines.filter((l) => STDERR.includes(l)),
  };
}

describe("CRI logs written by containerd", { skip: skipReason() }, () => {
  let imageDir = "";
  let archive = "";
  before(() => {
    imageDir = mkdtempSync("/tmp/hearth-cri-log-image-");
    archive = buildBusyboxArchive(imageDir);
  });
  after(() => rmSync(imageDir, { recursive: true, force: true }));

  test("come back exactly as the container printed them, read whole and followed", async () => {
    assert.ok(STDOUT[1]!.length > 16 * 1024 && STDERR[1]!.length > 16 * 1024);
    const tmp = mkdtempSync("/tmp/hearth-cri-log-");
    let cleaned: string[] = [];
    const abort = new AbortController();
    let cri: CriClient | undefined;
    let sandboxId: string | undefined;
    try {
      const sup = new ContainerdSupervisor({
        dataDir: join(tmp, "data"),
        sandboxImage: BUSYBOX_IMAGE,
        stopGraceMs: 5000,
      });
      await sup.start(abort.signal);
      importImage(sup.socket, archive);
      cri = await CriClient.connect(sup.socket);
      const logs = join(tmp, "logs");
      mkdirSync(logs);
      const config = {
        metadata: { name: "logs", uid: "uid-logs", namespace: "default" },
        logDirectory: logs,
        linux: { securityContext: { namespaceOptions: { network: "NODE" as const } } },
      };
      sandboxId = await cri.runPodSandbox(config, call);
      const id = await cri.createContainer(
        sandboxId,
        {
          metadata: { name: "printer" },
          image: { image: BUSYBOX_IMAGE },
          command: ["sh", "-c", SCRIPT],
          logPath: "printer.log",
        },
        config,
        call,
      );
      const file = join(logs, "printer.log");
      const followed = readCriLog(file, { follow: true });
      let followedText = followed.text;
      await cri.startContainer(id, call);
      await waitFor("the container to exit", async () => {
        followedText += followed.more(false);
        return (await cri!.containerStatus(id, call)).status?.state === "CONTAINER_EXITED";
      });
      // containerd writes the last record when the container's streams close.
      const whole = await waitFor("every line in the log", () => {
        const text = readCriLog(file, {}).text;
        return text.includes("no newline") && text.includes("err-2") && text;
      });

      assert.deepEqual(byStream(whole), { stdout: STDOUT, stderr: STDERR });
      const records = readFileSync(file, "utf8").split("\n");
      // containerd writes what has no newline at the end as a partial record,
      // which the kubelet, like this reader, gives back as it is.
      assert.match(records.at(-2) ?? "", / stdout P no newline$/);
      assert.ok(whole.endsWith("\nno newline"));
      assert.ok(
        records.filter((r) => / stdout P /.test(r)).length >= 3 &&
          records.filter((r) => / stderr P /.test(r)).length >= 1,
        "containerd cut the long lines into partial records",
      );

      followedText += followed.more(true);
      assert.equal(followedText, whole, "following gives the same text");

      const stamped = readCriLog(file, { timestamps: true }).text;
      const stamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}(Z|[+-]\d\d:\d\d) /;
      const lines = stamped.split("\n");
      assert.equal(lines.length, 6);
      for (const l of lines) assert.match(l.slice(0, 40), stamp);
      assert.equal(lines.map((l) => l.replace(stamp, "")).join("\n"), whole);
      assert.equal(readCriLog(file, { tailLines: 6 }).text, whole);

      await cri.removeContainer(id, call);
      await cri.stopPodSandbox(sandboxId, call);
      await cri.removePodSandbox(sandboxId, call);
      sandboxId = undefined;
      cri.close();
      cri = undefined;
      abort.abort();
      await sup.stopped();
      assert.deepEqual(mountsUnder(tmp), [], "nothing mounted under the test's directory");
    } finally {
      // A failed test still takes its sandbox down, or its pause process outlives containerd.
      if (cri && sandboxId) {
        await cri.stopPodSandbox(sandboxId, call).catch(() => {});
        await cri.removePodSandbox(sandboxId, call).catch(() => {});
      }
      cri?.close();
      abort.abort();
      const l = containerdLayout(join(tmp, "data"));
      cleaned = removeLeftovers(tmp, [l.config, l.socket]);
      rmSync(tmp, { recursive: true, force: true });
    }
    // After the finally, so a failure inside the test is the one reported.
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
    assert.equal(existsSync(tmp), false);
  });
});
