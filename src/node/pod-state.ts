/**
 * What the agent knows per pod and its container runs (rebuilt from CRI by
 * the runtime after a restart; nothing of it is written by the agent), and
 * the directory layout under `DIR/pods/<uid>`: the containers' logs (written
 * by the runtime), the volumes and the generated `/etc/hosts`.
 */

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
  /** The runtime's container id (the run's identity); unset while it is being created. */
  containerId?: string;
  /** The image the run was created from, by digest (`imageID` in the status). */
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
  /** The pod's sandbox. */
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

  log(uid: string, container: string, attempt: number): string {
    return join(this.pod(uid), "logs", container, `${attempt}.log`);
  }

  volume(uid: string, name: string): string {
    return join(this.pod(uid), "volumes", name);
  }

  /** Generated files bound into the containers (`/etc/hosts`). */
  etc(uid: string, file: string): string {
    return join(this.pod(uid), "etc", file);
  }
}
