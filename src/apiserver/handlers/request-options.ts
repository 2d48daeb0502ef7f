/**
 * The options of the writing verbs, read from the query string and checked as
 * kube-apiserver does before it decodes the body (apimachinery
 * `ValidateCreateOptions`, `ValidateUpdateOptions`, `ValidatePatchOptions`):
 * `dryRun` may only hold `All`, `fieldManager` is at most 128 bytes of printable
 * characters, `fieldValidation` is one of `Ignore`, `Warn`, `Strict` (or empty),
 * and `force` belongs to apply patches only. A refusal is a 422 about
 * `CreateOptions.meta.k8s.io ""` (or Update/Patch), and nothing has been read or
 * written when it is thrown.
 */
import { type FieldError, InvalidError } from "../../api/index.js";
import type { RequestContext } from "./context.js";

export const FIELD_MANAGER_MAX_BYTES = 128;

/** Go's `%#v` of a []string, as kube prints value lists in field errors. */
export function goStringSlice(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(", ")}}`;
}

/** `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

export function isPrintable(ch: string): boolean {
  return PRINTABLE.test(ch);
}

/** Go's `%#U` of a non-printable rune: `U+0007`. */
function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** apimachinery `ValidateFieldManager`; positions are byte offsets, as Go's range over a string. */
export function fieldManagerErrors(manager: string, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_BYTES)
    errors.push({
      reason: "FieldValueTooLong",
      field,
      detail: `Too long: must have at most ${FIELD_MANAGER_MAX_BYTES} bytes`,
    });
  let offset = 0;
  for (const ch of manager) {
    if (!isPrintable(ch))
      errors.push({
        reason: "FieldValueInvalid",
        field,
        detail: `Invalid value: ${JSON.stringify(manager)}: invalid character ${codePoint(ch)} (at position ${offset})`,
      });
    offset += Buffer.byteLength(ch);
  }
  return errors;
}

/** apimachinery `ValidateDryRun`: every value must be `All`. */
export function dryRunErrors(values: readonly string[], field = "dryRun"): FieldError[] {
  if (values.every((v) => v === "All")) return [];
  return [
    {
      reason: "FieldValueNotSupported",
      field,
      detail: `Unsupported value: ${goStringSlice(values)}: supported values: "All"`,
    },
  ];
}

const FIELD_VALIDATION_VALUES = ["", "Ignore", "Strict", "Warn"];

function fieldValidationErrors(value: string): FieldError[] {
  if (FIELD_VALIDATION_VALUES.includes(value)) return [];
  return [
    {
      reason: "FieldValueNotSupported",
      field: "fieldValidation",
      detail: `Unsupported value: ${JSON.stringify(value)}: supported values: ${FIELD_VALIDATION_VALUES.map((v) => JSON.stringify(v)).join(", ")}`,
    },
  ];
}

export type WriteOptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions";

/**
 * Checks the query options of a create, update or patch; throws InvalidError as
 * kube-apiserver does. `patchType` is set for PatchOptions ("apply" for
 * server-side apply, which requires a field manager and alone may force).
 */
export function checkWriteOptions(
  query: URLSearchParams,
  kind: WriteOptionsKind,
  patchType?: string,
): void {
  const errors: FieldError[] = [];
  // A query parameter decodes to its first value, as kube's parameter codec does; dryRun keeps all.
  const manager = query.get("fieldManager") ?? "";
  if (kind === "PatchOptions") {
    if (patchType !== "apply") {
      if (query.has("force"))
        errors.push({
          reason: "FieldValueForbidden",
          field: "force",
          detail: "Forbidden: may not be specified for non-apply patch",
        });
    } else if (manager === "") {
      errors.push({
        reason: "FieldValueRequired",
        field: "fieldManager",
        detail: "Required value: is required for apply patch",
      });
    }
  }
  errors.push(...fieldManagerErrors(manager, "fieldManager"));
  errors.push(...dryRunErrors(query.getAll("dryRun")));
  errors.push(...fieldValidationErrors(query.get("fieldValidation") ?? ""));
  if (errors.length > 0) throw new InvalidError({ group: "meta.k8s.io", kind }, errors);
}

/** True for a dry run; the options must have been checked (every value is `All`). */
export function isDryRun(ctx: RequestContext): boolean {
  return ctx.query.getAll("dryRun").length > 0;
}

/**
 * The field manager: the query's (checked by `checkWriteOptions`), else kube's
 * `prefixFromUserAgent` — the user agent up to its first `/`, without
 * non-printable characters, cut to 128 bytes.
 */
export function fieldManager(ctx: RequestContext): string {
  const explicit = ctx.query.get("fieldManager");
  if (explicit) return explicit;
  const agent = ctx.req.headers["user-agent"] ?? "unknown";
  const slash = agent.indexOf("/");
  let prefix = "";
  let bytes = 0;
  for (const ch of slash < 0 ? agent : agent.slice(0, slash)) {
    if (!isPrintable(ch)) continue;
    const size = Buffer.byteLength(ch);
    if (bytes + size > FIELD_MANAGER_MAX_BYTES) break;
    prefix += ch;
    bytes += size;
  }
  return prefix || "unknown";
}
