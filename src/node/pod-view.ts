/**
 * What the status computation needs to know about a pod's containers, from
 * the worker's records, probes and waiting reasons.
 */

import type { Container, Pod } from "../api/index.js";
import { rfc3339 } from "../api/index.js";
import type { PodState } from "./pod-state.js";

import type { ContainerView, PodView } from "./pod-status.js";
import type { ContainerProber } from "./prober.js";

export interface Waiting {
  reason: string;
  message?: string;
}

export interface WorkerFacts {
  state: PodState;
  hostIP: string;
  probers: ReadonlyMap<string, ContainerProber>;
  waiting: ReadonlyMap<string, Waiting>;
  blocked?: PodView["blocked"];
  terminal?: PodView["terminal"];
}

export function podView(pod: Pod, f: WorkerFacts): PodView {
  const init = pod.spec.initContainers ?? [];
  const pending = init.some((c) => f.state.containers[c.name]?.current?.exit?.exitCode !== 0);
  const one = (c: Container, isInit: boolean): ContainerView => {
    const record = f.state.containers[c.name];
    const running = !!record?.current && !record.current.exit;
    const prober = f.probers.get(c.name);
    const waiting =
      f.waiting.get(c.name) ??
      (!record && !isInit && pending ? { reason: "PodInitializing" } : undefined);
    return {
      name: c.name,
      image: c.image ?? "",
      imageID: `hearth://${c.image ?? ""}`,
      ...(record ? { record } : {}),
      running,
      ...(waiting && !running ? { waiting } : {}),
      ready: isInit
        ? !running && record?.current?.exit?.exitCode === 0
        : (prober?.ready ?? !c.readinessProbe),
      started: prober?.started ?? !c.startupProbe,
    };
  };
  return {
    pod,
    podIP: f.state.podIP,
    hostIP: f.hostIP,
    startTime: f.state.startTime,
    init: init.map((c) => one(c, true)),
    containers: (pod.spec.containers ?? []).map((c) => one(c, false)),
    ...(f.blocked ? { blocked: f.blocked } : {}),
    ...(f.terminal ? { terminal: f.terminal } : {}),
    now: rfc3339(),
  };
}
