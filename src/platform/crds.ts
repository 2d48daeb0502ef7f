/**
 * The one way the platform installs its CustomResourceDefinitions: every
 * component's CRDs (and the ApplicationDefinition CRD) are applied at each
 * start and waited for until their kinds are served, before any object of
 * theirs is applied or any controller starts. (The app kinds' CRDs are not
 * among them: the engine derives each from its ApplicationDefinition.)
 */
import type { KubeObject } from "../api/index.js";
import { type Client, ignoreNotFound } from "../client/index.js";
import { delay } from "../runtime/index.js";

interface CrdSpec {
  group: string;
  names: { kind: string };
  versions: { name: string; served?: boolean; storage?: boolean }[];
}

/** The apiVersion and kind a CRD serves (its storage version). */
export function servedKind(crd: KubeObject): { apiVersion: string; kind: string } {
  const spec = crd.spec as CrdSpec;
  const version = spec.versions.find((v) => v.storage) ?? spec.versions[0]!;
  return { apiVersion: `${spec.group}/${version.name}`, kind: spec.names.kind };
}

/** Resolves once `kind` answers a list (its CRD is established). */
export async function waitServed(
  client: Client,
  apiVersion: string,
  kind: string,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    if (await ignoreNotFound(client.list({ apiVersion, kind }, { limit: 1, signal }))) return;
    if (signal.aborted) throw new Error(`stopped while waiting for ${kind} to be served`);
    await delay(100, signal);
  }
}

/** Applies each CRD (server-side, forced, as `fieldManager`) and waits until it is served. */
export async function installCrds(
  client: Client,
  crds: readonly KubeObject[],
  fieldManager: string,
  signal: AbortSignal,
): Promise<void> {
  for (const crd of crds) await client.apply(crd, { fieldManager, force: true });
  for (const crd of crds) {
    const { apiVersion, kind } = servedKind(crd);
    await waitServed(client, apiVersion, kind, signal);
  }
}
