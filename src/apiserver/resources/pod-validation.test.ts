import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Container, Pod, PodSpec } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import { validatePod } from "./pod-validation.js";

function messages(spec: Partial<PodSpec>, c: Partial<Container> = {}): string[] {
  const pod: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p" },
    spec: { containers: [{ name: "c", image: "busybox", ...c }], ...spec },
  };
  return validatePod(pod, undefined).map(fieldErrorMessage);
}

describe("validatePod", () => {
  it("takes requests at or below their limits", () => {
    assert.deepEqual(
      messages(
        {},
        {
          resources: {
            requests: { cpu: "500m", memory: "1Gi" },
            limits: { cpu: "1", memory: "1Gi" },
          },
        },
      ),
      [],
    );
  });

  it("refuses a request above its limit, naming the requests map as kube does", () => {
    assert.deepEqual(
      messages({}, { resources: { requests: { cpu: "2" }, limits: { cpu: "1" } } }),
      [
        'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      ],
    );
  });

  it("wants extended resources and hugepages requested exactly at their limit", () => {
    assert.deepEqual(
      messages(
        {},
        {
          resources: {
            requests: { "example.com/gpu": "1", "hugepages-2Mi": "2Mi" },
            limits: { "example.com/gpu": "2", "hugepages-2Mi": "4Mi" },
          },
        },
      ),
      [
        'spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2',
        'spec.containers[0].resources.requests: Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi',
      ],
    );
  });

  it("keeps projected file paths inside the volume", () => {
    const volume = (path: string) => ({
      volumes: [{ name: "v", configMap: { name: "cm", items: [{ key: "k", path }] } }],
    });
    const at = "spec.volumes[0].configMap.items[0].path";
    assert.deepEqual(messages(volume("a/b.txt")), []);
    assert.deepEqual(messages(volume("../../tmp/x")), [
      `${at}: Invalid value: "../../tmp/x": must not contain '..'`,
    ]);
    assert.deepEqual(messages(volume("/abs")), [
      `${at}: Invalid value: "/abs": must be a relative path`,
    ]);
    assert.deepEqual(messages(volume("..x")), [
      `${at}: Invalid value: "..x": must not start with '..'`,
    ]);
    assert.deepEqual(messages(volume("x".repeat(4097))), [
      `${at}: Too long: may not be more than 4096 bytes`,
    ]);
  });

  it("checks file modes, referenced names and downwardAPI sources", () => {
    assert.deepEqual(
      messages({
        volumes: [
          { name: "s", secret: { defaultMode: 0o1000 } },
          { name: "d", downwardAPI: { items: [{ path: "x" }] } },
        ],
      }),
      [
        "spec.volumes[0].secret.secretName: Required value",
        "spec.volumes[0].secret.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive",
        "spec.volumes[1].downwardAPI.items[0]: Required value: one of fieldRef and resourceFieldRef is required",
      ],
    );
  });

  it("checks security ids, profiles, sysctls and host networking", () => {
    assert.deepEqual(
      messages(
        {
          hostNetwork: true,
          securityContext: {
            runAsGroup: 2147483648,
            seccompProfile: { type: "Localhost" },
            sysctls: [
              { name: "net.core.somaxconn", value: "1" },
              { name: "Bad Name", value: "1" },
              { name: "net.core.somaxconn", value: "2" },
            ],
          },
        },
        {
          ports: [{ containerPort: 80, hostPort: 8080 }],
          securityContext: {
            privileged: true,
            allowPrivilegeEscalation: false,
            appArmorProfile: { type: "RuntimeDefault", localhostProfile: "p" },
          },
        },
      ),
      [
        "spec.securityContext.runAsGroup: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
        "spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost",
        'spec.securityContext.sysctls[1].name: Invalid value: "Bad Name": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
        'spec.securityContext.sysctls[2].name: Duplicate value: "net.core.somaxconn"',
        'spec.containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value: "object": can only be set when AppArmor type is Localhost',
        'spec.containers[0].securityContext: Invalid value: "object": cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        "spec.containers[0].ports[0].containerPort: Invalid value: 80: must match `hostPort` when `hostNetwork` is true",
      ],
    );
  });

  it("refuses a shared process namespace with hostPID", () => {
    assert.deepEqual(messages({ hostPID: true, shareProcessNamespace: true }), [
      "spec.securityContext.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled",
    ]);
  });
});
