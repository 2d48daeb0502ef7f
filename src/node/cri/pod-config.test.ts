import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Container, Pod } from "../../api/index.js";
import {
  CONTAINER_NAME_LABEL,
  type ContainerFacts,
  containerConfig,
  containerHash,
  POD_NAME_LABEL,
  POD_NAMESPACE_LABEL,
  POD_UID_LABEL,
  podOfSandbox,
  podSandboxConfig,
  sandboxHostname,
} from "./pod-config.js";

function pod(spec: Partial<Pod["spec"]> = {}, c: Partial<Container> = {}): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: "web-0",
      namespace: "shop",
      uid: "0f1e2d3c",
      labels: { app: "web" },
      annotations: { note: "hi" },
    },
    spec: { containers: [{ name: "app", image: "nginx:1.25", ...c }], ...spec },
  };
}

const facts = (over: Partial<ContainerFacts> = {}): ContainerFacts => ({
  attempt: 2,
  logPath: "app/2.log",
  image: "docker.io/library/nginx:1.25",
  env: new Map([
    ["A", "1"],
    ["B", "two"],
  ]),
  mounts: [],
  ...over,
});

describe("podSandboxConfig", () => {
  test("metadata, hostname, logs, labels and annotations as the kubelet writes them", () => {
    const p = pod({ terminationGracePeriodSeconds: 45 });
    const config = podSandboxConfig(p, { logDirectory: "/data/logs/shop_web-0_0f1e2d3c" });
    assert.deepEqual(config.metadata, {
      name: "web-0",
      namespace: "shop",
      uid: "0f1e2d3c",
      attempt: 0,
    });
    assert.equal(config.hostname, "web-0");
    assert.equal(config.logDirectory, "/data/logs/shop_web-0_0f1e2d3c");
    assert.deepEqual(config.labels, {
      app: "web",
      [POD_NAME_LABEL]: "web-0",
      [POD_NAMESPACE_LABEL]: "shop",
      [POD_UID_LABEL]: "0f1e2d3c",
    });
    assert.deepEqual(config.annotations, {
      note: "hi",
      "io.kubernetes.pod.terminationGracePeriod": "45",
    });
    assert.equal(config.dnsConfig, undefined, "the runtime's resolv.conf");
    assert.equal(config.portMappings, undefined);
    assert.deepEqual(config.linux, {
      securityContext: {
        namespaceOptions: { network: "POD", pid: "CONTAINER", ipc: "POD" },
        privileged: false,
        seccomp: { profileType: "RuntimeDefault" },
      },
      sysctls: {},
    });
  });

  test("a pod label cannot impersonate the kubelet's", () => {
    const p = pod();
    p.metadata.labels = { [POD_UID_LABEL]: "someone-else" };
    assert.equal(podSandboxConfig(p, { logDirectory: "/l" }).labels?.[POD_UID_LABEL], "0f1e2d3c");
  });

  test("attempt, cgroup parent, DNS, sysctls and host ports", () => {
    const p = pod(
      {
        securityContext: { sysctls: [{ name: "net.ipv4.ip_unprivileged_port_start", value: "0" }] },
      },
      {
        ports: [
          { containerPort: 80, protocol: "TCP" },
          { containerPort: 53, hostPort: 5353, protocol: "UDP", hostIP: "127.0.0.1" },
          { containerPort: 443, hostPort: 8443 },
        ],
      },
    );
    const dns = {
      servers: ["10.96.0.10"],
      searches: ["shop.svc.cluster.local"],
      options: ["ndots:5"],
    };
    const config = podSandboxConfig(p, {
      logDirectory: "/l",
      cgroupParent: "/hearth-1a2b3c4d/pod0f1e2d3c",
      dns,
      attempt: 3,
    });
    assert.equal(config.metadata.attempt, 3);
    assert.equal(config.linux?.cgroupParent, "/hearth-1a2b3c4d/pod0f1e2d3c");
    assert.deepEqual(config.dnsConfig, dns);
    assert.deepEqual(config.linux?.sysctls, { "net.ipv4.ip_unprivileged_port_start": "0" });
    assert.deepEqual(config.portMappings, [
      { protocol: "UDP", containerPort: 53, hostPort: 5353, hostIp: "127.0.0.1" },
      { protocol: "TCP", containerPort: 443, hostPort: 8443 },
    ]);
  });

  test("host namespaces: NODE, and no hostname of its own on the host network", () => {
    const config = podSandboxConfig(pod({ hostNetwork: true, hostIPC: true, hostPID: true }), {
      logDirectory: "/l",
    });
    assert.equal(config.hostname, undefined);
    assert.deepEqual(config.linux?.securityContext?.namespaceOptions, {
      network: "NODE",
      pid: "NODE",
      ipc: "NODE",
    });
  });
});

