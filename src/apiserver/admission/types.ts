/**
 * Admission: the checks that run after a write is decoded and defaulted and before
 * it is stored. A plugin sees the operation, the new and old objects and the
 * user, and either returns warnings or throws an ApiError (usually Forbidden or
 * Invalid) that refuses the request without writing anything.
 */
import type { KubeObject } from "../../api/index.js";
import type { UserInfo } from "../auth/types.js";
import type { ResourceType } from "../resources/resource-type.js";

export type AdmissionOperation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  type: ResourceType;
  subresource: string;
  namespace: string;
  name: string;
  /** The object being written; undefined on DELETE. */
  object: KubeObject | undefined;
  /** The stored object; undefined on CREATE. */
  oldObject: KubeObject | undefined;
  user: UserInfo;
  dryRun: boolean;
}

export interface AdmissionPlugin {
  name: string;
  /**
   * Mutating admission (kube's `MutationInterface`): may set fields of
   * `attrs.object` from other objects (DefaultStorageClass). Every plugin's
   * `admit` runs before any `validate`; the object was already checked against
   * its schema, so a mutation must keep it valid.
   */
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  /** Returns warnings for the client; throws an ApiError to refuse. */
  validate(attrs: AdmissionAttributes): Promise<string[]> | string[];
}

/** Runs the mutating phase, then the validating one, in plugin order; the first refusal wins. */
export class AdmissionChain {
  constructor(private readonly plugins: AdmissionPlugin[] = []) {}

  add(plugin: AdmissionPlugin): void {
    this.plugins.push(plugin);
  }

  async validate(attrs: AdmissionAttributes): Promise<string[]> {
    for (const p of this.plugins) await p.admit?.(attrs);
    const warnings: string[] = [];
    for (const p of this.plugins) warnings.push(...(await p.validate(attrs)));
    return warnings;
  }
}
