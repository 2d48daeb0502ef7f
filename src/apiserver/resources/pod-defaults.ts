/**
 * The defaults kube-apiserver gives a Pod when it is decoded (create and
 * update alike): restartPolicy Always, a 30 s grace period, the default
 * scheduler, an image pull policy, TCP ports and probe timings. Also the status
 * a new pod starts with: phase Pending and its QoS class.
 */

import type { KubeObject } from "../../api/index.js";
import {
  type Container,
  DEFAULT_TERMINATION_GRACE_SECONDS,
  type Pod,
  type Probe,
} from "../../api/index.js";

function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  if (p.httpGet) {
    p.httpGet.path ??= "/";
    p.httpGet.scheme ??= "HTTP";
  }
}

function defaultContainer(c: Container): void {
  if (c.image !== undefined && c.imagePullPolicy === undefined) {
    // kube's ParseImageName: the tag is read before any `@digest`; no tag and no digest is `latest`.
    const [named = "", digest] = c.image.split("@", 2);
    const tag = /:([^/:]+)$/.exec(named)?.[1] ?? (digest === undefined ? "latest" : undefined);
    c.imagePullPolicy = tag === "latest" ? "Always" : "IfNotPresent";
  }
  for (const p of c.ports ?? []) p.protocol ??= "TCP";
  defaultProbe(c.readinessProbe);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.startupProbe);
}

export function defaultPod(obj: KubeObject): void {
  const pod = obj as Pod;
  if (typeof pod.spec !== "object" || pod.spec === null) return;
  const spec = pod.spec;
  spec.restartPolicy ??= "Always";
  spec.terminationGracePeriodSeconds ??= DEFAULT_TERMINATION_GRACE_SECONDS;
  spec.schedulerName ??= "default-scheduler";
  spec.dnsPolicy ??= "ClusterFirst";
  spec.enableServiceLinks ??= true;
  if (spec.serviceAccount !== undefined) spec.serviceAccountName ??= spec.serviceAccount;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) defaultContainer(c);
}

/** kube's QoS class: Guaranteed when every container's requests equal its cpu and memory limits. */
export function qosClass(pod: Pod): "BestEffort" | "Burstable" | "Guaranteed" {
  const all = [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])];
  let specified = false;
  let guaranteed = true;
  for (const c of all) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) specified = true;
    for (const r of ["cpu", "memory"]) {
      const limit = limits[r];
      const request = requests[r] ?? limit;
      if (limit === undefined || String(request) !== String(limit)) guaranteed = false;
    }
  }
  if (!specified) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

/** A new pod's status: Pending, with its QoS class. */
export function initialStatus(obj: KubeObject): void {
  const pod = obj as Pod;
  if (typeof pod.spec !== "object" || pod.spec === null) return;
  pod.status = { phase: "Pending", qosClass: qosClass(pod) };
}
