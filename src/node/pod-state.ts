/**
 * What the agent keeps on disk per pod, so that a new agent can adopt what an
 * old one started: `DIR/pods/<uid>/state.json` (the pod's IP and start time,
 * and per container its restart count and its current and previous run: bwrap
 * pid, container pid and their start times, exit), and the directory layout
 * around it (logs, bwrap status files, volumes). Writes are atomic (write,
 * then rename), so a crash leaves the old state or the new one.
 */

import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ExitRecord {
  exitCode: number;
  signal?: number;
  reason: string;
  message?: string;
  finishedAt: string;
}

/** One run of a container: attempt n writes `logs/<name>/<n>.log`. */
export interface RunRecord {
  attempt: number;
  startedAt: string;
  /** bwrap, the session leader of the spawn. */
  shimPid?: number;
  shimStart?: number;
  /** The container process (bwrap's child), leader of its own session. */
  pid?: number;
  pidStart?: number;
  /** CRI: the runtime's container id (the run's identity there). */
  containerId?: string;
  /** CRI: the image the run was created from, by digest (`imageID` in the status). */
  imageID?: string;
  exit?: ExitRecord;
}

export interface ContainerRecord {
  restartCount: number;
  current?: RunRecord;
  /** The run before `current`, for `lastState` and `logs --previous`. */
  previous?: RunRecord;
}

export interface PodState {
  version: 1;
  uid: string;
  namespace: string;
  name: string;
  podIP: string;
  /** CRI: the pod's sandbox. */
  sandboxId?: string;
  startTime: string;
  /** Grace period to use when the pod is stopped without its object (deleted while the agent was down). */
  terminationGracePeriodSeconds: number;
  containers: Record<string, ContainerRecord>;
}

export class PodDirs {
  constructor(readonly root: string) {}

  get podsDir(): string {
    return join(this.root, "pods");
  }

  pod(uid: string): string {
    return join(this.podsDir, uid);
  }

  state(uid: string): string {
    return join(this.pod(uid), "state.json");
  }

  log(uid: string, container: string, attempt: number): string {
    return join(this.pod(uid), "logs", container, `${attempt}.log`);
  }

  status(uid: string, container: string, attempt: number): string {
    return join(this.pod(uid), "run", container, `${attempt}.status`);
  }

  volume(uid: string, name: string): string {
    return join(this.pod(uid), "volumes", name);
  }

  /** Generated files bound into the sandbox (`/etc/hosts`, `/etc/hostname`). */
  etc(uid: string, file: string): string {
    return join(this.pod(uid), "etc", file);
  }

  /** The uids of every pod directory on disk. */
  listPods(): string[] {
    try {
      return readdirSync(this.podsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      return [];
    }
  }
}

export function loadState(dirs: PodDirs, uid: string): PodState | undefined {
  try {
    const state = JSON.parse(readFileSync(dirs.state(uid), "utf8")) as PodState;
    return state.version === 1 && state.uid === uid ? state : undefined;
  } catch {
    return undefined;
  }
}

export function saveState(dirs: PodDirs, state: PodState): void {
  const file = dirs.state(state.uid);
  mkdirSync(dirs.pod(state.uid), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, file);
}
