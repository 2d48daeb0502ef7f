import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Container, Pod } from "../../api/index.js";
import {
  containerSecurityContext,
  criCapability,
  mustRunAsNonRoot,
  namespaceOptions,
  runAsNonRootViolation,
  sandboxSecurityContext,
} from "./pod-security.js";

function pod(spec: Partial<Pod["spec"]> = {}, c: Partial<Container> = {}): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns", uid: "u1" },
    spec: { containers: [{ name: "c", ...c }], ...spec },
  };
}
const first = (p: Pod) => p.spec.containers[0]!;

describe("namespaces", () => {
  test("a pod's own network and IPC, each container its own PID namespace", () => {
    assert.deepEqual(namespaceOptions(pod()), { network: "POD", pid: "CONTAINER", ipc: "POD" });
  });
  test("host namespaces are the NODE's", () => {
    assert.deepEqual(namespaceOptions(pod({ hostNetwork: true, hostPID: true, hostIPC: true })), {
      network: "NODE",
      pid: "NODE",
      ipc: "NODE",
    });
  });
  test("shareProcessNamespace: one PID namespace for the pod; hostPID wins", () => {
    assert.equal(namespaceOptions(pod({ shareProcessNamespace: true })).pid, "POD");
    assert.equal(namespaceOptions(pod({ shareProcessNamespace: true, hostPID: true })).pid, "NODE");
  });
  test("containers get the sandbox's namespaces", () => {
    const p = pod({ hostNetwork: true });
    assert.deepEqual(containerSecurityContext(p, first(p)).namespaceOptions, {
      network: "NODE",
      pid: "CONTAINER",
      ipc: "POD",
    });
  });
});

describe("sandboxSecurityContext", () => {
  test("defaults: unprivileged, the runtime's seccomp, no user", () => {
    assert.deepEqual(sandboxSecurityContext(pod()), {
      namespaceOptions: { network: "POD", pid: "CONTAINER", ipc: "POD" },
      privileged: false,
      seccomp: { profileType: "RuntimeDefault" },
    });
  });
  test("the pod's user, group, fsGroup and groups; privileged if any container is", () => {
    const p = pod({
      securityContext: {
        runAsUser: 1000,
        runAsGroup: 3000,
        fsGroup: 2000,
        supplementalGroups: [4, 5],
        seccompProfile: { type: "Unconfined" },
      },
      initContainers: [{ name: "i", securityContext: { privileged: true } }],
    });
    const sc = sandboxSecurityContext(p);
    assert.deepEqual(sc.runAsUser, { value: 1000 });
    assert.deepEqual(sc.runAsGroup, { value: 3000 });
    assert.deepEqual(sc.supplementalGroups, [2000, 4, 5]);
    assert.equal(sc.privileged, true);
    assert.deepEqual(sc.seccomp, { profileType: "RuntimeDefault" }, "the sandbox stays confined");
  });
});

