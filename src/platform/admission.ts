/**
 * The platform's admission checks on app objects, run inside the apiserver's
 * admission chain (the CLI wires them in; the apiserver knows nothing of apps):
 * an app's spec holds only the keys its schema declares, and none starting
 * with `_` (Cozystack reserves them for `_namespace` and `_cluster`); then
 * the rules its component declares for the kind (`component.ts`).
 * Each refusal is a 422 naming the field and the rule; nothing is written.
 */
import { type FieldError, forbiddenValue, InvalidError } from "../api/index.js";
import type { Reader } from "../client/index.js";
import { type AssembledPlatform, admissionRules } from "./assemble.js";
import type { AdmissionRule, AppAdmissionRequest, ComponentContext } from "./component.js";
import { declaredKeys } from "./definitions.js";
import { APPS_GROUP } from "./engine/module.js";

export type { AppAdmissionRequest } from "./component.js";

export const RESERVED_KEY_MESSAGE =
  "keys starting with '_' are reserved for the platform's context (_namespace, _cluster)";

export class AppAdmission {
  /** The checks of `platform`: the spec keys of each definition, the rules of each component. */
  static of(reader: () => Reader | undefined, platform: AssembledPlatform): AppAdmission {
    const { definitions } = platform.ctx;
    const keys = new Map([...definitions].map(([kind, def]) => [kind, declaredKeys(def)]));
    return new AppAdmission(reader, platform.ctx, keys, admissionRules(platform.components));
  }

  /** `reader` is asked at each request: the client may exist only after the server starts. */
  constructor(
    private readonly reader: () => Reader | undefined,
    private readonly ctx: ComponentContext,
    /** The declared top-level spec keys of each app kind. */
    private readonly specKeys: ReadonlyMap<string, readonly string[]>,
    private readonly rules: ReadonlyMap<string, readonly AdmissionRule[]>,
  ) {}

  async validate(req: AppAdmissionRequest): Promise<void> {
    if (req.group !== APPS_GROUP || req.subresource !== "") return;
    if (req.operation !== "CREATE" && req.operation !== "UPDATE") return;
    // Only the spec is checked: metadata changes (the engine dropping its
    // finalizer) pass even when the parent's quota shrank meanwhile.
    if (
      req.operation === "UPDATE" &&
      JSON.stringify(req.object?.spec) === JSON.stringify(req.oldObject?.spec)
    )
      return;
    const errors = this.keyErrors(req);
    for (const rule of this.rules.get(req.kind) ?? []) {
      if (errors.length > 0) break;
      errors.push(...(await rule.check(req, this.reader(), this.ctx)));
    }
    if (errors.length > 0)
      throw new InvalidError({ group: APPS_GROUP, kind: req.kind, name: req.name }, errors);
  }

  private keyErrors(req: AppAdmissionRequest): FieldError[] {
    const declared = this.specKeys.get(req.kind);
    const spec = req.object?.spec;
    if (!declared || typeof spec !== "object" || spec === null) return [];
    const errors: FieldError[] = [];
    for (const key of Object.keys(spec)) {
      if (key.startsWith("_")) errors.push(forbiddenValue(`spec.${key}`, RESERVED_KEY_MESSAGE));
      else if (!declared.includes(key))
        errors.push(
          forbiddenValue(
            `spec.${key}`,
            `unknown field; the fields of ${req.kind} are: ${declared.join(", ")}`,
          ),
        );
    }
    return errors;
  }
}
