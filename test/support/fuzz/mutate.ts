/**
 * Mutations of valid objects, the richest source of bad input: a value at a
 * random path replaced by a wrong type, null, a huge or odd-unicode string, a
 * deep nest or a long list; a field removed or added; metadata given odd names,
 * labels, server-owned fields. A mutation that kube is sure to refuse says so
 * (`mustRefuse`), so the runner can tell an accepted bad request from a lucky one.
 */
import type { Prng } from "./prng.js";

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

export interface Mutated {
  object: JsonObject;
  /** Why kube refuses the result, when it surely does. */
  mustRefuse?: string;
  /** `mustRefuse` holds for a create only. */
  onlyCreate?: boolean;
  /** Text to splice in place of the JSON of `"__deep__"` (nesting too deep to build as values). */
  deep?: number;
}

/** Strings a careless script or an attacker sends. */
export const ODD_STRINGS: readonly string[] = [
  "",
  " ",
  ".",
  "..",
  "../../tmp/x",
  "a/b",
  "%2e%2e",
  "%zz",
  "\u0000",
  "nul\u0000byte",
  "tab\there",
  "line\nbreak",
  "\r\n\r\n",
  "\ud800",
  "\udfff\ud800",
  "😀👍🏽",
  "\u202eevil",
  "ＡＢＣ",
  "ß",
  "İ",
  "null",
  "true",
  "-1",
  "1e400",
  "0x10",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell-style placeholder is the odd input
  "${HOME}",
  "$(id)",
  "<script>",
  "'; DROP TABLE kv; --",
  "{{.}}",
  "*",
  "?",
  "#",
  "\\",
  "Bad_Name",
  "UPPER",
  "a".repeat(64),
  "a".repeat(254),
];

export const ODD_NUMBERS: readonly number[] = [
  0,
  -1,
  -0,
  1.5,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
];

/** Every path in `value` to an object member or array element, root excluded. */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []) {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      out.push([...at, i]);
      paths(v, [...at, i], out);
    });
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.push([...at, k]);
      paths(v, [...at, k], out);
    }
  }
  return out;
}

function parentOf(root: JsonObject, path: (string | number)[]): Json {
  let cur: Json = root;
  for (const p of path.slice(0, -1)) cur = (cur as Record<string, Json>)[p as string]!;
  return cur;
}

/** A value of some other type than `old`, or something odd of the same type. */
export function oddValue(rng: Prng, old?: Json): Json {
  return rng.weighted<() => Json>([
    [3, () => null],
    [3, () => rng.pick(ODD_STRINGS)],
    [2, () => rng.pick(ODD_NUMBERS)],
    [1, () => rng.chance(0.5)],
    [2, () => (typeof old === "string" ? 5 : typeof old === "number" ? String(old) : "x")],
    [2, () => (Array.isArray(old) ? {} : [old ?? "x"])],
    [2, () => (typeof old === "object" && !Array.isArray(old) ? [] : { nested: old ?? 1 })],
    [1, () => "x".repeat(rng.pick([1000, 65_536, 300_000]))],
    [1, () => Array.from({ length: rng.pick([100, 1000]) }, (_, i) => `item-${i}`)],
    [1, () => Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]))],
    [1, () => nest(rng.pick([50, 500]))],
  ])();
}

/** An object nested `depth` levels (deep enough to strain recursive code, not the test's own). */
function nest(depth: number): Json {
  let v: Json = "bottom";
  for (let i = 0; i < depth; i++) v = { d: v };
  return v;
}

/** One random change somewhere in `obj` (a copy). */
function mutateAnywhere(rng: Prng, obj: JsonObject): Mutated {
  const out = structuredClone(obj);
  const all = paths(out);
  if (all.length === 0) return { object: { ...out, extra: oddValue(rng) } };
  const path = rng.pick(all);
  const parent = parentOf(out, path) as Record<string | number, Json>;
  const key = path[path.length - 1]!;
  const op = rng.int(4);
  if (op === 0 && !Array.isArray(parent)) delete parent[key];
  else if (op === 1 && !Array.isArray(parent)) parent[rng.pick(ODD_STRINGS)] = oddValue(rng);
  else parent[key] = oddValue(rng, parent[key]);
  return { object: out };
}

