/**
 * Pods configured by src/node/cri/pod-config.ts run on a real containerd
 * (one for the file, supervised on a temp directory, with the busybox
 * fixture), and the kernel enforces what the functions asked: the memory
 * limit and the CPU quota in the container's cgroups (seen from inside and
 * from the host), an OOM kill reported `OOMKilled`, runAsUser, a read-only
 * root, a dropped capability, no privilege and the runtime's seccomp filter
 * by default, a pod sysctl; and the sandbox's labels read back to the pod.
 * The pod runs in the node's network namespace (no CNI network exists here)
 * under a cgroup parent of its own, removed afterwards with everything else.
 * Skips when not root or when containerd or the image tools are missing.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Container, Pod } from "../../src/api/index.js";
import { containerConfig, podOfSandbox, podSandboxConfig } from "../../src/node/cri/index.js";
import {
  ContainerdSupervisor,
  CriClient,
  checkCanRun,
  containerdLayout,
  type PodSandboxConfig,
} from "../../src/node/index.js";
import {
  BUSYBOX_IMAGE,
  buildBusyboxArchive,
  busyboxImageMissing,
  importImage,
} from "../support/busybox-image.js";
import { removeLeftovers } from "../support/containerd-leftovers.js";
import { waitFor } from "../support/hearth-process.js";

const CGROUP_ROOT = "/sys/fs/cgroup";

function skipReason(): string | false {
  try {
    checkCanRun("containerd");
  } catch (e) {
    return (e as Error).message;
  }
  if (!existsSync(join(CGROUP_ROOT, "memory/memory.limit_in_bytes")))
    return "needs the cgroup v1 memory controller at /sys/fs/cgroup/memory";
  return busyboxImageMissing() ?? false;
}

const call = { timeoutMs: 30_000 };
const [NET_ADMIN, NET_RAW, SYS_ADMIN] = [12n, 13n, 21n];

/** The pod's cgroup directories in every v1 hierarchy, deepest first; removes those that exist. */
function removeCgroups(parent: string): string[] {
  const removed: string[] = [];
  for (const hierarchy of readdirSync(CGROUP_ROOT)) {
    const segments = parent.split("/").filter(Boolean);
    for (let n = segments.length; n > 0; n--) {
      const dir = join(CGROUP_ROOT, hierarchy, ...segments.slice(0, n));
      if (!existsSync(dir)) continue;
      rmdirSync(dir);
      removed.push(dir);
    }
  }
  return removed;
}

