/**
 * The names of the `apps.cozystack.io` API: its group and version and the
 * labels the engine puts on an app's children. A leaf, so that both the
 * definitions and the engine's module contract can use them.
 */
export const APPS_GROUP = "apps.cozystack.io";
export const APPS_VERSION = "v1alpha1";
export const APPS_API_VERSION = `${APPS_GROUP}/${APPS_VERSION}`;

export const LABEL_APP_KIND = "apps.cozystack.io/application.kind";
export const LABEL_APP_GROUP = "apps.cozystack.io/application.group";
export const LABEL_APP_NAME = "apps.cozystack.io/application.name";
/** The uid of the app that applied a child (as kube's `batch.kubernetes.io/controller-uid`). */
export const LABEL_APP_UID = "apps.cozystack.io/application.uid";
/** On module apps a Tenant renders into its namespace. */
export const LABEL_TENANT_MODULE = "internal.cozystack.io/tenantmodule";