/** Changes to metadata kube has firm rules for. */
function mutateMetadata(rng: Prng, obj: JsonObject, kind: string): Mutated {
  const out = structuredClone(obj);
  const old = out.metadata;
  const m: Record<string, Json> =
    typeof old === "object" && old !== null && !Array.isArray(old) ? old : {};
  out.metadata = m;
  const choice = rng.int(12);
  switch (choice) {
    case 0: {
      const name = rng.pick(["", ".", "..", "a/b", "Bad_Name", "a%2fb", "a".repeat(254), "-x"]);
      m.name = name;
      // Events accept any path-segment name; every other kind wants a DNS name.
      const bad = kind === "Event" ? ["", ".", "..", "a/b", "a%2fb"].includes(name) : true;
      return bad
        ? { object: out, mustRefuse: `metadata.name ${JSON.stringify(name)}` }
        : { object: out };
    }
    case 1:
      m.labels = { [rng.pick(["bad key", "a/b/c", "-x", "a".repeat(64), ""])]: "v" };
      return { object: out, mustRefuse: "an invalid label key" };
    case 2:
      m.labels = { ok: rng.pick(["bad value", "a".repeat(64), "-x-", "a/b"]) };
      return { object: out, mustRefuse: "an invalid label value" };
    case 3:
      m.annotations = { big: "x".repeat(262_145) };
      return { object: out, mustRefuse: "annotations over 256 KiB" };
    case 4:
      m.finalizers = [rng.pick(["Bad Fin!", "a/b/c", "-x", "UPPER/case"])];
      return { object: out, mustRefuse: "an invalid finalizer name" };
    case 5:
      m.uid = rng.pick(["", "not-a-uid", "00000000-0000-0000-0000-000000000000"]);
      return { object: out };
    case 6:
      m.resourceVersion = rng.pick(["abc", "-1", "0", "99999999999", "1e3", ""]);
      return { object: out };
    case 7:
      m.managedFields = rng.pick<Json>([
        [{ manager: "evil", operation: "Apply", fieldsType: "FieldsV1", fieldsV1: { "f:x": {} } }],
        [{ manager: 5 }],
        "junk",
      ]);
      return { object: out };
    case 8:
      m.creationTimestamp = rng.pick(["yesterday", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]);
      m.deletionTimestamp = rng.pick(["2000-01-01T00:00:00Z", "nope"]);
      return { object: out };
    case 9:
      m.ownerReferences = rng.pick<Json>([
        [{ apiVersion: "v1", kind: "ConfigMap", name: "x" }],
        [{ apiVersion: "", kind: "", name: "", uid: "" }],
        [
          { apiVersion: "v1", kind: "ConfigMap", name: "x", uid: "u", controller: true },
          { apiVersion: "v1", kind: "Secret", name: "y", uid: "v", controller: true },
        ],
      ]);
      return { object: out, mustRefuse: "invalid ownerReferences" };
    case 10:
      m.generateName = rng.pick(["fz-", "Bad_", "", "a".repeat(300)]);
      delete m.name;
      return { object: out };
    default:
      m.namespace = rng.pick(["other", "Bad_NS", "", "kube-system"]);
      return { object: out };
  }
}

/** Changes kube's per-kind rules refuse (kept to rules the issue names). */
function mutateKindRules(rng: Prng, obj: JsonObject, kind: string): Mutated | undefined {
  const out = structuredClone(obj);
  if (kind === "ConfigMap" || kind === "Secret") {
    const key = rng.pick(["../x", "../../tmp/x", "bad key/", "..", ".", ""]);
    const value = kind === "Secret" ? "eA==" : "x";
    out.data = { ...((out.data as JsonObject | undefined) ?? {}), [key]: value };
    return { object: out, mustRefuse: `data key ${JSON.stringify(key)}` };
  }
  if (kind === "Namespace") {
    // kube keeps spec.finalizers on update (only `finalize` changes them): refused on create.
    out.spec = { finalizers: [rng.pick(["Bad Fin!", "a/b/c"])] };
    return { object: out, mustRefuse: "an invalid namespace finalizer", onlyCreate: true };
  }
  if (kind === "Service") {
    const spec = typeof out.spec === "object" && out.spec !== null ? out.spec : {};
    out.spec = { ...spec, ipFamilies: ["IPv9"] };
    return { object: out, mustRefuse: "ipFamilies IPv9" };
  }
  return undefined;
}

/**
 * A mutation of `obj` (a valid `kind`): a few random changes anywhere, then one
 * last change, so a refusal the last change makes certain is never undone.
 */
export function mutate(rng: Prng, obj: JsonObject, kind: string): Mutated {
  const r = rng.next();
  if (r < 0.06) return { object: obj };
  if (r < 0.1)
    return {
      object: { ...structuredClone(obj), spec: "__deep__" },
      deep: rng.pick([100, 10_001, 20_000]),
    };
  let base = obj;
  while (rng.chance(0.3)) base = mutateAnywhere(rng, base).object;
  if (r < 0.3) return mutateMetadata(rng, base, kind);
  if (r < 0.4) return mutateKindRules(rng, base, kind) ?? mutateAnywhere(rng, base);
  return mutateAnywhere(rng, base);
}

/** JSON text of a mutated object; the `"__deep__"` marker becomes `depth` nested arrays. */
export function jsonText(m: Mutated): string {
  const text = JSON.stringify(m.object);
  if (m.deep === undefined) return text;
  return text.replace('"__deep__"', `${"[".repeat(m.deep)}${"]".repeat(m.deep)}`);
}
