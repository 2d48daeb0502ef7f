import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseMemInfo, parseProcStat, readNodeUsage } from "./node-usage.js";

const STAT = `cpu  1000 20 300 50000 400 5 6 7 0 0
cpu0 500 10 150 25000 200 2 3 3 0 0
intr 123
btime 1796270000
processes 42
`;

const MEMINFO = `MemTotal:        8000000 kB
MemFree:         2000000 kB
MemAvailable:    5000000 kB
Inactive(file):  1500000 kB
AnonPages:       1200000 kB
`;

describe("node usage from /proc", () => {
  it("CPU time is every state but idle and iowait, from ticks of 1/100 s; boot time in ns", () => {
    const { usageCoreNanoSeconds, bootTimeNs } = parseProcStat(STAT);
    // user + nice + system + irq + softirq + steal = 1338 ticks = 13.38 s.
    assert.equal(usageCoreNanoSeconds, 13.38e9);
    assert.equal(bootTimeNs, 1796270000e9);
    assert.throws(() => parseProcStat("intr 1\n"), /no cpu line/);
  });

  it("memory: usage is total - free, the working set leaves out inactive file pages", () => {
    const m = parseMemInfo(MEMINFO, "pgfault 900\npgmajfault 12\n");
    assert.deepEqual(m, {
      availableBytes: (8000000 - 4500000) * 1024,
      usageBytes: 6000000 * 1024,
      workingSetBytes: 4500000 * 1024,
      rssBytes: 1200000 * 1024,
      pageFaults: 900,
      majorPageFaults: 12,
    });
    assert.throws(() => parseMemInfo("MemTotal: 1 kB\n", ""), /MemFree/);
  });

  it("reads this machine's figures", () => {
    const before = Date.now() * 1e6;
    const u = readNodeUsage();
    assert.ok(u.cpu.usageCoreNanoSeconds > 0);
    assert.ok(u.memory.workingSetBytes > 0 && u.memory.workingSetBytes <= u.memory.usageBytes!);
    assert.ok(u.startTimeNs > 0 && u.startTimeNs < before);
    assert.ok(u.cpu.timeNs >= before);
  });
});
