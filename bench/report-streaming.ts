/**
 * The report of the streaming group (issue 16): port-forward beside a direct
 * connection to the pod (64 KiB echo p50/p90, MiB/s streamed) and `kubectl
 * exec -- true` beside `nsenter` and kubectl's own start, as summary lines,
 * ratios, a no-errors target and error samples. The issue sets no goal for
 * the numbers; they are reported. A run skipped on this machine says why.
 */
import type { Target } from "./report.js";
import type { StreamingResult } from "./scenarios/streaming.js";
import type { Range } from "./stats.js";

type Ran = Exclude<StreamingResult, { skipped: string }>;
const ran = (r: StreamingResult | undefined): Ran | undefined =>
  r && !("skipped" in r) ? r : undefined;

export function streamingRatios(r: StreamingResult | undefined) {
  const s = ran(r);
  if (!s) return {};
  return {
    /** Medians over the repetitions of the paired values. */
    portForwardToDirect: {
      streamThroughput: s.ranges.streamRatio.median,
      addedEchoP50Ms: s.ranges.addedEchoP50Ms.median,
    },
    kubectlExecToNsenter: { addedP50Ms: s.ranges.addedExecP50Ms.median },
  };
}

export function streamingTargets(r: StreamingResult | undefined): Record<string, Target> {
  if (!r) return {};
  const s = ran(r);
  const errors = s?.errors ?? 0;
  return {
    streamingNoErrors: {
      description: "streaming: every echo came back whole, every exec exited 0",
      value: errors,
      pass: s !== undefined && errors === 0,
      applicable: s !== undefined,
    },
  };
}

const rg = (x: Range, unit = "") =>
  `${x.min}–${x.max}${unit ? ` ${unit}` : ""} (median ${x.median})`;

export function streamingLines(r: StreamingResult | undefined): string[] {
  if (!r) return [];
  const s = ran(r);
  if (!s) return ["", `streaming: skipped: ${(r as { skipped: string }).skipped}`];
  const g = s.ranges;
  return [
    "",
    `streaming: busybox nc -e cat in a pod (${s.podIP}:${s.port}), kubectl port-forward (${s.portForwardTransport}) vs direct TCP, ${s.repetitions.length} repetitions (ranges min–max)`,
    `  64 KiB echo p50   port-forward ${rg(g.echoP50Ms.portForward, "ms")}; direct ${rg(g.echoP50Ms.direct, "ms")}`,
    `  64 KiB echo p90   port-forward ${rg(g.echoP90Ms.portForward, "ms")}; direct ${rg(g.echoP90Ms.direct, "ms")}`,
    `                    added p50 ${rg(g.addedEchoP50Ms, "ms")}`,
    `  stream            port-forward ${rg(g.streamMiBps.portForward, "MiB/s")}; direct ${rg(g.streamMiBps.direct, "MiB/s")}; ratio ${rg(g.streamRatio)}`,
    `  exec true p50     kubectl exec ${rg(g.execP50Ms.kubectlExec, "ms")}; nsenter ${rg(g.execP50Ms.nsenter, "ms")}; kubectl version --client ${rg(g.execP50Ms.kubectlClient, "ms")}`,
    `  exec true p90     kubectl exec ${rg(g.execP90Ms.kubectlExec, "ms")}; nsenter ${rg(g.execP90Ms.nsenter, "ms")}`,
    `                    added p50 (exec − nsenter) ${rg(g.addedExecP50Ms, "ms")}`,
  ];
}

export function streamingErrors(r: StreamingResult | undefined): string[] {
  return ran(r)?.errorSamples ?? [];
}
