/**
 * Streaming (`--only streaming`, issue 16): on `hearth up --runtime cri`
 * (pod CIDR 10.241.0.0/16, service CIDR 10.242.0.0/16), one busybox pod
 * running `nc -ll -p 7000 -e cat` (a `cat` per connection echoes what it
 * reads). From the host, through `kubectl port-forward pod/echo :7000` and
 * straight to the pod's IP (the floor): a payload (64 KiB) echoed many times
 * on one connection after uncounted warm-ups, median and p90 per repetition;
 * and a few MiB streamed through the echo, MiB/s of the round trip. Then
 * `kubectl exec echo -- true` timed from spawn to exit, beside its floor
 * `nsenter -t <container pid> -m -u -i -n -p true` and `kubectl version
 * --client` (kubectl's own start, no request). Each repetition runs every
 * series, the port-forward/direct order turning; ranges are min–median–max
 * over the repetitions, with the added p50 and the throughput ratio paired
 * within each.
 */
import { randomBytes } from "node:crypto";
import type { HttpClient } from "../../src/client/index.js";
import { run } from "../../test/support/hearth-process.js";
import { portForward, stop } from "../../test/support/kubectl-streams.js";
import { podProcesses } from "../../test/support/node-pods.js";
import { type CriGroupResult, type CriHearth, onCriHearth } from "../cri-hearth.js";
import { BUSYBOX } from "../cri-pod-specs.js";
import { type Range, range, round, summarize } from "../stats.js";
import { echoOnce, openEcho, streamThrough } from "../tcp-echo.js";

export interface StreamingPlan {
  /** Timed echoes per series and repetition, after `warmup` uncounted ones. */
  echoes: number;
  warmup: number;
  echoBytes: number;
  /** MiB streamed through the echo per series and repetition. */
  streamMiB: number;
  /** Timed runs of each exec series per repetition. */
  execs: number;
  repetitions: number;
  readyDeadlineMs: number;
}

export const STREAMING_NETWORK = { podCIDR: "10.241.0.0/16", serviceCIDR: "10.242.0.0/16" };

const PATHS = ["portForward", "direct"] as const;
type Path = (typeof PATHS)[number];
const EXECS = ["kubectlExec", "nsenter", "kubectlClient"] as const;
type ExecSeries = (typeof EXECS)[number];

export interface Percentiles {
  p50Ms: number;
  p90Ms: number;
}

export interface StreamingRepetition {
  echo: Record<Path, Percentiles>;
  streamMiBps: Record<Path, number>;
  exec: Record<ExecSeries, Percentiles>;
}

export interface StreamingRanges {
  echoP50Ms: Record<Path, Range>;
  echoP90Ms: Record<Path, Range>;
  /** Per repetition: port-forward echo p50 − direct echo p50. */
  addedEchoP50Ms: Range;
  streamMiBps: Record<Path, Range>;
  /** Per repetition: port-forward MiB/s ÷ direct MiB/s. */
  streamRatio: Range;
  execP50Ms: Record<ExecSeries, Range>;
  execP90Ms: Record<ExecSeries, Range>;
  /** Per repetition: kubectl exec p50 − nsenter p50. */
  addedExecP50Ms: Range;
}

export type StreamingResult = CriGroupResult<{
  podIP: string;
  port: number;
  /** kubectl's port-forward transport: its WebSocket tunnel, or SPDY when it fell back (-v=4 says so). */
  portForwardTransport: "websocket" | "spdy-fallback";
  repetitions: StreamingRepetition[];
  ranges: StreamingRanges;
  errors: number;
  errorSamples: string[];
}>;

const POD = "echo";
const PORT = 7000;

function echoPod(): object {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: POD, labels: { app: "bench-echo" } },
    spec: {
      // nc as PID 1 ignores SIGTERM: do not wait out a long grace period.
      terminationGracePeriodSeconds: 1,
      containers: [
        {
          name: "echo",
          image: BUSYBOX,
          command: ["nc", "-ll", "-p", String(PORT), "-e", "cat"],
          ports: [{ name: "echo", containerPort: PORT }],
          readinessProbe: { tcpSocket: { port: "echo" }, periodSeconds: 1 },
        },
      ],
    },
  };
}

async function podIP(client: HttpClient): Promise<string> {
  const res = await client.request("GET", `/api/v1/namespaces/default/pods/${POD}`);
  const ip = (JSON.parse(res.body) as { status?: { podIP?: string } }).status?.podIP;
  if (!ip) throw new Error(`pod ${POD} is Ready without a pod IP`);
  return ip;
}

const percentiles = (samples: number[]): Percentiles => {
  const s = summarize(samples);
  return { p50Ms: s.p50, p90Ms: s.p90 };
};

async function echoSeries(host: string, port: number, plan: StreamingPlan): Promise<Percentiles> {
  const payload = randomBytes(plan.echoBytes);
  const sock = await openEcho(host, port);
  try {
    for (let i = 0; i < plan.warmup; i++) await echoOnce(sock, payload);
    const samples: number[] = [];
    for (let i = 0; i < plan.echoes; i++) samples.push(await echoOnce(sock, payload));
    return percentiles(samples);
  } finally {
    sock.destroy();
  }
}

async function streamSeries(host: string, port: number, plan: StreamingPlan): Promise<number> {
  const sock = await openEcho(host, port);
  try {
    return round(await streamThrough(sock, plan.streamMiB * 2 ** 20, randomBytes(64 * 1024)), 1);
  } finally {
    sock.destroy();
  }
}

