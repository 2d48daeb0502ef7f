/**
 * Create throughput: ConfigMaps of about 1 KiB POSTed over HTTPS (to the apiserver
 * or to the bare baseline, with the same client loop), and the same JSON written
 * straight to a SQLite Backend in-process — the floor no server can beat. Each
 * concurrency level first runs a short warm-up (JIT, TLS handshakes, sockets)
 * that is not counted.
 */
import type { Client } from "../../src/client/index.js";
import type { Backend } from "../../src/storage/index.js";
import { closedLoop, type LoadResult, type Operation } from "../load.js";

export interface LevelResult extends LoadResult {
  concurrency: number;
  warmup: number;
}

export interface LevelPlan {
  levels: number[];
  count: number;
  warmup: number;
}

/** Names are `<tag>-<i>`; a tag is unique per run of a loop, so creates never collide. */
export type OperationFactory = (tag: string) => Operation;

export function configMapJson(name: string, payload: string): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name },
    data: { k: payload },
  });
}

export function configMapsPath(namespace: string): string {
  return `/api/v1/namespaces/${namespace}/configmaps`;
}

/** POSTs one ConfigMap per operation; anything but 201 Created is an error. */
export function httpCreates(
  client: Pick<Client, "request">,
  namespace: string,
  payload: string,
): OperationFactory {
  const path = configMapsPath(namespace);
  return (tag) => async (i) => {
    const res = await client.request("POST", path, configMapJson(`${tag}-${i}`, payload));
    if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
  };
}

/**
 * Backend.create of the same JSON under the key the apiserver would use
 * (`/registry/core/configmaps/<namespace>/<name>`, see src/apiserver/store/keys.ts).
 */
export function backendCreates(
  backend: Backend,
  namespace: string,
  payload: string,
): OperationFactory {
  return (tag) => async (i) => {
    const name = `${tag}-${i}`;
    await backend.create(
      `/registry/core/configmaps/${namespace}/${name}`,
      configMapJson(name, payload),
    );
  };
}

/** Runs the plan's levels in order with a fresh tag each, warm-up first. */
export async function runLevels(plan: LevelPlan, ops: OperationFactory): Promise<LevelResult[]> {
  const out: LevelResult[] = [];
  for (const concurrency of plan.levels) {
    if (plan.warmup > 0) await closedLoop(concurrency, plan.warmup, ops(`w${concurrency}`));
    const result = await closedLoop(concurrency, plan.count, ops(`c${concurrency}`));
    out.push({ concurrency, warmup: plan.warmup, ...result });
  }
  return out;
}