describe("sandboxHostname", () => {
  test("spec.hostname, else the pod name cut to 63 without a trailing dash", () => {
    assert.equal(sandboxHostname(pod({ hostname: "db" })), "db");
    const long = pod();
    long.metadata.name = `${"a".repeat(62)}-b`;
    assert.equal(sandboxHostname(long), "a".repeat(62));
  });
  test("a subdomain makes the FQDN only with setHostnameAsFQDN, at most 64 characters", () => {
    assert.equal(sandboxHostname(pod({ hostname: "db", subdomain: "dbs" })), "db");
    const fqdn = pod({ hostname: "db", subdomain: "dbs" });
    Object.assign(fqdn.spec, { setHostnameAsFQDN: true });
    assert.equal(sandboxHostname(fqdn), "db.dbs.shop.svc.cluster.local");
    const tooLong = pod({ hostname: "d".repeat(40), subdomain: "dbs" });
    Object.assign(tooLong.spec, { setHostnameAsFQDN: true });
    assert.throws(() => sandboxHostname(tooLong), /FQDN .* is too long \(64 characters is the max/);
  });
});

describe("podOfSandbox", () => {
  test("reads back the pod's identity and grace period", () => {
    const config = podSandboxConfig(pod({ terminationGracePeriodSeconds: 5 }), {
      logDirectory: "/l",
    });
    assert.deepEqual(podOfSandbox(config.labels ?? {}, config.annotations ?? {}), {
      uid: "0f1e2d3c",
      namespace: "shop",
      name: "web-0",
      terminationGracePeriodSeconds: 5,
    });
    const noGrace = podSandboxConfig(pod(), { logDirectory: "/l" });
    assert.deepEqual(podOfSandbox(noGrace.labels ?? {}, {}), {
      uid: "0f1e2d3c",
      namespace: "shop",
      name: "web-0",
      terminationGracePeriodSeconds: 30,
    });
    const zero = podSandboxConfig(pod({ terminationGracePeriodSeconds: 0 }), {
      logDirectory: "/l",
    });
    assert.equal(
      podOfSandbox(zero.labels ?? {}, zero.annotations ?? {})?.terminationGracePeriodSeconds,
      0,
    );
  });
  test("undefined for a sandbox that is not a pod's", () => {
    assert.equal(podOfSandbox({}, {}), undefined);
    assert.equal(podOfSandbox({ [POD_UID_LABEL]: "u", [POD_NAME_LABEL]: "n" }, {}), undefined);
  });
});

describe("containerConfig", () => {
  test("metadata, image, command, env, log path, labels and annotations", () => {
    const p = pod(
      { terminationGracePeriodSeconds: 30 },
      { ports: [{ containerPort: 80, protocol: "TCP" }], workingDir: "/srv" },
    );
    const c = p.spec.containers[0]!;
    const config = containerConfig(
      p,
      c,
      facts({ command: ["nginx"], args: ["-g", "daemon off;"] }),
    );
    assert.deepEqual(config.metadata, { name: "app", attempt: 2 });
    assert.deepEqual(config.image, { image: "docker.io/library/nginx:1.25" });
    assert.deepEqual(config.command, ["nginx"]);
    assert.deepEqual(config.args, ["-g", "daemon off;"]);
    assert.equal(config.workingDir, "/srv");
    assert.deepEqual(config.envs, [
      { key: "A", value: "1" },
      { key: "B", value: "two" },
    ]);
    assert.equal(config.logPath, "app/2.log");
    assert.deepEqual(config.labels, {
      [POD_NAME_LABEL]: "web-0",
      [POD_NAMESPACE_LABEL]: "shop",
      [POD_UID_LABEL]: "0f1e2d3c",
      [CONTAINER_NAME_LABEL]: "app",
    });
    assert.deepEqual(config.annotations, {
      "io.kubernetes.container.hash": containerHash(c),
      "io.kubernetes.container.restartCount": "2",
      "io.kubernetes.container.terminationMessagePath": "/dev/termination-log",
      "io.kubernetes.container.terminationMessagePolicy": "File",
      "io.kubernetes.pod.terminationGracePeriod": "30",
      "io.kubernetes.container.ports": '[{"containerPort":80,"protocol":"TCP"}]',
    });
    assert.deepEqual([config.stdin, config.stdinOnce, config.tty], [false, false, false]);
    assert.equal(config.linux?.resources?.cpuShares, 2);
    assert.equal(config.linux?.securityContext?.seccomp?.profileType, "RuntimeDefault");
  });

  test("no command, args or workingDir: the image's", () => {
    const p = pod();
    const config = containerConfig(p, p.spec.containers[0]!, facts());
    assert.equal("command" in config, false);
    assert.equal("args" in config, false);
    assert.equal("workingDir" in config, false);
  });

  test("mounts, with the volumeMount's propagation", () => {
    const p = pod(
      {},
      {
        volumeMounts: [
          { name: "data", mountPath: "/data" },
          { name: "host", mountPath: "/host", mountPropagation: "HostToContainer" },
          { name: "both", mountPath: "/both", mountPropagation: "Bidirectional" },
        ] as Container["volumeMounts"],
      },
    );
    const mounts = containerConfig(
      p,
      p.spec.containers[0]!,
      facts({
        mounts: [
          { source: "/v/data", target: "/data", readOnly: false },
          { source: "/", target: "/host", readOnly: true },
          { source: "/b", target: "/both", readOnly: false },
          { source: "/e/hosts", target: "/etc/hosts", readOnly: true },
        ],
      }),
    ).mounts;
    assert.deepEqual(mounts, [
      {
        containerPath: "/data",
        hostPath: "/v/data",
        readonly: false,
        propagation: "PROPAGATION_PRIVATE",
      },
      {
        containerPath: "/host",
        hostPath: "/",
        readonly: true,
        propagation: "PROPAGATION_HOST_TO_CONTAINER",
      },
      {
        containerPath: "/both",
        hostPath: "/b",
        readonly: false,
        propagation: "PROPAGATION_BIDIRECTIONAL",
      },
      {
        containerPath: "/etc/hosts",
        hostPath: "/e/hosts",
        readonly: true,
        propagation: "PROPAGATION_PRIVATE",
      },
    ]);
  });

  test("stdin, stdinOnce and tty from the container", () => {
    const p = pod({}, { stdin: true, stdinOnce: true, tty: true } as Partial<Container>);
    const config = containerConfig(p, p.spec.containers[0]!, facts());
    assert.deepEqual([config.stdin, config.stdinOnce, config.tty], [true, true, true]);
  });

  test("the hash changes with the container's spec", () => {
    const a: Container = { name: "app", image: "nginx:1.25" };
    assert.equal(containerHash(a), containerHash({ ...a }));
    assert.notEqual(containerHash(a), containerHash({ ...a, image: "nginx:1.26" }));
    assert.match(containerHash(a), /^[0-9a-f]{1,8}$/);
  });
});
