/**
 * Label and field selectors, parsed once and matched many times: the string
 * forms of list, watch and deletecollection requests (parsed as apimachinery does,
 * `label-selector.ts` and `field-selector.ts`; a selector that does not parse is a
 * BadRequest with kube's message, never "everything") and the object form
 * (`matchLabels`, `matchExpressions`) of specs.
 */
import { BadRequestError } from "./errors.js";
import { FieldSelectorError, parseFieldRequirements } from "./field-selector.js";
import {
  type LabelRequirement,
  LabelSelectorError,
  matchesLabel,
  parseLabelRequirements,
} from "./label-selector.js";

export type { FieldRequirement } from "./field-selector.js";
export type { LabelOperator, LabelRequirement } from "./label-selector.js";

export interface Selector {
  /** The keys (labels) or field paths (fields) the selector reads. */
  keys: string[];
  matches(get: (key: string) => string | undefined): boolean;
  /** True when the selector selects everything. */
  empty: boolean;
}

function labelSelector(requirements: LabelRequirement[]): Selector {
  return {
    keys: requirements.map((r) => r.key),
    empty: requirements.length === 0,
    matches: (get) => requirements.every((r) => matchesLabel(r, get(r.key))),
  };
}

/** A `labelSelector` query value; undefined or "" selects everything. */
export function parseLabelSelector(text: string | undefined): Selector {
  if (!text) return labelSelector([]);
  try {
    return labelSelector(parseLabelRequirements(text));
  } catch (e) {
    if (e instanceof LabelSelectorError) throw new BadRequestError(e.message, { cause: e });
    throw e;
  }
}

/** A `fieldSelector` query value; undefined or "" selects everything. */
export function parseFieldSelector(text: string | undefined): Selector {
  if (!text) return labelSelector([]);
  try {
    const reqs = parseFieldRequirements(text);
    return {
      keys: reqs.map((r) => r.field),
      empty: reqs.length === 0,
      matches: (get) => reqs.every((r) => ((get(r.field) ?? "") === r.value) === (r.op === "=")),
    };
  } catch (e) {
    if (e instanceof FieldSelectorError) throw new BadRequestError(e.message, { cause: e });
    throw e;
  }
}

/** A label selector object (`matchLabels`, `matchExpressions`) as a Selector. */
export function labelSelectorFromObject(sel: {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}): Selector {
  const reqs: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(sel.matchLabels ?? {}))
    reqs.push({ key, op: "=", values: [value] });
  for (const e of sel.matchExpressions ?? []) {
    switch (e.operator) {
      case "In":
        reqs.push({ key: e.key, op: "in", values: e.values ?? [] });
        break;
      case "NotIn":
        reqs.push({ key: e.key, op: "notin", values: e.values ?? [] });
        break;
      case "Exists":
        reqs.push({ key: e.key, op: "exists", values: [] });
        break;
      case "DoesNotExist":
        reqs.push({ key: e.key, op: "!", values: [] });
        break;
      default:
        throw new BadRequestError(`"${e.operator}" is not a valid label selector operator`);
    }
  }
  return labelSelector(reqs);
}
