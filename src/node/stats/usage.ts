/**
 * What a pod runtime measures of the containers it runs, in its own words
 * but runtime-neutral: cumulative CPU time and memory figures, each with the
 * time it was taken (nanoseconds since the epoch, as CRI stamps them). Rates
 * (`usageNanoCores`) are not measured but computed by the agent from two
 * samples (cpu-rates.ts), so every runtime gets them the same way.
 */

export interface CpuSample {
  /** When the sample was taken, ns since the epoch. */
  timeNs: number;
  /** CPU time used since the container (pod, node) started, in core-nanoseconds. */
  usageCoreNanoSeconds: number;
}

export interface MemorySample {
  timeNs: number;
  /** Usage minus the inactive file cache: what the kernel cannot take back without a fight. */
  workingSetBytes: number;
  /** The limit minus the working set; only where there is a limit. */
  availableBytes?: number;
  usageBytes?: number;
  rssBytes?: number;
  pageFaults?: number;
  majorPageFaults?: number;
}

export interface Usage {
  cpu?: CpuSample;
  memory?: MemorySample;
}

/** One running container of a pod. */
export interface ContainerUsage extends Usage {
  name: string;
  /** The runtime's id of this run: a new run is a new series for rates. */
  id: string;
  /** When the container was created, ns since the epoch (the kubelet's `startTime`). */
  startTimeNs: number;
}

/**
 * One pod with its running containers. The pod's own figures are given when
 * the runtime measures the pod as a whole (a pod cgroup); otherwise the
 * summary adds up its containers.
 */
export interface PodUsage extends Usage {
  uid: string;
  containers: ContainerUsage[];
}
