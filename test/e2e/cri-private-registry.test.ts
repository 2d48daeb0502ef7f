/**
 * Issue 14's image acceptance, as a user runs it with the real kubectl
 * against `hearth up --runtime cri --insecure-registry HOST`:
 * (a) an image pushed to Hearth's own local registry under a new name runs,
 *     named by the registry's address or by a Docker Hub name it mirrors.
 * A private registry (docker-registry with htpasswd over plain HTTP, started
 * by the test and named by the host name, so that only `--insecure-registry`
 * lets containerd reach it) holds busybox under a new name:
 * (b) a pod naming it without a secret shows `ErrImagePull`, then
 *     `ImagePullBackOff`, with the registry's 401;
 * (c) with a `kubernetes.io/dockerconfigjson` Secret (`kubectl create secret
 *     docker-registry`) in `imagePullSecrets` it runs;
 * (d) with a wrong password it still fails with the registry's message.
 * (e) An image the local registry lacks is `ErrImagePull` with its "not found".
 * Each case pulls a tag of its own, so no case finds another's image present.
 * Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import type { Pod } from "../../src/api/index.js";
import { findSpec } from "../../src/images/index.js";
import { criSkipReason, removeContainerRuntime } from "../support/cri-node.js";
import { type Hearth, kubectlJson, startHearth, waitFor } from "../support/hearth-process.js";
import {
  type PrivateRegistry,
  pushImage,
  startPrivateRegistry,
} from "../support/private-registry.js";

const POD_CIDR = "10.242.0.0/24";
const SERVICE_CIDR = "10.243.0.0/16";
const BUSYBOX = findSpec("busybox:1.35")!;
const PULL_WAIT_MS = 120_000;

interface PodSpecInput {
  name: string;
  containers: { name: string; image: string }[];
  secret?: string;
}

/** A pod whose containers print their name and sleep. */
const podYaml = (p: PodSpecInput) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: p.name },
    spec: {
      terminationGracePeriodSeconds: 1,
      ...(p.secret ? { imagePullSecrets: [{ name: p.secret }] } : {}),
      containers: p.containers.map((c) => ({
        ...c,
        command: ["sh", "-c", `echo running-${c.name}; exec sleep 3600`],
      })),
    },
  });

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type Waiting = { reason?: string; message?: string };

async function waitingOf(h: Hearth, pod: string): Promise<Waiting | undefined> {
  const p = (await kubectlJson(h, ["get", "pod", pod])) as Pod | undefined;
  return p?.status?.containerStatuses?.[0]?.state?.waiting as Waiting | undefined;
}

/** The waiting state of a pod whose pull failed (ErrImagePull, or the back-off after it). */
function pullFailure(h: Hearth, pod: string): Promise<Waiting> {
  return waitFor(
    `${pod}'s pull to fail`,
    async () => {
      const w = await waitingOf(h, pod);
      return w?.reason === "ErrImagePull" || w?.reason === "ImagePullBackOff" ? w : undefined;
    },
    PULL_WAIT_MS,
  );
}

/** `kubectl create secret docker-registry NAME` for the private registry's user. */
async function createPullSecret(h: Hearth, r: PrivateRegistry, name: string, password: string) {
  await h.kubectlOk([
    ...["create", "secret", "docker-registry", name, `--docker-server=${r.host}`],
    ...[`--docker-username=${r.username}`, `--docker-password=${password}`],
  ]);
}

/** Applies a one-container pod running `image`, with `secret` as its pull secret. */
async function applyPod(h: Hearth, name: string, image: string, secret?: string) {
  const containers = [{ name: "c", image }];
  await h.kubectlOk(["apply", "-f", "-"], {
    input: podYaml({ name, containers, ...(secret ? { secret } : {}) }),
  });
}

/** `kubectl wait` for Ready; on a timeout, the error says what the pod is waiting for. */
async function waitReady(h: Hearth, pod: string): Promise<void> {
  const r = await h.kubectl(["wait", "--for=condition=Ready", `pod/${pod}`, "--timeout=120s"], {
    timeoutMs: 130_000,
  });
  if (r.code !== 0)
    throw new Error(
      `${pod} not Ready: ${r.stderr}; waiting: ${JSON.stringify(await waitingOf(h, pod))}`,
    );
}

/**
 * Every waiting state `kubectl get pods -w` shows for one pod, from before
 * it exists, as `REASON MESSAGE` lines (custom columns: kubectl 1.32 printed
 * nothing here for a jsonpath template over status fields in watch mode).
 */
function watchWaiting(h: Hearth, pod: string): { lines: () => string[]; stop: () => void } {
  const waiting = ".status.containerStatuses[0].state.waiting";
  const child: ChildProcess = h.kubectlSpawn([
    "get",
    "pods",
    "--field-selector",
    `metadata.name=${pod}`,
    "-w",
    "-o",
    `custom-columns=REASON:${waiting}.reason,MESSAGE:${waiting}.message`,
  ]);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  return {
    lines: () =>
      out
        .split("\n")
        .slice(1)
        .map((l) => l.replace(/^(\S+)\s+/, "$1 "))
        .filter((l) => l && !l.startsWith("<none>")),
    stop: () => child.kill("SIGKILL"),
  };
}