describe("pod configuration enforced by containerd", { skip: skipReason() }, () => {
  let tmp = "";
  const abort = new AbortController();
  // One cgroup parent for the pod, as the agent will make one per Hearth and pod.
  const cgroupParent = `/hearth-test-${randomBytes(4).toString("hex")}/pod-cfg`;
  let sup: ContainerdSupervisor | undefined;
  let cri: CriClient | undefined;
  let attempts = 0;
  let sandboxId = "";
  let sandbox: PodSandboxConfig;
  const containers: Container[] = [
    { name: "limited", resources: { limits: { cpu: "500m", memory: "64Mi" } } },
    { name: "user", securityContext: { runAsUser: 1000, readOnlyRootFilesystem: true } },
    // Spelled as pods do, with and without the CAP_ prefix, in either case.
    {
      name: "caps",
      securityContext: { capabilities: { add: ["CAP_NET_ADMIN"], drop: ["CHOWN", "cap_net_raw"] } },
    },
    { name: "oom", resources: { limits: { memory: "64Mi" } } },
  ];
  const pod: Pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "cfg", namespace: "default", uid: "pod-cfg", labels: { app: "cfg" } },
    spec: {
      hostNetwork: true,
      terminationGracePeriodSeconds: 7,
      securityContext: { sysctls: [{ name: "kernel.shm_rmid_forced", value: "1" }] },
      containers: containers.map((c) => ({ ...c, image: BUSYBOX_IMAGE })),
    },
  };
  const byName = (name: string) => pod.spec.containers.find((c) => c.name === name)!;

  async function run(name: string, command: string[]): Promise<string> {
    const id = await cri!.createContainer(
      sandboxId,
      containerConfig(pod, byName(name), {
        // Distinct attempts: a name and attempt may be used once in a sandbox.
        attempt: attempts,
        logPath: `${name}/${attempts++}.log`,
        image: BUSYBOX_IMAGE,
        env: new Map([["WHO", name]]),
        command,
        mounts: [],
      }),
      sandbox,
      call,
    );
    await cri!.startContainer(id, call);
    return id;
  }
  const sleeper = (name: string) => run(name, ["sleep", "3600"]);

  async function exec(id: string, cmd: string) {
    const r = await cri!.execSync(id, ["sh", "-c", cmd], 10, call);
    return { code: r.exitCode, out: r.stdout.toString().trim(), err: r.stderr.toString().trim() };
  }

  async function hostCgroup(id: string, controller: string, file: string): Promise<string> {
    const info = (await cri!.containerStatus(id, { ...call, verbose: true })).info;
    const spec = JSON.parse(info.info ?? "{}") as {
      runtimeSpec?: { linux?: { cgroupsPath?: string } };
    };
    const path = spec.runtimeSpec?.linux?.cgroupsPath ?? "";
    assert.ok(path.startsWith(`${cgroupParent}/`), `under the pod's cgroup parent: ${path}`);
    return readFileSync(join(CGROUP_ROOT, controller, path, file), "utf8").trim();
  }

  before(async () => {
    tmp = mkdtempSync("/tmp/hearth-cri-config-");
    const imageDir = join(tmp, "image");
    const archive = buildBusyboxArchive(imageDir);
    sup = new ContainerdSupervisor({
      dataDir: join(tmp, "data"),
      sandboxImage: BUSYBOX_IMAGE,
      stopGraceMs: 5000,
    });
    await sup.start(abort.signal);
    importImage(sup.socket, archive);
    cri = await CriClient.connect(sup.socket);
    const logs = join(tmp, "logs");
    mkdirSync(logs);
    sandbox = podSandboxConfig(pod, { logDirectory: logs, cgroupParent });
    sandboxId = await cri.runPodSandbox(sandbox, call);
  });

  after(async () => {
    let cleaned: string[] = [];
    const errors: unknown[] = [];
    try {
      if (cri && sandboxId) {
        await cri.stopPodSandbox(sandboxId, call);
        await cri.removePodSandbox(sandboxId, call);
        assert.deepEqual(await cri.listContainers({}, call), []);
      }
    } catch (e) {
      errors.push(e);
    } finally {
      cri?.close();
      abort.abort();
      await sup?.stopped().catch((e: unknown) => errors.push(e));
      const l = containerdLayout(join(tmp, "data"));
      if (tmp) {
        cleaned = removeLeftovers(tmp, [l.config, l.socket]);
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    // Runc removes each container's cgroup, not the parents it made: the agent must.
    const cgroups = removeCgroups(cgroupParent);
    assert.deepEqual(errors, []);
    assert.deepEqual(cleaned, [], "no leftovers to clean up");
    assert.ok(cgroups.length > 0, "the pod's cgroup parent existed");
    assert.deepEqual(removeCgroups(cgroupParent), [], "the pod's cgroups are gone");
  });

  test("the sandbox's labels and annotations read back as the pod", async () => {
    const [found] = await cri!.listPodSandbox({ id: sandboxId }, call);
    assert.ok(found);
    assert.deepEqual(podOfSandbox(found.labels, found.annotations), {
      uid: "pod-cfg",
      namespace: "default",
      name: "cfg",
      terminationGracePeriodSeconds: 7,
    });
    assert.equal(found.labels.app, "cfg");
    const status = await cri!.podSandboxStatus(sandboxId, call);
    assert.equal(status.status?.linux?.namespaces?.options?.network, "NODE");
  });

  test("limits: memory and CPU quota in the container's cgroups, inside and from the host", async () => {
    const id = await sleeper("limited");
    const inside = await exec(id, "cat /sys/fs/cgroup/memory/memory.limit_in_bytes");
    assert.deepEqual(inside, { code: 0, out: "67108864", err: "" });
    assert.equal(await hostCgroup(id, "memory", "memory.limit_in_bytes"), "67108864");
    assert.equal(await hostCgroup(id, "cpu", "cpu.cfs_quota_us"), "50000");
    assert.equal(await hostCgroup(id, "cpu", "cpu.cfs_period_us"), "100000");
    assert.equal(
      await hostCgroup(id, "cpu", "cpu.shares"),
      "512",
      "the request defaulted from the limit",
    );
    assert.equal((await exec(id, "echo $WHO")).out, "limited", "the environment given");
  });

  test("defaults: not privileged, the runtime's seccomp filter, root may chown, the pod's sysctl", async () => {
    const id = await sleeper("limited");
    const status = (await exec(id, "cat /proc/self/status")).out;
    const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(status)?.[1];
    assert.equal(field("Seccomp"), "2", "a seccomp filter is on (RuntimeDefault)");
    const capEff = BigInt(`0x${field("CapEff")}`);
    assert.equal((capEff >> SYS_ADMIN) & 1n, 0n, `no CAP_SYS_ADMIN: CapEff ${field("CapEff")}`);
    assert.equal((await exec(id, "id -u")).out, "0", "the image's user");
    assert.equal((await exec(id, "touch /tmp/f && chown 1 /tmp/f")).code, 0, "CHOWN is a default");
    assert.equal((await exec(id, "cat /proc/sys/kernel/shm_rmid_forced")).out, "1");
  });

  test("runAsUser 1000 with a read-only root filesystem", async () => {
    const id = await sleeper("user");
    assert.equal((await exec(id, "id -u")).out, "1000");
    const touch = await exec(id, "touch /x");
    assert.notEqual(touch.code, 0);
    assert.match(touch.err, /Read-only file system/);
  });

  test("capabilities added and dropped: root cannot chown", async () => {
    const id = await sleeper("caps");
    assert.equal((await exec(id, "id -u")).out, "0");
    const chown = await exec(id, "touch /tmp/f && chown 1 /tmp/f");
    assert.notEqual(chown.code, 0);
    assert.match(chown.err, /Operation not permitted/);
    const capEff = BigInt(
      `0x${/^CapEff:\s*(\S+)/m.exec((await exec(id, "cat /proc/self/status")).out)?.[1]}`,
    );
    assert.equal((capEff >> NET_ADMIN) & 1n, 1n, "NET_ADMIN added");
    assert.equal((capEff >> NET_RAW) & 1n, 0n, "NET_RAW dropped");
    assert.equal(capEff & 1n, 0n, "CHOWN dropped");
  });

  test("a 64Mi container that allocates far more is OOMKilled", async () => {
    // tail keeps its last line in memory, and /dev/zero never ends one.
    const id = await run("oom", ["tail", "/dev/zero"]);
    const status = await waitFor(
      "the OOM kill",
      async () => {
        const s = (await cri!.containerStatus(id, call)).status;
        return s?.state === "CONTAINER_EXITED" && s;
      },
      30_000,
    );
    assert.equal(status.reason, "OOMKilled");
    assert.equal(status.exitCode, 137);
  });
});
