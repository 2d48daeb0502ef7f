/**
 * How an app's children wake it. Each kind a module declares (`childKinds`)
 * is watched through the Manager's shared cache with one label selector, the
 * group label the engine stamps on everything it applies, so every app kind
 * shares one WATCH per child resource and the engine never holds a copy of
 * objects it did not apply. A child is mapped to its app by the app's uid
 * label through an index on the app kind's cache (a Tenant's children live in
 * the namespace it owns, not in the Tenant's). A change of the values Secret
 * an app renders with (written by the parent Tenant) wakes the apps of its
 * namespace.
 */
import type { KubeObject } from "../../api/index.js";
import {
  type Cache,
  type ControllerBuilder,
  type Predicate,
  type Request,
  requestOf,
  type Scope,
  type TypeRef,
} from "../../runtime/index.js";
import { VALUES_SECRET } from "./context.js";
import {
  APPS_GROUP,
  type AppModule,
  LABEL_APP_GROUP,
  LABEL_APP_KIND,
  LABEL_APP_UID,
} from "./module.js";

/** The scope of every child watch: only what the engine labelled. */
export const CHILD_SCOPE: Scope = { labelSelector: `${LABEL_APP_GROUP}=${APPS_GROUP}` };
/** The index of an app kind's cache by the apps' uids. */
export const APP_UID_INDEX = "apps.cozystack.io/uid";
const SECRET: TypeRef = { apiVersion: "v1", kind: "Secret" };
/**
 * A child's creation tells its app nothing: the engine created it, in the pass
 * that reads it back right after; after a restart the app's own events start
 * every app anyway. Without this, each of a new Tenant's eight children would
 * wake it once more while it is being created.
 */
const notCreated: Predicate = { create: () => false };

/** Adds a source per child kind of `module` (and the values Secret) to `builder`, whose root is `app`. */
export function watchChildren(
  builder: ControllerBuilder,
  cache: Cache,
  app: TypeRef,
  module: AppModule,
): ControllerBuilder {
  const apps = () => {
    // The root's informer exists once the controller is attached, before any event.
    const entry = cache.informer(app);
    if (!entry.hasIndex(APP_UID_INDEX))
      entry.addIndex(APP_UID_INDEX, (o) => (o.metadata.uid ? [o.metadata.uid] : []));
    return entry;
  };
  const appOf = (child: KubeObject): Request[] => {
    const labels = child.metadata.labels ?? {};
    const uid = labels[LABEL_APP_UID];
    if (labels[LABEL_APP_KIND] !== app.kind || !uid) return [];
    return apps().byIndex(APP_UID_INDEX, uid).map(requestOf);
  };
  const appsRenderingWith = (secret: KubeObject): Request[] => {
    if (secret.metadata.name !== VALUES_SECRET) return [];
    const ns = secret.metadata.namespace;
    return apps()
      .informer.list()
      .filter((a) => a.metadata.namespace === ns)
      .map(requestOf);
  };
  for (const kind of module.childKinds ?? [])
    builder.watches(kind, appOf, { scope: CHILD_SCOPE, predicates: [notCreated] });
  return builder.watches(SECRET, appsRenderingWith, { scope: CHILD_SCOPE });
}