/** Milliseconds from spawn to exit of `cmd`; throws unless it exits 0. */
async function timed(cmd: string, args: string[]): Promise<number> {
  const start = performance.now();
  const r = await run(cmd, args, { timeoutMs: 30_000 });
  const ms = performance.now() - start;
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(" ")}: exit ${r.code}: ${r.stderr}`);
  return ms;
}

function execCommands(ch: CriHearth, pid: number): Record<ExecSeries, [string, string[]]> {
  const kubeconfig = ["--kubeconfig", ch.hearth.kubeconfig];
  return {
    kubectlExec: ["kubectl", [...kubeconfig, "exec", POD, "--", "true"]],
    nsenter: ["nsenter", ["-t", String(pid), "-m", "-u", "-i", "-n", "-p", "true"]],
    kubectlClient: ["kubectl", ["version", "--client", "-o", "json"]],
  };
}

class Errors {
  count = 0;
  readonly samples: string[] = [];
  note(e: unknown) {
    this.count++;
    const msg = e instanceof Error ? e.message : String(e);
    if (this.samples.length < 3 && !this.samples.includes(msg)) this.samples.push(msg);
  }
}

async function execSeries(
  commands: Record<ExecSeries, [string, string[]]>,
  plan: StreamingPlan,
  errors: Errors,
): Promise<Record<ExecSeries, Percentiles>> {
  const samples: Record<ExecSeries, number[]> = { kubectlExec: [], nsenter: [], kubectlClient: [] };
  // Interleaved run by run, so each series sees the same moments of a shared machine.
  for (let i = 0; i < plan.execs; i++)
    for (const k of EXECS) {
      const [cmd, args] = commands[k];
      await timed(cmd, args).then(
        (ms) => samples[k].push(ms),
        (e: unknown) => errors.note(e),
      );
    }
  return {
    kubectlExec: percentiles(samples.kubectlExec),
    nsenter: percentiles(samples.nsenter),
    kubectlClient: percentiles(samples.kubectlClient),
  };
}

function rangesOf(reps: StreamingRepetition[]): StreamingRanges {
  const byPath = (f: (r: StreamingRepetition, p: Path) => number) =>
    Object.fromEntries(PATHS.map((p) => [p, range(reps.map((r) => f(r, p)))])) as Record<
      Path,
      Range
    >;
  const byExec = (f: (x: Percentiles) => number) =>
    Object.fromEntries(EXECS.map((k) => [k, range(reps.map((r) => f(r.exec[k])))])) as Record<
      ExecSeries,
      Range
    >;
  return {
    echoP50Ms: byPath((r, p) => r.echo[p].p50Ms),
    echoP90Ms: byPath((r, p) => r.echo[p].p90Ms),
    addedEchoP50Ms: range(reps.map((r) => r.echo.portForward.p50Ms - r.echo.direct.p50Ms)),
    streamMiBps: byPath((r, p) => r.streamMiBps[p]),
    streamRatio: range(reps.map((r) => r.streamMiBps.portForward / r.streamMiBps.direct)),
    execP50Ms: byExec((x) => x.p50Ms),
    execP90Ms: byExec((x) => x.p90Ms),
    addedExecP50Ms: range(reps.map((r) => r.exec.kubectlExec.p50Ms - r.exec.nsenter.p50Ms)),
  };
}

export function streaming(dir: string, plan: StreamingPlan): Promise<StreamingResult> {
  return onCriHearth(
    dir,
    "streaming",
    [BUSYBOX],
    async (ch, watch) => {
      const res = await ch.client.request(
        "POST",
        "/api/v1/namespaces/default/pods",
        JSON.stringify(echoPod()),
      );
      if (res.status !== 201) throw new Error(`cannot create pod ${POD}: HTTP ${res.status}`);
      if (!(await watch.until(() => watch.readyAt.has(POD), plan.readyDeadlineMs)))
        throw new Error(`pod ${POD} not Ready within ${plan.readyDeadlineMs} ms`);
      const ip = await podIP(ch.client);
      const proc = (await podProcesses(ch.hearth.dataDir)).find((p) => p.container === "echo");
      if (!proc) throw new Error(`no process of pod ${POD}'s container in containerd's state`);
      const commands = execCommands(ch, proc.pid);
      const pf = await portForward(ch.hearth, [`pod/${POD}`, `:${PORT}`]);
      try {
        const local = Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(pf.output())?.[1]);
        if (!local) throw new Error(`port-forward printed no local port: ${pf.output()}`);
        const target: Record<Path, [string, number]> = {
          portForward: ["127.0.0.1", local],
          direct: [ip, PORT],
        };
        const errors = new Errors();
        const reps: StreamingRepetition[] = [];
        for (let rep = 0; rep < plan.repetitions; rep++) {
          // The order turns every repetition, so neither path always runs first.
          const order = rep % 2 === 0 ? PATHS : ([...PATHS].reverse() as Path[]);
          const echo = {} as Record<Path, Percentiles>;
          const streamMiBps = {} as Record<Path, number>;
          for (const p of order) echo[p] = await echoSeries(...target[p], plan);
          for (const p of order) streamMiBps[p] = await streamSeries(...target[p], plan);
          reps.push({ echo, streamMiBps, exec: await execSeries(commands, plan, errors) });
        }
        return {
          podIP: ip,
          port: PORT,
          portForwardTransport: /fallback/i.test(pf.output()) ? "spdy-fallback" : "websocket",
          repetitions: reps,
          ranges: rangesOf(reps),
          errors: errors.count,
          errorSamples: errors.samples,
        };
      } finally {
        await stop(pf);
      }
    },
    STREAMING_NETWORK,
  );
}
