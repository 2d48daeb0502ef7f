import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Container, ObjectMeta, PodSpec } from "../../api/index.js";
import {
  evaluatePod,
  forbiddenDetail,
  type LevelVersion,
  levelVersionString,
  policyFromLabels,
} from "./pod-security-policy.js";

const P = "pod-security.kubernetes.io/";
const spec = (c: Partial<Container> = {}, s: Partial<PodSpec> = {}): PodSpec => ({
  containers: [{ name: "c", image: "busybox", ...c }],
  ...s,
});
const detail = (lv: LevelVersion, s: PodSpec, meta: ObjectMeta = {}) =>
  forbiddenDetail(evaluatePod(lv, meta, s));

const baseline: LevelVersion = { level: "baseline" };
const restricted: LevelVersion = { level: "restricted" };

describe("policyFromLabels", () => {
  it("is privileged:latest everywhere without labels", () => {
    const { policy, errors } = policyFromLabels(undefined);
    assert.deepEqual(errors, []);
    assert.equal(levelVersionString(policy.enforce), "privileged:latest");
  });

  it("reads levels and versions; warn follows a stricter enforce", () => {
    const { policy } = policyFromLabels({
      [`${P}enforce`]: "baseline",
      [`${P}enforce-version`]: "v1.25",
    });
    assert.equal(levelVersionString(policy.enforce), "baseline:v1.25");
    assert.equal(levelVersionString(policy.warn), "baseline:v1.25");
    assert.equal(levelVersionString(policy.audit), "privileged:latest");
  });

  it("fails closed for a bad enforce level and open for a bad warn level", () => {
    const { policy, errors } = policyFromLabels({
      [`${P}enforce`]: "strict",
      [`${P}warn`]: "loud",
      [`${P}audit-version`]: "1.2",
    });
    assert.equal(policy.enforce.level, "restricted");
    assert.equal(policy.warn.level, "privileged");
    assert.deepEqual(
      errors.map((e) => `${e.field}: ${e.detail}`),
      [
        `metadata.labels[${P}enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted`,
        `metadata.labels[${P}audit-version]: Invalid value: "1.2": must be "latest" or "v1.x"`,
        `metadata.labels[${P}warn]: Invalid value: "loud": must be one of privileged, baseline, restricted`,
      ],
    );
  });
});

describe("evaluatePod", () => {
  it("allows a plain pod at baseline and nothing special at privileged", () => {
    assert.deepEqual(evaluatePod(baseline, {}, spec()), []);
    assert.deepEqual(
      evaluatePod({ level: "privileged" }, {}, spec({ securityContext: { privileged: true } })),
      [],
    );
  });

  it("lists baseline reasons in kube's check order, with details", () => {
    const s = spec(
      {
        securityContext: {
          privileged: true,
          procMount: "Unmasked",
          seLinuxOptions: { type: "spc_t", user: "root" },
          seccompProfile: { type: "Unconfined" },
          appArmorProfile: { type: "Unconfined" },
          windowsOptions: { hostProcess: true },
        },
      },
      {
        hostIPC: true,
        securityContext: { sysctls: [{ name: "kernel.msgmax", value: "1" }] },
      },
    );
    assert.equal(
      detail(baseline, s),
      [
        'forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined")',
        "host namespaces (hostIPC=true)",
        'privileged (container "c" must not set securityContext.privileged=true)',
        'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
        'seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
        'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
        "forbidden sysctls (kernel.msgmax)",
        'hostProcess (container "c" must not set securityContext.windowsOptions.hostProcess=true)',
      ].join(", "),
    );
  });

  it("allows the safe sysctls of v1.32 only from that version", () => {
    const s = spec(
      {},
      { securityContext: { sysctls: [{ name: "net.ipv4.tcp_rmem", value: "1" }] } },
    );
    assert.deepEqual(evaluatePod(baseline, {}, s), []);
    assert.equal(
      detail({ level: "baseline", minor: 31 }, s),
      "forbidden sysctls (net.ipv4.tcp_rmem)",
    );
  });

  it("checks seccomp annotations before v1.19 and fields after", () => {
    const meta = { annotations: { "seccomp.security.alpha.kubernetes.io/pod": "unconfined" } };
    assert.equal(
      detail({ level: "baseline", minor: 18 }, spec(), meta),
      'seccompProfile (forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined")',
    );
    assert.deepEqual(evaluatePod(baseline, meta, spec()), []);
  });

  it("replaces the baseline capability, hostPath and seccomp checks at restricted", () => {
    const s = spec(
      {
        securityContext: {
          allowPrivilegeEscalation: false,
          runAsNonRoot: true,
          seccompProfile: { type: "RuntimeDefault" },
          capabilities: { drop: ["ALL"], add: ["NET_BIND_SERVICE", "SYS_TIME"] },
        },
      },
      { volumes: [{ name: "h", hostPath: { path: "/" } }] },
    );
    assert.equal(
      detail(restricted, s),
      'unrestricted capabilities (container "c" must not include "SYS_TIME" in securityContext.capabilities.add), restricted volume types (volume "h" uses restricted volume type "hostPath")',
    );
  });

  it("names who breaks runAsNonRoot and runAsUser, pod first", () => {
    const s: PodSpec = {
      securityContext: { runAsNonRoot: false, runAsUser: 0, seccompProfile: { type: "Localhost" } },
      containers: [
        {
          name: "a",
          image: "i",
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ["ALL"] },
            runAsUser: 0,
          },
        },
      ],
    };
    assert.equal(
      detail(restricted, s),
      'runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false), runAsUser=0 (pod and container "a" must not set runAsUser=0)',
    );
  });

  it("applies restricted checks only from their first version", () => {
    const s = spec({}, { securityContext: { runAsNonRoot: true } });
    // v1.7: no allowPrivilegeEscalation, capabilities are baseline's, no runAsUser, no seccomp fields.
    assert.deepEqual(evaluatePod({ level: "restricted", minor: 7 }, {}, s), []);
    assert.match(
      detail({ level: "restricted", minor: 8 }, s),
      /^allowPrivilegeEscalation != false/,
    );
  });

  it("exempts Windows pods from the Linux-only restricted checks from v1.25", () => {
    const s = spec({}, { os: { name: "windows" }, securityContext: { runAsNonRoot: true } });
    assert.deepEqual(evaluatePod(restricted, {}, s), []);
    assert.match(detail({ level: "restricted", minor: 24 }, s), /allowPrivilegeEscalation/);
  });
});
