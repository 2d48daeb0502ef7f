/**
 * Timing pod start-to-Ready on a real `hearth up`: each pod is POSTed (no
 * nodeName: the scheduler places it), timed from just before the POST to its
 * `Ready=True` condition arriving on a watch, then deleted and awaited gone
 * before the next; against it, alternating pod by pod, a floor (the same
 * start without Hearth), after a few uncounted warm-ups of each. Used by
 * scenarios/cri-pod-start.ts.
 */
import type { Pod } from "../src/api/pod.js";
import type { HttpClient } from "../src/client/index.js";
import type { PodWatch } from "./pod-watch.js";
import { type LatencySummary, summarize } from "./stats.js";

export interface PodStartPlan {
  /** Timed pods of each kind (and as many floor starts). */
  pods: number;
  warmup: number;
  /** Longest wait for Ready, or for a deleted pod to be gone. */
  deadlineMs: number;
}

export interface Series {
  errors: number;
  errorSamples: string[];
  latencyMs: LatencySummary;
}

export interface KindResult {
  hearth: Series;
  floor: Series;
  /** From the DELETE to the pod's DELETED event (its processes stopped). */
  deleteMs: LatencySummary;
}

const NAMESPACE = "default";
const PODS = `/api/v1/namespaces/${NAMESPACE}/pods`;

class Samples {
  readonly values: number[] = [];
  readonly errorSamples: string[] = [];
  errors = 0;

  fail(e: unknown): void {
    this.errors++;
    const msg = e instanceof Error ? e.message : String(e);
    if (this.errorSamples.length < 3 && !this.errorSamples.includes(msg))
      this.errorSamples.push(msg);
  }

  series(): Series {
    const { errors, errorSamples } = this;
    return { errors, errorSamples, latencyMs: summarize(this.values) };
  }
}

/** One pod: POST → Ready → DELETE → gone. Returns [ready ms, delete ms]; throws on a miss. */
export async function hearthPod(
  client: HttpClient,
  watch: PodWatch,
  pod: Pod,
  deadlineMs: number,
): Promise<[number, number]> {
  const name = pod.metadata.name!;
  const start = performance.now();
  const res = await client.request("POST", PODS, JSON.stringify(pod));
  if (res.status !== 201) throw new Error(`cannot create pod ${name}: HTTP ${res.status}`);
  const ready = await watch.until(() => watch.readyAt.has(name), deadlineMs);
  const deleted = performance.now();
  const del = await client.request("DELETE", `${PODS}/${name}`);
  const gone = del.status < 300 && (await watch.until(() => watch.goneAt.has(name), deadlineMs));
  if (!ready) throw new Error(`pod ${name} not Ready within ${deadlineMs} ms`);
  if (!gone) throw new Error(`pod ${name} not gone within ${deadlineMs} ms of its DELETE`);
  return [watch.readyAt.get(name)! - start, watch.goneAt.get(name)! - deleted];
}

/** One start of each side, by pod name: Hearth's [ready ms, delete ms], the floor's ready ms. */
export interface StartPair {
  hearth(name: string): Promise<[number, number]>;
  floor(name: string): Promise<number>;
}

/**
 * `plan.pods` starts of each side, alternating Hearth and floor one by one
 * after `plan.warmup` uncounted pairs; a broken pod watch ends the run.
 */
export async function alternate(
  kind: string,
  plan: PodStartPlan,
  watch: PodWatch,
  pair: StartPair,
): Promise<KindResult> {
  const hearth = new Samples();
  const floor = new Samples();
  const deletes: number[] = [];
  for (let i = -plan.warmup; i < plan.pods; i++) {
    const name = i < 0 ? `${kind}-warmup${-i}` : `${kind}-${i}`;
    try {
      const [readyMs, deleteMs] = await pair.hearth(name);
      if (i >= 0) {
        hearth.values.push(readyMs);
        deletes.push(deleteMs);
      }
    } catch (e) {
      if (i >= 0) hearth.fail(e);
      if (watch.errors.length > 0) throw new Error(`the pod watch broke: ${watch.errors[0]}`);
    }
    try {
      const readyMs = await pair.floor(name);
      if (i >= 0) floor.values.push(readyMs);
    } catch (e) {
      if (i >= 0) floor.fail(e);
    }
  }
  return { hearth: hearth.series(), floor: floor.series(), deleteMs: summarize(deletes) };
}
