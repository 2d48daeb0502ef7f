import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod, PodSpec } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { validatePod } from "./pod-validation.js";

function messages(spec: Partial<PodSpec>): string[] {
  const pod: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers: [{ name: "c", image: "busybox" }], ...spec },
  };
  return validatePod(pod, undefined).map(fieldErrorMessage);
}

describe("validatePod: DNS", () => {
  it("takes a dnsConfig within kube's limits", () => {
    assert.deepEqual(
      messages({
        dnsPolicy: "None",
        dnsConfig: {
          nameservers: ["1.1.1.1", "2001:db8::1"],
          searches: ["example.com."],
          options: [{ name: "ndots", value: "2" }],
        },
        hostAliases: [{ ip: "192.0.2.1", hostnames: ["foo.local"] }],
      }),
      [],
    );
  });

  it("dnsPolicy None needs a dnsConfig with a nameserver", () => {
    assert.deepEqual(messages({ dnsPolicy: "None" }), [
      "spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None",
    ]);
    assert.deepEqual(messages({ dnsPolicy: "None", dnsConfig: { searches: ["a"] } }), [
      "spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None",
    ]);
  });

  it("refuses too many or malformed nameservers, searches and unnamed options", () => {
    const errors = messages({
      dnsConfig: {
        nameservers: ["1.1.1.1", "2.2.2.2", "3.3.3.3", "dns.example"],
        searches: ["Bad_Domain"],
        options: [{ value: "1" }],
      },
    });
    assert.deepEqual(errors, [
      "spec.dnsConfig.nameservers: Invalid value: []: must not have more than 3 nameservers",
      'spec.dnsConfig.nameservers[3]: Invalid value: "dns.example": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      errors[2]!,
      "spec.dnsConfig.options[0]: Required value: Option.Name must not be empty",
    ]);
    assert.match(
      errors[2]!,
      /^spec\.dnsConfig\.searches\[0\]: Invalid value: "Bad_Domain": a lowercase RFC 1123 subdomain/,
    );
    const searches = Array.from({ length: 33 }, (_, i) => `s${i}.example`);
    assert.match(
      messages({ dnsConfig: { searches } })[0]!,
      /must not have more than 32 search paths$/,
    );
    const long = Array.from(
      { length: 12 },
      (_, i) => `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.s${i}`,
    );
    assert.match(
      messages({ dnsConfig: { searches: long } })[0]!,
      /must not have more than 2048 characters \(including spaces\) in the search list$/,
    );
  });

  it("refuses a hostAlias without an IP address", () => {
    assert.deepEqual(messages({ hostAliases: [{ ip: "nope", hostnames: ["a"] }] }), [
      'spec.hostAliases[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
  });
});
