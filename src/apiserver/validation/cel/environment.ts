/**
 * The one CEL environment CRD rules compile and run in: `self` and `oldSelf`
 * (dynamically typed; the schema-aware checks are in `static-check.ts`), the
 * standard library and kube's extensions. Also the names the static check
 * accepts as functions.
 */
import { type CelEnv, CelScalar, celEnv } from "@bufbuild/cel";
import { KUBE_LIBRARY } from "./library.js";

export const SELF = "self";
export const OLD_SELF = "oldSelf";

const variables = { [SELF]: CelScalar.DYN, [OLD_SELF]: CelScalar.DYN } as const;

export type RuleVariables = typeof variables;

export const ruleEnvironment: CelEnv<RuleVariables> = celEnv({
  variables,
  funcs: KUBE_LIBRARY,
});

/** Operators and macros the parser emits that are not looked up as functions. */
const BUILT_INS = [
  "_&&_",
  "_||_",
  "_?_:_",
  "_[_]",
  "!_",
  "-_",
  "@in",
  "@not_strictly_false",
  "not_strictly_false",
];

/** Function and method names a rule may call. */
export const KNOWN_FUNCTIONS: ReadonlySet<string> = new Set([
  ...BUILT_INS,
  ...[...ruleEnvironment.funcs].map((f) => f.name),
]);

/** Type names usable as values (`type(self) == string`). */
export const TYPE_NAMES: ReadonlySet<string> = new Set([
  "bool",
  "bytes",
  "double",
  "dyn",
  "int",
  "list",
  "map",
  "null_type",
  "string",
  "type",
  "uint",
]);
