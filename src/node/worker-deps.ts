/** What a PodWorker needs from the agent: paths, the pod runtime, backoff, API reads, events. */
import type { KubeObject, Pod } from "../api/index.js";
import type { CrashLoopBackoff } from "./backoff.js";
import type { NodeAllocatable } from "./field-ref.js";
import type { PodRuntime } from "./pod-runtime.js";
import type { PodDirs } from "./pod-state.js";

export type ObjectKind = "ConfigMap" | "Secret" | "PersistentVolumeClaim" | "PersistentVolume";

export interface WorkerDeps {
  dirs: PodDirs;
  runtime: PodRuntime;
  backoff: CrashLoopBackoff;
  hostIP: string;
  /** The cluster domain of the pods' FQDN in /etc/hosts (default cluster.local). */
  clusterDomain?: string;
  node: NodeAllocatable;
  /** Reads an object (namespace omitted for PersistentVolumes); undefined when it does not exist. */
  read(
    kind: ObjectKind,
    name: string,
    namespace: string | undefined,
  ): Promise<KubeObject | undefined>;
  /** Lists the Services of a namespace (for the containers' service links). */
  services(namespace: string): Promise<KubeObject[]>;
  event(pod: Pod, type: "Normal" | "Warning", reason: string, message: string): void;
  /** Asks for another sync of the pod with this key. */
  enqueue(key: string): void;
}
