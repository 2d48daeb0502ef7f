/**
 * Everything needed to start one container, or why it cannot start yet: the
 * image from the image table (else `ErrImagePull`), the environment and argv
 * (else `CreateContainerConfigError`), and the binds (volumes, the image's
 * extra paths, the pod's `/etc/hosts` and `/etc/hostname`; a mount point that
 * would have to be created under the read-only `/usr` or `/etc` is a
 * `CreateContainerError`).
 */

import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Container, Pod } from "../api/index.js";
import { rfc3339 } from "../api/index.js";
import { launch } from "./container-process.js";
import { containerArgv, containerEnv, type EnvContext } from "./env.js";
import { ContainerConfigError } from "./field-ref.js";
import type { ImageTable, ResolvedImage } from "./image-table.js";
import { type PodDirs, type PodState, type RunRecord, saveState } from "./pod-state.js";
import { isUnderReadOnlyRoot, type Mount } from "./sandbox.js";
import { containerMounts, type PreparedVolume } from "./volumes.js";
import type { WorkerDeps } from "./worker-deps.js";

export interface StartPlan {
  image: ResolvedImage;
  argv: string[];
  env: Map<string, string>;
  mounts: Mount[];
  workingDir: string;
}

export type StartDecision =
  | { ok: true; plan: StartPlan }
  | {
      ok: false;
      reason: "ErrImagePull" | "CreateContainerConfigError" | "CreateContainerError";
      message: string;
    };

/** The pod's hostname: `spec.hostname`, else its name (at most 63 characters). */
export function podHostname(pod: Pod): string {
  return pod.spec.hostname || (pod.metadata.name ?? "").slice(0, 63).replace(/[-.]+$/, "");
}

/** Writes the pod's `/etc/hosts` and `/etc/hostname` (kubelet's managed files); returns their binds. */
export function writeEtcFiles(dirs: PodDirs, pod: Pod, podIP: string): Mount[] {
  const uid = pod.metadata.uid!;
  const host = podHostname(pod);
  const fqdn = pod.spec.subdomain
    ? `${host}.${pod.spec.subdomain}.${pod.metadata.namespace}.svc.cluster.local\t${host}`
    : host;
  const hosts = `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${podIP}\t${fqdn}\n`;
  const files: [string, string][] = [
    ["hosts", hosts],
    ["hostname", `${host}\n`],
  ];
  return files.map(([name, text]) => {
    const file = dirs.etc(uid, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return { source: file, target: `/etc/${name}`, readOnly: true };
  });
}

export async function planStart(
  c: Container,
  images: ImageTable,
  env: Omit<EnvContext, "imageEnv">,
  volumes: Map<string, PreparedVolume>,
  etcMounts: Mount[],
): Promise<StartDecision> {
  const found = images.lookup(c.image);
  if (!found.ok) return { ok: false, reason: "ErrImagePull", message: found.message };
  let vars: Map<string, string>;
  try {
    vars = await containerEnv(c, { ...env, imageEnv: found.image.env ?? {} });
  } catch (e) {
    if (e instanceof ContainerConfigError)
      return { ok: false, reason: "CreateContainerConfigError", message: e.message };
    throw e;
  }
  const mounts = [
    ...(found.image.binds ?? []).map((p) => ({ source: p, target: p, readOnly: true })),
    ...etcMounts,
    ...containerMounts(c, volumes),
  ];
  for (const m of mounts) {
    if (!existsSync(m.source))
      return {
        ok: false,
        reason: "CreateContainerError",
        message: `the host path ${m.source} for ${m.target} does not exist`,
      };
    if (isUnderReadOnlyRoot(m.target) && !existsSync(m.target))
      return {
        ok: false,
        reason: "CreateContainerError",
        message: `cannot mount at ${m.target}: ${m.target.startsWith("/usr") ? "/usr" : "/etc"} is read-only in the sandbox and ${m.target} does not exist on this node`,
      };
  }
  const argv = containerArgv(c, found.image, vars);
  if (argv.length === 0)
    return {
      ok: false,
      reason: "CreateContainerConfigError",
      message: `no command specified for container ${c.name}: image ${JSON.stringify(c.image)} has no entrypoint`,
    };
  return {
    ok: true,
    plan: { image: found.image, argv, env: vars, mounts, workingDir: c.workingDir ?? "/" },
  };
}

/**
 * Launches the next run of `c` and records it in the pod's state (attempt n+1,
 * restartCount+1, the run before kept as `previous`); returns the shim. The run
 * is recorded before the spawn, so an agent that dies in between leaves a
 * record whose status file tells the next agent the child's pid.
 */
export function startRun(
  deps: WorkerDeps,
  state: PodState,
  pod: Pod,
  c: Container,
  plan: StartPlan,
): ChildProcess {
  const rec = state.containers[c.name];
  const previous = rec?.current;
  const attempt = previous ? previous.attempt + 1 : 0;
  const current: RunRecord = { attempt, startedAt: rfc3339() };
  state.containers[c.name] = {
    restartCount: previous ? (rec?.restartCount ?? 0) + 1 : 0,
    current,
    ...(previous ? { previous } : {}),
  };
  saveState(deps.dirs, state);
  const launched = launch(
    {
      argv: plan.argv,
      env: plan.env,
      hostname: podHostname(pod),
      workingDir: plan.workingDir,
      mounts: plan.mounts,
      logFile: deps.dirs.log(state.uid, c.name, attempt),
      statusFile: deps.dirs.status(state.uid, c.name, attempt),
    },
    attempt,
    deps.layout,
    deps.bwrap,
  );
  Object.assign(current, launched.run, { startedAt: current.startedAt });
  saveState(deps.dirs, state);
  return launched.shim;
}
