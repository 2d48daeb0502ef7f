/**
 * The params a binding feeds its policy (kube's `generic.CollectParams`): none
 * without a paramKind, `null` without a paramRef, else the object named by
 * `paramRef.name` or every object matching `paramRef.selector`, in
 * `paramRef.namespace` or the request's namespace for namespaced kinds. No params
 * found with `parameterNotFoundAction: Deny` is a configuration error.
 */

import type { KubeObject } from "../../../api/index.js";
import { labelSelectorFromObject } from "../../../api/index.js";
import type { Backend } from "../../../storage/index.js";
import type { ResourceRegistry } from "../../resources/registry.js";
import type { ResourceType } from "../../resources/resource-type.js";
import { listPrefix, objectKey } from "../../store/keys.js";
import { decodeObject } from "../../store/object-store.js";
import type { ParamKind, ParamRef } from "./api-types.js";

export type ParamsResult =
  | { ok: true; params: (KubeObject | null)[] }
  | { ok: false; error: string };

export class ParamSource {
  constructor(
    private readonly backend: Backend,
    private readonly registry: ResourceRegistry,
  ) {}

  /** The served type of a paramKind, or undefined when no such kind is served. */
  typeOf(kind: ParamKind): ResourceType | undefined {
    const apiVersion = kind.apiVersion ?? "";
    const slash = apiVersion.indexOf("/");
    const group = slash < 0 ? "" : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    return this.registry.byKind(group, version, kind.kind ?? "");
  }

  async collect(
    paramKind: ParamKind | undefined,
    paramRef: ParamRef | undefined,
    requestNamespace: string,
  ): Promise<ParamsResult> {
    if (!paramKind || !paramRef) return { ok: true, params: [null] };
    const t = this.typeOf(paramKind);
    if (!t)
      return {
        ok: false,
        error: `paramKind kind \`${paramKind.apiVersion}, Kind=${paramKind.kind}\` not known`,
      };
    let namespace: string | undefined;
    if (t.namespaced) {
      namespace = paramRef.namespace || requestNamespace;
      if (!namespace)
        return {
          ok: false,
          error:
            "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
        };
    } else if (paramRef.namespace) {
      return {
        ok: false,
        error: "paramRef.namespace must not be provided for a cluster-scoped `paramKind`",
      };
    }
    let params: KubeObject[];
    if (paramRef.name) {
      const kv = await this.backend.get(objectKey(t, namespace, paramRef.name));
      params = kv ? [decodeObject(kv)] : [];
    } else if (paramRef.selector) {
      const selector = labelSelectorFromObject(paramRef.selector);
      const page = await this.backend.list(listPrefix(t, namespace));
      params = page.items
        .map(decodeObject)
        .filter((o) => selector.matches((k) => o.metadata.labels?.[k]));
    } else {
      return { ok: false, error: "one of name or selector must be provided" };
    }
    if (params.length === 0 && (paramRef.parameterNotFoundAction ?? "Deny") === "Deny")
      return {
        ok: false,
        error: "no params found for policy binding with `Deny` parameterNotFoundAction",
      };
    return { ok: true, params };
  }
}
