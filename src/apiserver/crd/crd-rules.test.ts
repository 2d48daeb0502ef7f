/** Compile checks of a CRD's validation rules, at kube's field paths. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Schema } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { crdRuleErrors } from "./crd-rules.js";
import type { CrdVersion } from "./custom-types.js";

type Rules = NonNullable<Schema["x-kubernetes-validations"]>;

function version(name: string, specRules: Rules, items?: Schema): CrdVersion {
  return {
    name,
    served: true,
    storage: name === "v1",
    schema: {
      openAPIV3Schema: {
        type: "object",
        properties: {
          spec: {
            type: "object",
            properties: {
              replicas: { type: "integer" },
              list: items ?? { type: "array", items: { type: "string" } },
            },
            "x-kubernetes-validations": specRules,
          },
        },
      },
    },
  };
}

const messages = (versions: CrdVersion[]) => crdRuleErrors(versions).map(fieldErrorMessage);
const AT = "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations";

describe("crdRuleErrors", () => {
  it("accepts rules that compile", () => {
    assert.deepEqual(messages([version("v1", [{ rule: "self.replicas >= 0" }])]), []);
  });

  it("names a rule that does not compile with the rule and cel-go's error", () => {
    const [m] = messages([
      version("v1", [{ rule: "self.replicas >= 0" }, { rule: "self.nope > 1" }]),
    ]);
    assert.equal(
      m,
      `${AT}[1].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.nope > 1", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope > 1\n | ....^`,
    );
  });

  it("uses spec.versions[i] when versions have different schemas", () => {
    const errors = crdRuleErrors([
      version("v1", [{ rule: "self.replicas >= 0" }]),
      version("v2", [{ rule: "bogus(" }]),
    ]);
    assert.equal(errors.length, 1);
    assert.equal(
      errors[0]!.field,
      "spec.versions[1].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
    );
  });

  it("checks the shape of rules before compiling them", () => {
    assert.deepEqual(
      messages([
        version("v1", [
          { rule: " " },
          { rule: "self.replicas > 0", message: "two\nlines" },
          { rule: "self.replicas > 0", reason: "FieldValueOdd" },
          { rule: "self.replicas > 0", fieldPath: ".missing" },
        ]),
      ]),
      [
        `${AT}[0].rule: Required value: rule is not specified`,
        `${AT}[1].message: Invalid value: "two\\nlines": message must not contain line breaks`,
        `${AT}[2].reason: Unsupported value: "FieldValueOdd": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
        `${AT}[3].fieldPath: Invalid value: ".missing": fieldPath must be a valid path`,
      ],
    );
  });

  it("refuses oldSelf below lists that cannot be correlated, and a needless optionalOldSelf", () => {
    const items: Schema = {
      type: "array",
      items: { type: "string", "x-kubernetes-validations": [{ rule: "self == oldSelf" }] },
    };
    assert.deepEqual(
      messages([version("v1", [{ rule: "self.replicas > 0", optionalOldSelf: true }], items)]),
      [
        'spec.validation.openAPIV3Schema.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[list].items',
        `${AT}[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
      ],
    );
  });
});
