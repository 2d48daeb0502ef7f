/**
 * Query parameters of the fuzz suite: every one kube knows for the verb at
 * hand, with good, odd and malformed values, plus junk names, repeats,
 * names without values and raw percent-encoding. A value kube surely refuses
 * says so (`mustRefuse`).
 */
import type { Prng } from "./prng.js";

export interface Param {
  /** The parameter's name; junk has none. */
  name?: string;
  /** Already encoded for the query string (may be deliberately malformed). */
  text: string;
  mustRefuse?: string;
}

type Values = readonly (readonly [string, string | undefined])[];

const enc = encodeURIComponent;
const p = (name: string, value: string, mustRefuse?: string): Param => ({
  name,
  text: `${name}=${enc(value)}`,
  ...(mustRefuse ? { mustRefuse } : {}),
});

const INTS: Values = [
  ["0", undefined],
  ["1", undefined],
  ["30", undefined],
  ["-1", undefined],
  ["abc", "a non-integer"],
  ["1e100", "a non-integer"],
  ["NaN", "a non-integer"],
  ["1.5", "a non-integer"],
  ["9223372036854775808", "an integer beyond int64"],
  ["", undefined],
];

const BOOLS: Values = [
  ["true", undefined],
  ["false", undefined],
  ["1", undefined],
  ["yes", undefined],
  ["", undefined],
];

/** Label selectors: valid ones, and ones kube's parser refuses. */
export const LABEL_SELECTORS: Values = [
  ["app=fuzz", undefined],
  ["fuzz.hearth.io/sentinel=true", undefined],
  ["app in (fuzz,other),!gone", undefined],
  ["app notin (x)", undefined],
  ["", undefined],
  [",,,", "an invalid label selector"],
  ["a=b,", "an invalid label selector"],
  ["=", "an invalid label selector"],
  ["a in (", "an invalid label selector"],
  ["a==b==c", "an invalid label selector"],
  ["bad key=v", "an invalid label selector"],
  ["a=bad value", "an invalid label selector"],
  ["!", "an invalid label selector"],
];

export const FIELD_SELECTORS: Values = [
  ["metadata.name=fz-1", undefined],
  ["metadata.namespace!=kube-system", undefined],
  ["", undefined],
  ["spec.foo=bar", "an unsupported field selector"],
  ["bogus.field!=x", "an unsupported field selector"],
  ["metadata.name", "an invalid field selector"],
];

const RESOURCE_VERSIONS: Values = [
  ["0", undefined],
  ["", undefined],
  ["1", undefined],
  ["abc", undefined],
  ["-1", undefined],
  ["1e100", undefined],
];

const WRITE: Record<string, Values> = {
  dryRun: [
    ["All", undefined],
    ["Bogus", "dryRun Bogus"],
    ["", undefined],
    ["all", "dryRun all"],
  ],
  fieldManager: [
    ["fuzz", undefined],
    ["x".repeat(129), "a fieldManager over 128 characters"],
    ["bad\u0001manager", "a fieldManager with a control character"],
    ["😀", undefined],
  ],
  fieldValidation: [
    ["Strict", undefined],
    ["Warn", undefined],
    ["Ignore", undefined],
    ["Bogus", "fieldValidation Bogus"],
    ["strict", "fieldValidation strict"],
  ],
  pretty: BOOLS,
};

const DELETE: Record<string, Values> = {
  gracePeriodSeconds: [
    ["0", undefined],
    ["30", undefined],
    ["-1", undefined],
    ["abc", "gracePeriodSeconds abc"],
    ["1e100", "gracePeriodSeconds 1e100"],
    ["", undefined],
  ],
  propagationPolicy: [
    ["Background", undefined],
    ["Foreground", undefined],
    ["Orphan", undefined],
    ["Bogus", "propagationPolicy Bogus"],
  ],
  orphanDependents: BOOLS,
  dryRun: WRITE.dryRun!,
  ignoreStoreReadErrorWithClusterBreakingPotential: BOOLS,
};

