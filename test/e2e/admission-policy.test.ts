/**
 * ValidatingAdmissionPolicy with the real kubectl against `hearth up`: Cozystack's
 * deletion guardrail applied as shipped (blocks deleting labelled objects until
 * the label goes), a policy that does not compile refused at the door, evaluation
 * errors under failurePolicy Fail and Ignore, and a Warn binding's warning line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, REPO_ROOT, startHearth } from "../support/hearth-process.js";

const GUARDRAIL = join(REPO_ROOT, "test/fixtures/cozystack-deletion-guardrail.yaml");
const BLOCKED =
  "ValidatingAdmissionPolicy 'cozystack-no-delete-guardrail' with binding 'cozystack-no-delete-guardrail' denied request: Deletion blocked: object carries platform.cozystack.io/no-delete=true. To bypass, first remove the label: kubectl label <kind> <name> platform.cozystack.io/no-delete-";

/** A policy on ConfigMaps and a binding selecting those labelled `e2e=<label>`. */
function policyPair(opts: {
  name: string;
  label: string;
  operations: string[];
  expression: string;
  message?: string;
  failurePolicy?: "Fail" | "Ignore";
  action: "Deny" | "Warn";
}): string {
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ${opts.name}
spec:
  failurePolicy: ${opts.failurePolicy ?? "Fail"}
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ${JSON.stringify(opts.operations)}
      resources: ["configmaps"]
  validations:
  - expression: ${JSON.stringify(opts.expression)}
${opts.message ? `    message: ${JSON.stringify(opts.message)}\n` : ""}---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ${opts.name}-binding
spec:
  policyName: ${opts.name}
  validationActions: [${opts.action}]
  matchResources:
    objectSelector:
      matchLabels: { e2e: ${opts.label} }
`;
}

const configMap = (name: string, label: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: default
  labels: { e2e: ${label} }
data: { a: "1" }
`;

describe("ValidatingAdmissionPolicy with kubectl", () => {
  let h: Hearth;

  before(async () => {
    h = await startHearth();
  });
  after(async () => {
    await h?.cleanup();
  });

  it("serves both kinds in discovery, tables and explain", async () => {
    const resources = await h.kubectlOk([
      "api-resources",
      "--api-group=admissionregistration.k8s.io",
    ]);
    assert.match(
      resources,
      /^validatingadmissionpolicies\s+admissionregistration\.k8s\.io\/v1\s+false\s+ValidatingAdmissionPolicy$/m,
    );
    assert.match(
      resources,
      /^validatingadmissionpolicybindings\s+.*ValidatingAdmissionPolicyBinding$/m,
    );
    const explain = await h.kubectlOk(["explain", "validatingadmissionpolicy.spec.validations"]);
    assert.match(explain, /messageExpression\s+<string>/);
    assert.match(explain, /expression\s+<string> -required-/);
  });

  it("applies Cozystack's guardrail as shipped", async () => {
    const out = await h.kubectlOk(["apply", "-f", GUARDRAIL]);
    assert.match(
      out,
      /validatingadmissionpolicy.admissionregistration.k8s.io\/cozystack-no-delete-guardrail created/,
    );
    assert.match(
      out,
      /validatingadmissionpolicybinding.admissionregistration.k8s.io\/cozystack-no-delete-guardrail created/,
    );
    const policy = JSON.parse(
      await h.kubectlOk([
        "get",
        "validatingadmissionpolicy",
        "cozystack-no-delete-guardrail",
        "-o",
        "json",
      ]),
    );
    assert.equal(policy.spec.failurePolicy, "Fail", "defaulted");
    assert.equal(policy.spec.matchConstraints.matchPolicy, "Equivalent");
    const table = await h.kubectlOk(["get", "validatingadmissionpolicies"]);
    assert.match(table, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE$/m);
    assert.match(table, /^cozystack-no-delete-guardrail\s+1\s+<unset>\s+/m);
  });

  it("blocks deleting a labelled namespace until the label is removed", async () => {
    await h.kubectlOk(["create", "ns", "keepme"]);
    await h.kubectlOk(["label", "ns", "keepme", "platform.cozystack.io/no-delete=true"]);
    const refused = await h.kubectl(["delete", "ns", "keepme"]);
    assert.notEqual(refused.code, 0);
    assert.ok(refused.stderr.includes(BLOCKED), refused.stderr);
    assert.match(refused.stderr, /namespaces "keepme"/);
    const phase = await h.kubectlOk(["get", "ns", "keepme", "-o", "jsonpath={.status.phase}"]);
    assert.equal(phase, "Active");

    await h.kubectlOk(["label", "ns", "keepme", "platform.cozystack.io/no-delete-"]);
    const deleted = await h.kubectlOk(["delete", "ns", "keepme", "--timeout=30s"]);
    assert.match(deleted, /namespace "keepme" deleted/);
    const gone = await h.kubectl(["get", "ns", "keepme"]);
    assert.match(gone.stderr, /namespaces "keepme" not found/);
  });

  it("blocks deleting a labelled ConfigMap, and leaves unlabelled ones alone", async () => {
    await h.kubectlOk(["create", "configmap", "cozystack-version", "--from-literal=version=1"]);
    await h.kubectlOk(["create", "configmap", "scratch"]);
    await h.kubectlOk([
      "label",
      "configmap",
      "cozystack-version",
      "platform.cozystack.io/no-delete=true",
    ]);
    const refused = await h.kubectl(["delete", "configmap", "cozystack-version"]);
    assert.notEqual(refused.code, 0);
    assert.ok(refused.stderr.includes(BLOCKED), refused.stderr);
    await h.kubectlOk(["get", "configmap", "cozystack-version"]);
    await h.kubectlOk(["delete", "configmap", "scratch"]);
  });

  it("refuses a policy whose expression does not compile", async () => {
    const r = await h.kubectl(["apply", "-f", "-"], {
      input: policyPair({
        name: "broken",
        label: "broken",
        operations: ["CREATE"],
        expression: "object.foo ==",
        action: "Deny",
      }),
    });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /spec\.validations\[0\]\.expression: Invalid value: "object\.foo ==": compilation failed: ERROR: <input>:1:\d+: Syntax error/,
    );
    const get = await h.kubectl(["get", "validatingadmissionpolicy", "broken"]);
    assert.notEqual(get.code, 0, "nothing was stored");
    assert.match(
      get.stderr,
      /\(NotFound\): validatingadmissionpolicies\.admissionregistration\.k8s\.io "broken" not found/,
    );
  });

  it("refuses on an evaluation error under Fail and allows under Ignore", async () => {
    const pair = (failurePolicy: "Fail" | "Ignore") =>
      policyPair({
        name: "needs-spec",
        label: "eval",
        operations: ["CREATE", "UPDATE"],
        expression: "object.spec.missing.x == 1",
        failurePolicy,
        action: "Deny",
      });
    await h.kubectlOk(["apply", "-f", "-"], { input: pair("Fail") });
    const refused = await h.kubectl(["apply", "-f", "-"], { input: configMap("eval-a", "eval") });
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /ValidatingAdmissionPolicy 'needs-spec' with binding 'needs-spec-binding' denied request: expression 'object\.spec\.missing\.x == 1' resulted in error: /,
    );
    await h.kubectlOk(["apply", "-f", "-"], { input: pair("Ignore") });
    const allowed = await h.kubectlOk(["apply", "-f", "-"], { input: configMap("eval-a", "eval") });
    assert.match(allowed, /configmap\/eval-a created/);
  });

  it("prints a Warn binding's failure as a kubectl Warning and allows the write", async () => {
    await h.kubectlOk(["apply", "-f", "-"], {
      input: policyPair({
        name: "name-prefix",
        label: "warn",
        operations: ["CREATE"],
        expression: "object.metadata.name.startsWith('ok-')",
        message: "names should start with ok-",
        action: "Warn",
      }),
    });
    const r = await h.kubectl(["apply", "-f", "-"], { input: configMap("plain", "warn") });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /configmap\/plain created/);
    assert.match(
      r.stderr,
      /^Warning: Validation failed for ValidatingAdmissionPolicy 'name-prefix' with binding 'name-prefix-binding': names should start with ok-$/m,
    );
    const quiet = await h.kubectl(["apply", "-f", "-"], { input: configMap("ok-fine", "warn") });
    assert.equal(quiet.stderr, "");
  });

  it("never applies policies to policies and bindings themselves, as kube", async () => {
    // Both carry the guarded label, yet kube exempts its own policy kinds from
    // policies, so a broken policy can always be fixed or removed.
    await h.kubectlOk([
      "delete",
      "validatingadmissionpolicybinding",
      "cozystack-no-delete-guardrail",
    ]);
    await h.kubectlOk(["delete", "validatingadmissionpolicy", "cozystack-no-delete-guardrail"]);
    // Hearth's own guardrail (hearth-no-delete) honours the same label; without
    // the label the ConfigMap goes.
    const still = await h.kubectl(["delete", "configmap", "cozystack-version"]);
    assert.match(still.stderr, /ValidatingAdmissionPolicy 'hearth-no-delete'/);
    await h.kubectlOk([
      "label",
      "configmap",
      "cozystack-version",
      "platform.cozystack.io/no-delete-",
    ]);
    await h.kubectlOk(["delete", "configmap", "cozystack-version"]);
  });
});