describe("images on containers: a new name, a private registry, imagePullSecrets", {
  skip: criSkipReason(),
}, () => {
  let tmp = "";
  let dataDir = "";
  let registry: PrivateRegistry | undefined;
  let hearth: Hearth | undefined;
  /** Hearth's own registry, `127.0.0.1:PORT`. */
  let local = "";

  before(async () => {
    tmp = mkdtempSync("/tmp/hearth-cripull-");
    dataDir = join(tmp, "data");
    registry = await startPrivateRegistry(join(tmp, "private"), "alice", "pull-me-if-you-can");
    for (const tag of ["nosecret", "withsecret", "wrongsecret"])
      await pushImage(BUSYBOX, registry.address, `private/busybox:${tag}`, registry);
    hearth = await startHearth({
      dataDir,
      extraArgs: [
        ...["--runtime", "cri", "--pod-cidr", POD_CIDR, "--service-cidr", SERVICE_CIDR],
        ...["--insecure-registry", registry.host],
      ],
      timeoutMs: 180_000,
    });
    const config = parse(readFileSync(join(dataDir, "registry", "config.yml"), "utf8")) as {
      http: { addr: string };
    };
    local = config.http.addr;
  });

  after(async () => {
    try {
      if (hearth) assert.equal(await hearth.stop(), 0, "a clean stop");
    } finally {
      await hearth?.cleanup();
      if (dataDir) await removeContainerRuntime(dataDir);
      await registry?.stop();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("(a) an image pushed to Hearth's local registry under a new name runs, by address and by a mirrored name", async () => {
    const h = hearth!;
    await pushImage(BUSYBOX, local, "team/tool:v1");
    await pushImage(BUSYBOX, local, "library/hearth-tool:v1");
    const pod = podYaml({
      name: "new-name",
      containers: [
        { name: "by-address", image: `${local}/team/tool:v1` },
        { name: "mirrored", image: "hearth-tool:v1" },
      ],
    });
    await h.kubectlOk(["apply", "-f", "-"], { input: pod });
    await waitReady(h, "new-name");
    for (const c of ["by-address", "mirrored"])
      assert.match(await h.kubectlOk(["logs", "new-name", "-c", c]), new RegExp(`running-${c}`));
  });

  test("(b) a private image without a secret: ErrImagePull, then ImagePullBackOff, with the registry's 401", async () => {
    const h = hearth!;
    const image = `${registry!.host}/private/busybox:nosecret`;
    const watch = watchWaiting(h, "no-secret");
    try {
      await applyPod(h, "no-secret", image);
      const seen = await waitFor(
        "ErrImagePull then ImagePullBackOff",
        () => {
          const lines = watch.lines();
          const pull = lines.findIndex((l) => l.startsWith("ErrImagePull "));
          const backoff = lines.findIndex((l, i) => i > pull && l.startsWith("ImagePullBackOff "));
          return pull >= 0 && backoff > pull ? [lines[pull]!, lines[backoff]!] : undefined;
        },
        PULL_WAIT_MS,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; the watch saw:\n${watch.lines().join("\n")}`);
      });
      for (const line of seen) assert.match(line, /401 Unauthorized/, line);
      const pullError = `rpc error: code = Unknown desc = failed to pull and unpack image ".*${literal(image)}"`;
      assert.match(seen[0]!, new RegExp(`^ErrImagePull ${pullError}`));
      const backOff = `Back-off pulling image "${literal(image)}": ErrImagePull: ${pullError}`;
      assert.match(seen[1]!, new RegExp(`^ImagePullBackOff ${backOff}`));
    } finally {
      watch.stop();
    }
    const events = await h.kubectlOk([
      "get",
      "events",
      "--field-selector",
      "involvedObject.name=no-secret",
      "-o",
      'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}',
    ]);
    assert.match(events, /Failed: Failed to pull image ".*": .*401 Unauthorized/);
  });

  test("(c) with its dockerconfigjson Secret in imagePullSecrets the private image runs", async () => {
    const h = hearth!;
    await createPullSecret(h, registry!, "regcred", registry!.password);
    await applyPod(h, "with-secret", `${registry!.host}/private/busybox:withsecret`, "regcred");
    await waitReady(h, "with-secret");
    assert.match(await h.kubectlOk(["logs", "with-secret"]), /running-c/);
  });

  test("(d) a Secret with a wrong password still fails with the registry's message", async () => {
    const h = hearth!;
    await createPullSecret(h, registry!, "badcred", "not-the-password");
    await applyPod(h, "wrong-secret", `${registry!.host}/private/busybox:wrongsecret`, "badcred");
    const waiting = await pullFailure(h, "wrong-secret");
    assert.match(waiting.message ?? "", /401 Unauthorized/, JSON.stringify(waiting));
  });

  test("(e) an image the local registry lacks is ErrImagePull with its 'not found'", async () => {
    const h = hearth!;
    const image = `${local}/team/missing:v1`;
    await applyPod(h, "missing", image);
    const waiting = await pullFailure(h, "missing");
    assert.match(
      waiting.message ?? "",
      new RegExp(`${literal(image)}.*not found`),
      JSON.stringify(waiting),
    );
  });
});
