/**
 * Pod start-to-Ready on containers (`--only criPodStart`): on `hearth up
 * --runtime cri`, each pod is POSTed (the scheduler places it), timed from
 * just before the POST to `Ready=True` on a watch, then deleted and awaited
 * gone — a sleeping busybox (Ready once running) and etcd on its pod IP
 * (Ready by a tcp probe on its client port). Against it, alternating one by
 * one, the floor: the same image and argv run by hand with `ctr` against the
 * same containerd (ctr-floor.ts; host network, etcd on a loopback address of
 * its own), timed to the same readiness signal. The first, uncounted, Hearth
 * pod of each kind pulls the image the floor then uses.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { randomLoopback } from "../../test/support/etcd-process.js";
import { type CriGroupResult, onCriHearth } from "../cri-hearth.js";
import {
  BUSYBOX,
  ETCD,
  ETCD_CLIENT_PORT,
  etcdArgv,
  etcdPodOnCri,
  qualified,
  SLEEPER,
  sleeperPod,
} from "../cri-pod-specs.js";
import { type CtrContainer, startCtrFloor } from "../ctr-floor.js";
import { alternate, hearthPod, type KindResult, type PodStartPlan } from "../pod-start-timing.js";

export type CriPodStartPlan = PodStartPlan;

/** `leftoverProcesses`: container processes alive under the data directory after `hearth up` stopped; should be 0. */
export type CriPodStartResult = CriGroupResult<{ trivial: KindResult; etcd: KindResult }>;

type Kind = "trivial" | "etcd";

/** The floor's container for `kind`; etcd listens on the loopback address `ip`. */
function floorContainer(kind: Kind, name: string, ip: string, dir: string): CtrContainer {
  const id = `bench-floor-${name}`;
  const logFile = join(dir, `${id}.log`);
  return kind === "trivial"
    ? { image: qualified(BUSYBOX), id, argv: SLEEPER, logFile }
    : { image: qualified(ETCD), id, argv: etcdArgv(name, ip), logFile };
}

export function criPodStart(dir: string, plan: CriPodStartPlan): Promise<CriPodStartResult> {
  return onCriHearth(dir, "cri-pod-start", [BUSYBOX, ETCD], async (ch, watch) => {
    const runKind = (kind: Kind) =>
      alternate(kind, plan, watch, {
        hearth: (name) => {
          const pod = kind === "trivial" ? sleeperPod(name) : etcdPodOnCri(name);
          return hearthPod(ch.client, watch, pod, plan.deadlineMs);
        },
        floor: async (name) => {
          const ip = randomLoopback();
          const c = floorContainer(kind, name, ip, dir);
          const port = kind === "etcd" ? { host: ip, port: ETCD_CLIENT_PORT } : undefined;
          try {
            const run = await startCtrFloor(ch.layout, c, plan.deadlineMs, port);
            await run.stop();
            return run.readyMs;
          } finally {
            rmSync(c.logFile, { force: true });
          }
        },
      });
    const trivial = await runKind("trivial");
    const etcd = await runKind("etcd");
    return { trivial, etcd };
  });
}