describe("containerSecurityContext", () => {
  test("defaults: RuntimeDefault seccomp, unprivileged, writable root, runtime's capabilities", () => {
    const p = pod();
    assert.deepEqual(containerSecurityContext(p, first(p)), {
      namespaceOptions: { network: "POD", pid: "CONTAINER", ipc: "POD" },
      privileged: false,
      readonlyRootfs: false,
      noNewPrivs: false,
      seccomp: { profileType: "RuntimeDefault" },
    });
  });

  test("the container's user and group over the pod's; groups from the pod", () => {
    const p = pod(
      { securityContext: { runAsUser: 1, runAsGroup: 2, supplementalGroups: [7] } },
      { securityContext: { runAsUser: 1000 } },
    );
    const sc = containerSecurityContext(p, first(p));
    assert.deepEqual(sc.runAsUser, { value: 1000 });
    assert.deepEqual(sc.runAsGroup, { value: 2 });
    assert.deepEqual(sc.supplementalGroups, [7]);
  });

  test("readOnlyRootFilesystem, privileged, allowPrivilegeEscalation=false", () => {
    const p = pod(
      {},
      {
        securityContext: {
          readOnlyRootFilesystem: true,
          privileged: true,
          allowPrivilegeEscalation: false,
        },
      },
    );
    const sc = containerSecurityContext(p, first(p));
    assert.equal(sc.readonlyRootfs, true);
    assert.equal(sc.privileged, true);
    assert.equal(sc.noNewPrivs, true);
    const allowed = pod({}, { securityContext: { allowPrivilegeEscalation: true } });
    assert.equal(containerSecurityContext(allowed, first(allowed)).noNewPrivs, false);
  });

  test("capabilities in containerd's spelling: upper case, no CAP_ prefix", () => {
    const p = pod(
      {},
      { securityContext: { capabilities: { add: ["NET_ADMIN", "cap_sys_time"], drop: ["ALL"] } } },
    );
    assert.deepEqual(containerSecurityContext(p, first(p)).capabilities, {
      addCapabilities: ["NET_ADMIN", "SYS_TIME"],
      dropCapabilities: ["ALL"],
    });
    assert.equal(criCapability("CAP_CHOWN"), "CHOWN");
    assert.equal(criCapability("chown"), "CHOWN");
  });

  test("seccomp: container over pod; Unconfined and Localhost under the profile root", () => {
    const podLevel = pod({ securityContext: { seccompProfile: { type: "Unconfined" } } });
    assert.deepEqual(containerSecurityContext(podLevel, first(podLevel)).seccomp, {
      profileType: "Unconfined",
    });
    const p = pod(
      { securityContext: { seccompProfile: { type: "Unconfined" } } },
      { securityContext: { seccompProfile: { type: "Localhost", localhostProfile: "a/b.json" } } },
    );
    assert.deepEqual(
      containerSecurityContext(p, first(p), { seccompProfileRoot: "/data/seccomp" }).seccomp,
      { profileType: "Localhost", localhostRef: "/data/seccomp/a/b.json" },
    );
    assert.deepEqual(containerSecurityContext(p, first(p)).seccomp, {
      profileType: "Localhost",
      localhostRef: "/var/lib/kubelet/seccomp/a/b.json",
    });
    const explicit = pod({}, { securityContext: { seccompProfile: { type: "RuntimeDefault" } } });
    assert.deepEqual(containerSecurityContext(explicit, first(explicit)).seccomp, {
      profileType: "RuntimeDefault",
    });
  });

  test("procMount Unmasked asks for no masked or read-only paths; Default leaves the runtime's", () => {
    const p = pod({}, { securityContext: { procMount: "Unmasked" } });
    const sc = containerSecurityContext(p, first(p));
    assert.deepEqual([sc.maskedPaths, sc.readonlyPaths], [[], []]);
    const d = pod({}, { securityContext: { procMount: "Default" } });
    assert.equal(containerSecurityContext(d, first(d)).maskedPaths, undefined);
  });
});

describe("runAsNonRoot", () => {
  test("the container's setting over the pod's", () => {
    assert.equal(mustRunAsNonRoot(pod(), first(pod())), false);
    const p = pod({ securityContext: { runAsNonRoot: true } });
    assert.equal(mustRunAsNonRoot(p, first(p)), true);
    const q = pod(
      { securityContext: { runAsNonRoot: true } },
      { securityContext: { runAsNonRoot: false } },
    );
    assert.equal(mustRunAsNonRoot(q, first(q)), false);
  });

  test("checked against runAsUser, else the image's user, as the kubelet does", () => {
    const nonRoot = (user?: number) =>
      pod({ securityContext: { runAsNonRoot: true, runAsUser: user } });
    const check = (p: Pod, image: { uid?: number; username?: string }) =>
      runAsNonRootViolation(p, first(p), image);
    assert.equal(check(nonRoot(1000), { uid: 0 }), undefined);
    assert.match(check(nonRoot(0), { uid: 1000 }) ?? "", /runAsUser breaks non-root policy/);
    assert.equal(check(nonRoot(), { uid: 1000 }), undefined);
    assert.match(check(nonRoot(), { uid: 0 }) ?? "", /image will run as root/);
    assert.match(check(nonRoot(), {}) ?? "", /image will run as root/, "no user is root");
    assert.match(check(nonRoot(), { username: "nginx" }) ?? "", /non-numeric user \(nginx\)/);
    assert.equal(check(pod(), { uid: 0 }), undefined, "root allowed without runAsNonRoot");
  });
});
