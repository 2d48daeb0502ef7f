import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Probe } from "../api/index.js";
import { ContainerProber, type ProbeKind } from "./prober.js";

const fast = (p: Partial<Probe> = {}): Probe => ({
  exec: { command: ["true"] },
  periodSeconds: 0.01,
  failureThreshold: 2,
  successThreshold: 1,
  ...p,
});

function until(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error("condition not reached"));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

describe("ContainerProber", () => {
  it("is ready after a readiness success and unready after failureThreshold failures", async () => {
    let healthy = true;
    let changes = 0;
    const p = new ContainerProber({
      readiness: fast(),
      run: async () => ({ ok: healthy, message: healthy ? "" : "refused" }),
      onChange: () => changes++,
    });
    assert.equal(p.ready, false);
    p.start();
    await until(() => p.ready);
    healthy = false;
    await until(() => !p.ready);
    assert.equal(changes, 2);
    assert.equal(p.killReason, undefined, "readiness never kills");
    p.stop();
  });

  it("runs liveness and readiness only after the startup probe succeeds", async () => {
    const seen: ProbeKind[] = [];
    let startupOk = false;
    const p = new ContainerProber({
      startup: fast({ failureThreshold: 100 }),
      readiness: fast(),
      liveness: fast(),
      run: async (_probe, kind) => {
        seen.push(kind);
        return { ok: kind === "Startup" ? startupOk : true, message: "" };
      },
      onChange: () => {},
    });
    p.start();
    await until(() => seen.length >= 3);
    assert.ok(seen.every((k) => k === ("Startup" as ProbeKind)));
    assert.equal(p.started, false);
    startupOk = true;
    await until(() => p.started && p.ready);
    assert.ok(seen.includes("Liveness" as ProbeKind));
    p.stop();
  });

  it("asks for a restart after failureThreshold liveness failures, then stops probing", async () => {
    let runs = 0;
    const failures: string[] = [];
    const p = new ContainerProber({
      liveness: fast(),
      run: async () => {
        runs++;
        return { ok: false, message: "connection refused" };
      },
      onChange: () => {},
      onFailure: (kind, m) => failures.push(`${kind}: ${m}`),
    });
    assert.equal(p.ready, true, "no readiness probe: ready while running");
    p.start();
    await until(() => p.killReason !== undefined);
    assert.equal(p.killReason, "Liveness probe failed: connection refused");
    const after = runs;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(runs, after);
    assert.equal(failures.length, 2);
  });

  it("keeps an adopted container's readiness until a probe says otherwise", async () => {
    // Readiness as seen by each probe run, before that run's result applies.
    const readyAtRun: boolean[] = [];
    let changes = 0;
    const p = new ContainerProber({
      readiness: fast({ failureThreshold: 3 }),
      run: async () => {
        readyAtRun.push(p.ready);
        return { ok: false, message: "refused" };
      },
      onChange: () => {
        changes++;
        p.stop(); // no further run, whatever the poll below sees
      },
      initialReady: true,
    });
    assert.equal(p.ready, true);
    p.start();
    await until(() => !p.ready);
    assert.deepEqual(readyAtRun, [true, true, true], "ready until the third failure");
    assert.equal(changes, 1);
  });
});
