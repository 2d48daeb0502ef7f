/**
 * The ReplicaSet controller's writes to pods (kube's PodControl and
 * PodControllerRefManager): pods from the template named `<rs>-<random>` with
 * a controller reference, created in slow-start batches (1, 2, 4, … stopping
 * at the first batch with a failure); deletion; and adoption and release by
 * strategic-merge patches of `ownerReferences` (merge key `uid`). Each write
 * records the Event kube records (`SuccessfulCreate`, `FailedCreate`,
 * `SuccessfulDelete`, `FailedDelete`).
 */
import { hasCode, type Pod, type ReplicaSet } from "../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  ignoreNotFound,
  refOf,
} from "../../client/index.js";
import { controllerRefTo } from "./pod-state.js";

/** kube's BurstReplicas: the most pods one sync creates or deletes. */
export const BURST_REPLICAS = 500;

/** GetPodFromTemplate: the template's labels, annotations, finalizers and spec. */
export function podFromTemplate(rs: ReplicaSet): Pod {
  const tmpl = rs.spec.template ?? {};
  const meta = tmpl.metadata ?? {};
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: `${rs.metadata.name}-`,
      namespace: rs.metadata.namespace,
      labels: { ...(meta.labels ?? {}) },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [controllerRefTo("ReplicaSet", rs)],
    },
    spec: structuredClone(tmpl.spec ?? {}) as unknown as Pod["spec"],
  };
}

/** The namespace is going away: a refused create is no failure worth an Event. */
const namespaceTerminating = (e: unknown) =>
  hasCode(e, 403) && String(e).includes("being terminated");

export class ReplicaSetPodControl {
  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
  ) {}

  /** Creates `count` pods in slow-start batches; resolves to the first error, if any. */
  async create(rs: ReplicaSet, count: number): Promise<unknown> {
    let created = 0;
    for (let batch = 1; created < count; batch *= 2) {
      const n = Math.min(batch, count - created);
      const results = await Promise.allSettled(
        Array.from({ length: n }, () => this.client.create(podFromTemplate(rs))),
      );
      let error: unknown;
      for (const r of results) {
        if (r.status === "fulfilled") {
          const name = r.value.metadata.name;
          this.recorder.event(rs, "Normal", "SuccessfulCreate", `Created pod: ${name}`);
        } else {
          error ??= r.reason;
          if (!namespaceTerminating(r.reason))
            this.recorder.event(
              rs,
              "Warning",
              "FailedCreate",
              `Error creating: ${errorText(r.reason)}`,
            );
        }
      }
      if (error !== undefined) return error;
      created += n;
    }
    return undefined;
  }

  /** Deletes the pods; resolves to the first error, if any (a pod already gone is deleted). */
  async delete(rs: ReplicaSet, pods: Pod[]): Promise<unknown> {
    const results = await Promise.allSettled(
      pods.map((p) => ignoreNotFound(this.client.delete(refOf(p)))),
    );
    let error: unknown;
    results.forEach((r, i) => {
      const name = pods[i]!.metadata.name;
      if (r.status === "fulfilled") {
        if (r.value !== undefined)
          this.recorder.event(rs, "Normal", "SuccessfulDelete", `Deleted pod: ${name}`);
      } else {
        error ??= r.reason;
        this.recorder.event(
          rs,
          "Warning",
          "FailedDelete",
          `Error deleting: ${errorText(r.reason)}`,
        );
      }
    });
    return error;
  }

  /** Makes `rs` the pod's controller (kube's AdoptPod). */
  async adopt(rs: ReplicaSet, pod: Pod): Promise<Pod | undefined> {
    const patch = {
      metadata: { ownerReferences: [controllerRefTo("ReplicaSet", rs)], uid: pod.metadata.uid },
    };
    return ignoreNotFound(this.client.patch<Pod>(refOf(pod), patch, { type: "strategic" }));
  }

  /** Drops `rs`'s reference from the pod (kube's ReleasePod). */
  async release(rs: ReplicaSet, pod: Pod): Promise<void> {
    const patch = {
      metadata: {
        ownerReferences: [{ $patch: "delete", uid: rs.metadata.uid }],
        uid: pod.metadata.uid,
      },
    };
    await ignoreNotFound(this.client.patch(refOf(pod), patch, { type: "strategic" }));
  }
}
