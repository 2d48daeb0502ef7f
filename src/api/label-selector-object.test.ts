/**
 * labelSelectorFromObject: a `matchLabels`/`matchExpressions` selector (as in
 * Deployment, Job, NetworkPolicy specs) as a Selector, table-driven over label
 * sets; an unknown operator is a 400 with kube's message.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "./errors.js";
import { labelSelectorFromObject } from "./selectors.js";

type Sel = Parameters<typeof labelSelectorFromObject>[0];
const get = (labels: Record<string, string>) => (k: string) => labels[k];

describe("labelSelectorFromObject", () => {
  const cases: {
    name: string;
    sel: Sel;
    match: Record<string, string>[];
    miss: Record<string, string>[];
    empty?: boolean;
  }[] = [
    {
      name: "an empty selector selects everything",
      sel: {},
      match: [{}, { a: "b" }],
      miss: [],
      empty: true,
    },
    {
      name: "matchLabels needs every pair",
      sel: { matchLabels: { app: "web", tier: "front" } },
      match: [{ app: "web", tier: "front", x: "y" }],
      miss: [{ app: "web" }, { app: "web", tier: "back" }],
    },
    {
      name: "In and NotIn",
      sel: {
        matchExpressions: [
          { key: "env", operator: "In", values: ["prod", "stage"] },
          { key: "zone", operator: "NotIn", values: ["a"] },
        ],
      },
      match: [{ env: "prod" }, { env: "stage", zone: "b" }],
      miss: [{ env: "dev" }, {}, { env: "prod", zone: "a" }],
    },
    {
      name: "Exists",
      sel: { matchExpressions: [{ key: "gpu", operator: "Exists" }] },
      match: [{ gpu: "" }, { gpu: "x" }],
      miss: [{}],
    },
    {
      name: "DoesNotExist",
      sel: { matchExpressions: [{ key: "legacy", operator: "DoesNotExist" }] },
      match: [{}, { other: "1" }],
      miss: [{ legacy: "" }],
    },
    {
      name: "In with no values matches nothing",
      sel: { matchExpressions: [{ key: "a", operator: "In" }] },
      match: [],
      miss: [{}, { a: "" }],
    },
    {
      name: "matchLabels and matchExpressions together",
      sel: {
        matchLabels: { app: "db" },
        matchExpressions: [{ key: "role", operator: "In", values: ["primary"] }],
      },
      match: [{ app: "db", role: "primary" }],
      miss: [{ app: "db", role: "replica" }, { role: "primary" }],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = labelSelectorFromObject(c.sel);
      assert.equal(s.empty, c.empty ?? false);
      for (const l of c.match)
        assert.equal(s.matches(get(l)), true, `should match ${JSON.stringify(l)}`);
      for (const l of c.miss)
        assert.equal(s.matches(get(l)), false, `should not match ${JSON.stringify(l)}`);
    });
  }

  for (const op of ["in", "Gt", "Equals", ""]) {
    it(`refuses the operator ${JSON.stringify(op)} with a 400`, () => {
      assert.throws(
        () =>
          labelSelectorFromObject({
            matchExpressions: [{ key: "a", operator: op, values: ["1"] }],
          }),
        (e: unknown) =>
          e instanceof ApiError &&
          e.code === 400 &&
          e.message === `"${op}" is not a valid label selector operator`,
      );
    });
  }
});
