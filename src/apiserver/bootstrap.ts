/**
 * Objects that exist from the first start: the namespaces `default`,
 * `kube-system` and `kube-public`. Idempotent; run on every start.
 */

import { randomUUID } from "node:crypto";
import { rfc3339 } from "../api/index.js";

import { PROTECTED_NAMESPACES } from "./resources/builtin.js";
import type { ResourceRegistry } from "./resources/registry.js";
import type { ObjectStore } from "./store/object-store.js";

export async function ensureSystemNamespaces(
  store: ObjectStore,
  registry: ResourceRegistry,
): Promise<void> {
  const t = registry.lookup("", "v1", "namespaces")!;
  for (const name of PROTECTED_NAMESPACES) {
    if (await store.tryGet(t, undefined, name)) continue;
    await store
      .create(t, {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: {
          name,
          uid: randomUUID(),
          creationTimestamp: rfc3339(),
          generation: 1,
          labels: { "kubernetes.io/metadata.name": name },
        },
        spec: {},
        status: { phase: "Active" },
      })
      .catch((e: { code?: number }) => {
        if (e.code !== 409) throw e;
      });
  }
}
