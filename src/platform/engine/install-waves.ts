/**
 * Install waves: render may place a child in wave k (`{ object, wave }`; a bare
 * object is wave 0). The engine applies the waves in ascending order and
 * applies wave k+1 only once the module says wave k is ready (`waveReady`);
 * until then the app waits, not ready, and is looked at again.
 */
import type { KubeObject } from "../../api/index.js";
import type { HookResult, PlacedChild, RenderedChild } from "./module.js";

/** `child` with its wave (0 for a bare object). */
export function placed(child: RenderedChild): PlacedChild {
  return "object" in child && !("apiVersion" in child)
    ? (child as PlacedChild)
    : { object: child as KubeObject, wave: 0 };
}

/** The children grouped by wave, in ascending wave order. */
export function byWave(children: PlacedChild[]): { wave: number; objects: KubeObject[] }[] {
  const waves = new Map<number, KubeObject[]>();
  for (const c of children) waves.set(c.wave, [...(waves.get(c.wave) ?? []), c.object]);
  return [...waves.entries()]
    .sort(([a], [b]) => a - b)
    .map(([wave, objects]) => ({ wave, objects }));
}

export interface WavesApplied {
  /** How many children were applied. */
  applied: number;
  /** The wave the install waits on, and what for, when a later one is not applied yet. */
  waiting?: { wave: number; waitingFor: string };
}

/** Applies wave after wave while each is ready; stops at the first that is not. */
export async function applyInWaves(
  children: PlacedChild[],
  apply: (child: KubeObject) => Promise<void>,
  ready: (wave: number) => Promise<HookResult>,
): Promise<WavesApplied> {
  const waves = byWave(children);
  let applied = 0;
  for (const [i, { wave, objects }] of waves.entries()) {
    for (const child of objects) await apply(child);
    applied += objects.length;
    if (i === waves.length - 1) break;
    const r = await ready(wave);
    if (!r.done)
      return { applied, waiting: { wave, waitingFor: r.waitingFor ?? "it to be ready" } };
  }
  return { applied };
}
