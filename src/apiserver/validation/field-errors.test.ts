/** `uncovered`: which schema errors give way to a built-in kind's own, table by table. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { invalidValue, requiredValue } from "../../api/index.js";
import { notSupported, uncovered } from "./field-errors.js";

describe("uncovered", () => {
  const schema = [
    requiredValue("roleRef"),
    requiredValue("rules[0].verbs"),
    requiredValue("spec.x"),
    notSupported("spec.mode", "b", ["a"]),
  ];
  const rows: [why: string, kind: ReturnType<typeof requiredValue>[], left: string[]][] = [
    [
      "nothing from the kind keeps every schema error",
      [],
      ["roleRef", "rules[0].verbs", "spec.x", "spec.mode"],
    ],
    [
      "a kind error below a missing field (dotted) covers it",
      [notSupported("roleRef.kind", "", ["Role"])],
      ["rules[0].verbs", "spec.x", "spec.mode"],
    ],
    [
      "a kind error at the field covers it",
      [requiredValue("rules[0].verbs", "verbs must contain at least one value")],
      ["roleRef", "spec.x", "spec.mode"],
    ],
    [
      "an indexed kind error below covers it",
      [invalidValue("spec.x[0]", "", "bad")],
      ["roleRef", "rules[0].verbs", "spec.mode"],
    ],
    [
      "a sibling with the same prefix does not",
      [invalidValue("spec.xy", "", "bad")],
      ["roleRef", "rules[0].verbs", "spec.x", "spec.mode"],
    ],
    [
      "an enum error stays beside the kind's own at its field",
      [notSupported("spec.mode", "b", ["a", "c"])],
      ["roleRef", "rules[0].verbs", "spec.x", "spec.mode"],
    ],
  ];
  for (const [why, kind, left] of rows)
    it(why, () => {
      assert.deepEqual(
        uncovered(schema, kind).map((e) => e.field),
        left,
      );
    });
});
