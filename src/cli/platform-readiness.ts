/**
 * What `hearth up` adds to the apiserver's readiness, so that `/readyz`, the
 * ready line and `hearth up`'s own wait mean the same thing: a client may rely
 * on the platform. `platform-kinds`: every kind served at start (the built-in
 * kinds, the platform's CRDs, each app kind with a module) is in discovery,
 * `/openapi/v3` and `/openapi/v2`; `bootstrap-objects`: the tenant-root
 * namespace and its root Tenant exist.
 */
import type { ApiServer } from "../apiserver/index.js";
import {
  type ApplicationDefinition,
  assemble,
  COMPONENTS,
  type Component,
  kindsServedAtStart,
  ROOT_NAMESPACE,
} from "../platform/index.js";

export function addPlatformReadyChecks(
  server: ApiServer,
  definitions: ReadonlyMap<string, ApplicationDefinition>,
  components: readonly Component[] = COMPONENTS,
): void {
  const platform = assemble(components, definitions);
  const kinds = [...server.builtinKinds, ...kindsServedAtStart(platform)];
  server.addReadyCheck(
    "platform-kinds",
    server.servedKindsCheck(() => kinds),
  );
  const objects = [
    server.objectCheck({ group: "", version: "v1", plural: "namespaces", name: ROOT_NAMESPACE }),
    server.objectCheck({
      group: "apps.cozystack.io",
      version: "v1alpha1",
      plural: "tenants",
      namespace: ROOT_NAMESPACE,
      name: "root",
    }),
  ];
  server.addReadyCheck("bootstrap-objects", async () => {
    for (const check of objects) {
      const reason = await check();
      if (reason) return reason;
    }
    return undefined;
  });
}
