/**
 * The status the agent reports for a pod, computed from what it knows (a pure
 * function, so the rules are tested alone): container states with restart
 * counts, last terminations, readiness; the conditions the kubelet owns
 * (PodScheduled, PodReadyToStartContainers, Initialized, ContainersReady,
 * Ready), the IPs and start time, and the phase by the kubelet's `getPhase`.
 * Conditions owned by others are kept; a terminal phase never changes.
 */
import type {
  ContainerState,
  ContainerStatus,
  Pod,
  PodCondition,
  PodPhase,
  PodStatus,
} from "../api/index.js";
import type { ContainerRecord, RunRecord } from "./pod-state.js";

export interface ContainerView {
  name: string;
  image: string;
  imageID: string;
  record?: ContainerRecord;
  /** The current run is alive. */
  running: boolean;
  /** Why it is not running (ContainerCreating, ErrImagePull, CrashLoopBackOff…). */
  waiting?: { reason: string; message?: string };
  ready: boolean;
  started: boolean;
}

export interface PodView {
  pod: Pod;
  podIP?: string;
  hostIP: string;
  startTime?: string;
  init: ContainerView[];
  containers: ContainerView[];
  /** The sandbox cannot be set up (a volume): PodReadyToStartContainers=False. */
  blocked?: { reason: string; message: string };
  /** Set once the pod is over for good (a failed init with restartPolicy Never, a deadline). */
  terminal?: { phase: "Failed" | "Succeeded"; reason?: string; message?: string };
  now: string;
}

const OWNED = [
  "PodReadyToStartContainers",
  "Initialized",
  "ContainersReady",
  "Ready",
  "PodScheduled",
];

function terminated(run: RunRecord, containerID: string): ContainerState {
  const e = run.exit!;
  return {
    terminated: {
      exitCode: e.exitCode,
      ...(e.signal ? { signal: e.signal } : {}),
      reason: e.reason,
      ...(e.message ? { message: e.message } : {}),
      startedAt: run.startedAt,
      finishedAt: e.finishedAt,
      containerID,
    },
  };
}

/** `containerd://<id>` for a container run through CRI, else Hearth's own name of the run. */
export function containerID(uid: string, name: string, run: RunRecord): string {
  return run.containerId
    ? `containerd://${run.containerId}`
    : `hearth://${uid}/${name}/${run.attempt}`;
}

function containerStatus(uid: string, v: ContainerView): ContainerStatus {
  const cur = v.record?.current;
  const prev = v.record?.previous;
  let state: ContainerState;
  let last: RunRecord | undefined = prev?.exit ? prev : undefined;
  if (cur && v.running) state = { running: { startedAt: cur.startedAt } };
  else if (v.waiting) {
    state = {
      waiting: {
        reason: v.waiting.reason,
        ...(v.waiting.message ? { message: v.waiting.message } : {}),
      },
    };
    if (cur?.exit) last = cur;
  } else if (cur?.exit) state = terminated(cur, containerID(uid, v.name, cur));
  else state = { waiting: { reason: "ContainerCreating" } };
  return {
    name: v.name,
    state,
    lastState: last ? terminated(last, containerID(uid, v.name, last)) : {},
    ready: v.running && v.ready,
    restartCount: v.record?.restartCount ?? 0,
    image: v.image,
    imageID: cur?.imageID ?? v.imageID,
    ...(cur ? { containerID: containerID(uid, v.name, cur) } : {}),
    started: v.running && v.started,
  };
}

const succeededInit = (v: ContainerView) =>
  !v.running && v.record?.current?.exit?.exitCode === 0 && !v.waiting;

/** kubelet's getPhase over the computed container statuses. */
function phaseOf(view: PodView, statuses: ContainerStatus[], initialized: boolean): PodPhase {
  const previous = view.pod.status?.phase;
  if (previous === "Succeeded" || previous === "Failed") return previous;
  if (view.terminal) return view.terminal.phase;
  if (!initialized) return "Pending";
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const s of statuses) {
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.lastState?.terminated) stopped++;
    else waiting++;
  }
  if (waiting > 0) return "Pending";
  if (running > 0) return "Running";
  if (stopped === 0) return "Pending";
  const policy = view.pod.spec.restartPolicy ?? "Always";
  if (policy === "Always") return "Running";
  if (stopped === succeeded && statuses.every((s) => s.state?.terminated)) return "Succeeded";
  if (policy === "Never" && statuses.every((s) => s.state?.terminated)) return "Failed";
  return "Running";
}

function condition(
  old: PodCondition[],
  type: string,
  ok: boolean,
  now: string,
  reason?: string,
  message?: string,
): PodCondition {
  const status = ok ? "True" : "False";
  const prev = old.find((c) => c.type === type);
  return {
    type,
    status,
    lastTransitionTime:
      prev?.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : now,
    ...(!ok && reason ? { reason } : {}),
    ...(!ok && message ? { message } : {}),
  };
}

export function computeStatus(view: PodView): PodStatus {
  const uid = view.pod.metadata.uid ?? "";
  const old = view.pod.status ?? {};
  const oldConditions = old.conditions ?? [];
  const init = view.init.map((v) => containerStatus(uid, v));
  const main = view.containers.map((v) => containerStatus(uid, v));
  const pendingInit = view.init.filter((v) => !succeededInit(v)).map((v) => v.name);
  const initialized = pendingInit.length === 0;
  const unready = main.filter((s) => !s.ready).map((s) => s.name);
  const phase = phaseOf(view, main, initialized);
  const done = phase === "Succeeded" || phase === "Failed";
  const list = (names: string[]) => `[${names.join(" ")}]`;
  const conditions: PodCondition[] = [
    condition(
      oldConditions,
      "PodReadyToStartContainers",
      !view.blocked,
      view.now,
      view.blocked?.reason,
      view.blocked?.message,
    ),
    condition(
      oldConditions,
      "Initialized",
      initialized,
      view.now,
      "ContainersNotInitialized",
      `containers with incomplete status: ${list(pendingInit)}`,
    ),
    condition(
      oldConditions,
      "ContainersReady",
      unready.length === 0 && !done,
      view.now,
      done ? "PodCompleted" : "ContainersNotReady",
      done ? undefined : `containers with unready status: ${list(unready)}`,
    ),
    condition(
      oldConditions,
      "Ready",
      unready.length === 0 && !done,
      view.now,
      done ? "PodCompleted" : "ContainersNotReady",
      done ? undefined : `containers with unready status: ${list(unready)}`,
    ),
    condition(oldConditions, "PodScheduled", true, view.now),
  ];
  const others = oldConditions.filter((c) => !OWNED.includes(c.type));
  const status: PodStatus = {
    ...old,
    phase,
    conditions: [...conditions, ...others],
    hostIP: view.hostIP,
    hostIPs: [{ ip: view.hostIP }],
    ...(view.podIP ? { podIP: view.podIP, podIPs: [{ ip: view.podIP }] } : {}),
    ...(view.startTime ? { startTime: view.startTime } : {}),
    ...(init.length ? { initContainerStatuses: init } : {}),
    containerStatuses: main,
  };
  const wasTerminal = old.phase === "Succeeded" || old.phase === "Failed";
  if (wasTerminal) return status;
  delete status.reason;
  delete status.message;
  if (view.terminal?.reason) status.reason = view.terminal.reason;
  if (view.terminal?.message) status.message = view.terminal.message;
  if (!init.length) delete status.initContainerStatuses;
  return status;
}
