/**
 * What a start of a container needs of the agent: the pod's hostname, the
 * kubelet-managed `/etc/hosts` (the runtime writes `/etc/hostname`), and
 * recording the next run of a container in the pod's state before it starts (attempt n+1, restartCount+1, the run before kept as
 * `previous`), so that an agent that dies in between leaves a record the next
 * one can make sense of.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Container, Pod } from "../api/index.js";
import { rfc3339 } from "../api/index.js";
import type { Mount } from "./mount.js";
import type { PodDirs, PodState, RunRecord } from "./pod-state.js";

/** The pod's hostname: `spec.hostname`, else its name (at most 63 characters). */
export function podHostname(pod: Pod): string {
  return pod.spec.hostname || (pod.metadata.name ?? "").slice(0, 63).replace(/[-.]+$/, "");
}

/** Writes the pod's `/etc/hosts` (kubelet's managed file); returns its bind. */
export function writeEtcFiles(dirs: PodDirs, pod: Pod, podIP: string): Mount[] {
  const uid = pod.metadata.uid!;
  const host = podHostname(pod);
  const fqdn = pod.spec.subdomain
    ? `${host}.${pod.spec.subdomain}.${pod.metadata.namespace}.svc.cluster.local\t${host}`
    : host;
  const hosts = `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n${podIP}\t${fqdn}\n`;
  const files: [string, string][] = [["hosts", hosts]];
  return files.map(([name, text]) => {
    const file = dirs.etc(uid, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return { source: file, target: `/etc/${name}`, readOnly: true };
  });
}

/** Records the next run of `c` as the container's current one; returns it. */
export function recordRun(state: PodState, c: Container): RunRecord {
  const rec = state.containers[c.name];
  const previous = rec?.current;
  const attempt = previous ? previous.attempt + 1 : 0;
  const current: RunRecord = { attempt, startedAt: rfc3339() };
  state.containers[c.name] = {
    restartCount: previous ? (rec?.restartCount ?? 0) + 1 : 0,
    current,
    ...(previous ? { previous } : {}),
  };
  return current;
}
