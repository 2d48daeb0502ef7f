/**
 * The Etcd app (Cozystack packages/extra/etcd), a tenant module: a Tenant with
 * `etcd: true` installs it as `etcd` in its namespace, and every Kubernetes
 * app of the tenant's subtree finds it through `_namespace.etcd`. It renders
 * the EtcdCluster, the DataStore and the defrag CronJob (`render.ts`), reports
 * the EtcdCluster's readiness (`status.ts`), and after an uninstall removes
 * the data claims and TLS Secrets and waits for the volumes (`cleanup.ts`).
 * `defrag.ts` is the work of `hearth etcd-defrag`, which its CronJob runs.
 */
import type { Component } from "../../component.js";
import { DATASTORE_API_VERSION } from "../../datastore/index.js";
import type { ApplicationDefinition } from "../../definitions.js";
import type { AppModule } from "../../engine/module.js";
import { etcdSpecErrors } from "./admission.js";
import { CLEANUP_PERMISSIONS, postDelete } from "./cleanup.js";
import { dataStoreName } from "./naming.js";
import { ETCD_CHILD_KINDS, ETCD_SPEC, type EtcdAppSpec, renderEtcd } from "./render.js";
import { etcdStatus } from "./status.js";

export { etcdSpecErrors } from "./admission.js";
export { defragment, type EtcdTls } from "./defrag.js";
export { compileDefragRule, DEFAULT_DEFRAG_RULE, ETCD_DEFAULT_QUOTA_BYTES } from "./defrag-rule.js";

export function etcdModule(definition: ApplicationDefinition): AppModule<EtcdAppSpec> {
  return {
    definition,
    version: "0.1.0",
    spec: ETCD_SPEC,
    render: (app) => renderEtcd(app),
    childKinds: ETCD_CHILD_KINDS,
    // The app's namespace, and the one DataStore tenant control planes find it by.
    scope: (app) => ({
      namespaces: [app.metadata.namespace!],
      clusterScoped: [
        {
          apiVersion: DATASTORE_API_VERSION,
          kind: "DataStore",
          name: dataStoreName(app.metadata.namespace!),
        },
      ],
    }),
    status: etcdStatus,
    hooks: { permissions: CLEANUP_PERMISSIONS, postDelete },
  };
}

/** The Etcd app and its admission rules (its EtcdCluster is the etcd operator's). */
export const etcdComponent: Component = {
  name: "etcd",
  apps: [{ kind: "Etcd", module: (def) => etcdModule(def) }],
  admission: [{ kind: "Etcd", check: (req) => etcdSpecErrors(req) }],
};
