/**
 * THE list of the platform's components. Adding an app or an operator is one
 * folder that exports a `Component` (`component.ts`) and one line here; the
 * apiserver's admission, bootstrap, the engine and the controllers `hearth up`
 * runs are all derived from this list.
 */
import { etcdComponent } from "./apps/etcd/index.js";
import { tenantComponent } from "./apps/tenant/index.js";
import type { Component } from "./component.js";
import { datastoreComponent } from "./datastore/index.js";
import { kamajiComponent } from "./kamaji/index.js";
import { etcdOperatorComponent } from "./operators/etcd/index.js";
import { workloadMonitorComponent } from "./operators/workloadmonitor/index.js";

export const COMPONENTS: readonly Component[] = [
  kamajiComponent,
  datastoreComponent,
  etcdOperatorComponent,
  workloadMonitorComponent,
  tenantComponent,
  etcdComponent,
];
