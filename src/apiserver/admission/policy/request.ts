/**
 * The CEL `request` variable: an admission.k8s.io/v1 AdmissionRequest without the
 * objects (kind, resource, subResource, name, namespace, operation, userInfo,
 * dryRun), with every field present as kube's typed request has them. A request on
 * a Namespace object itself carries that namespace's name, as kube's does.
 */
import { randomUUID } from "node:crypto";
import type { AdmissionAttributes } from "../types.js";

export function isNamespaceKind(attrs: Pick<AdmissionAttributes, "type">): boolean {
  return attrs.type.group === "" && attrs.type.kind === "Namespace";
}

/** The namespace kube's admission attributes carry: a Namespace object's own name. */
export function requestNamespace(attrs: AdmissionAttributes): string {
  return isNamespaceKind(attrs) && attrs.subresource === "" ? attrs.name : attrs.namespace;
}

export function admissionRequest(attrs: AdmissionAttributes): Record<string, unknown> {
  const t = attrs.type;
  const kind = { group: t.group, version: t.version, kind: t.kind };
  const resource = { group: t.group, version: t.version, resource: t.plural };
  return {
    uid: randomUUID(),
    kind,
    resource,
    subResource: attrs.subresource,
    requestKind: kind,
    requestResource: resource,
    requestSubResource: attrs.subresource,
    name: attrs.name,
    namespace: requestNamespace(attrs),
    operation: attrs.operation,
    userInfo: {
      username: attrs.user.username,
      uid: attrs.user.uid ?? "",
      groups: attrs.user.groups,
      extra: attrs.user.extra ?? {},
    },
    dryRun: attrs.dryRun,
  };
}

/**
 * Kube never runs policies on requests for policies and bindings themselves, so a
 * bad policy can always be fixed or removed.
 */
export function isPolicyResource(attrs: Pick<AdmissionAttributes, "type">): boolean {
  return (
    attrs.type.group === "admissionregistration.k8s.io" &&
    (attrs.type.plural === "validatingadmissionpolicies" ||
      attrs.type.plural === "validatingadmissionpolicybindings")
  );
}