const LIST: Record<string, Values> = {
  labelSelector: LABEL_SELECTORS,
  fieldSelector: FIELD_SELECTORS,
  limit: INTS,
  continue: [
    ["", undefined],
    ["bnVsbA==", undefined],
    ["garbage", undefined],
    ["eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiLyJ9", undefined],
    ["%%%", undefined],
  ],
  resourceVersion: RESOURCE_VERSIONS,
  resourceVersionMatch: [
    ["NotOlderThan", undefined],
    ["Exact", undefined],
    ["Bogus", undefined],
  ],
  timeoutSeconds: [
    ["1", undefined],
    ["0", undefined],
    ["-1", undefined],
    ["abc", "timeoutSeconds abc"],
    ["NaN", "timeoutSeconds NaN"],
  ],
  allowWatchBookmarks: BOOLS,
  sendInitialEvents: BOOLS,
  pretty: BOOLS,
};

const LOG: Record<string, Values> = {
  container: [
    ["main", undefined],
    ["nope", undefined],
    ["", undefined],
  ],
  follow: BOOLS,
  previous: BOOLS,
  sinceSeconds: INTS,
  sinceTime: [
    ["2024-01-01T00:00:00Z", undefined],
    ["yesterday", undefined],
  ],
  timestamps: BOOLS,
  tailLines: INTS,
  limitBytes: INTS,
  insecureSkipTLSVerifyBackend: BOOLS,
};

export type ParamSet = "write" | "apply" | "delete" | "list" | "get" | "log";

const SETS: Record<ParamSet, Record<string, Values>> = {
  write: WRITE,
  apply: {
    ...WRITE,
    force: BOOLS,
    fieldManager: [...WRITE.fieldManager!, ["", "apply without a fieldManager"]],
  },
  delete: DELETE,
  list: LIST,
  get: { resourceVersion: RESOURCE_VERSIONS, pretty: BOOLS },
  log: LOG,
};

/** Some parameters of `set` (and now and then junk), each drawn from its values. */
export function drawParams(rng: Prng, set: ParamSet, count = rng.int(4)): Param[] {
  const table = SETS[set];
  const names = Object.keys(table);
  const out: Param[] = [];
  for (let i = 0; i < count; i++) {
    const name = rng.pick(names);
    const [value, mustRefuse] = rng.pick(table[name]!);
    out.push(p(name, value, mustRefuse));
  }
  if (rng.chance(0.15)) {
    const junk = junkParam(rng);
    // Parameters a verb does not read are no refusal: kube decodes only the
    // verb's options struct from the query (dryRun is no ListOptions, GetOptions
    // or PodLogOptions field), and the rest of the query is ignored.
    const read = junk.text.split("=")[0]! in table;
    out.push(read || !junk.mustRefuse ? junk : { text: junk.text });
  }
  return out;
}

/** Parameters no verb knows, malformed encoding, repeats, names without values. */
export function junkParam(rng: Prng): Param {
  return rng.pick<Param>([
    { text: "bogus=1" },
    { text: "%zz=1" },
    { text: "limit=%zz" },
    { text: "labelSelector=%e0%a4" },
    { text: "=" },
    { text: "&&&" },
    { text: "watch" },
    { text: "limit=1&limit=2" },
    { text: `x=${"y".repeat(20_000)}` },
    { text: "fieldManager=%00" },
    { text: "dryRun=All&dryRun=Bogus", mustRefuse: "dryRun Bogus" },
    { text: "pretty=%F0%9F%98%80" },
    { text: "__proto__=x" },
    { text: "constructor[prototype][x]=1" },
  ]);
}

/** The query string for `params` ("" when none). */
export function query(params: Param[]): string {
  return params.length === 0 ? "" : `?${params.map((x) => x.text).join("&")}`;
}

/** Lists keep every value; a scalar parameter given twice is read from its first value only. */
const LIST_PARAMS = new Set(["dryRun"]);

/** Why kube surely refuses these parameters, if it does. */
export function firstRefusal(params: Param[]): string | undefined {
  const seen = new Set<string>();
  for (const x of params) {
    const first = x.name === undefined || LIST_PARAMS.has(x.name) || !seen.has(x.name);
    if (x.name) seen.add(x.name);
    if (first && x.mustRefuse) return x.mustRefuse;
  }
  return undefined;
}
