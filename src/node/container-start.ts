/**
 * What a start of a container needs of the agent: the pod's hostname, the
 * kubelet-managed `/etc/hosts` (the runtime writes `/etc/hostname`), and
 * recording the next run of a container in the pod's state before it starts (attempt n+1, restartCount+1, the run before kept as
 * `previous`), so that an agent that dies in between leaves a record the next
 * one can make sense of.
 */

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Container, Pod } from "../api/index.js";
import { rfc3339 } from "../api/index.js";
import type { Mount } from "./mount.js";
import type { PodDirs, PodState, RunRecord } from "./pod-state.js";

/** The pod's hostname: `spec.hostname`, else its name (at most 63 characters). */
export function podHostname(pod: Pod): string {
  return pod.spec.hostname || (pod.metadata.name ?? "").slice(0, 63).replace(/[-.]+$/, "");
}

type HostAliases = { ip?: string; hostnames?: string[] }[];

/** kubelet's hostsEntriesFromHostAliases: a header, then one line per alias. */
function aliasLines(aliases: HostAliases | undefined): string {
  const lines = (aliases ?? [])
    .filter((a) => a.ip && a.hostnames?.length)
    .map((a) => `${a.ip}\t${a.hostnames!.join("\t")}\n`);
  return lines.length ? `\n# Entries added by HostAliases.\n${lines.join("")}` : "";
}

/**
 * The kubelet's managed `/etc/hosts` (managedHostsFileContent): localhost and
 * the IPv6 names, then the pod's address with its FQDN
 * (`<hostname>.<subdomain>.<ns>.svc.<domain>`) and hostname when it has a
 * subdomain, else its hostname; then its hostAliases. A pod on the host's
 * network gets the host's file (and its aliases), as the kubelet gives it.
 */
export function hostsFile(
  pod: Pod,
  podIP: string,
  clusterDomain: string,
  hostFile = "/etc/hosts",
): string {
  const aliases = aliasLines((pod.spec as { hostAliases?: HostAliases }).hostAliases);
  if (pod.spec.hostNetwork) {
    let host = "";
    try {
      host = readFileSync(hostFile, "utf8");
    } catch {}
    return `${host}${aliases}`;
  }
  const host = podHostname(pod);
  const named = pod.spec.subdomain
    ? `${host}.${pod.spec.subdomain}.${pod.metadata.namespace}.svc.${clusterDomain}\t${host}`
    : host;
  return (
    "# Kubernetes-managed hosts file.\n" +
    "127.0.0.1\tlocalhost\n" +
    "::1\tlocalhost ip6-localhost ip6-loopback\n" +
    "fe00::0\tip6-localnet\n" +
    "fe00::0\tip6-mcastprefix\n" +
    "fe00::1\tip6-allnodes\n" +
    "fe00::2\tip6-allrouters\n" +
    `${podIP}\t${named}\n${aliases}`
  );
}

/** Writes the pod's `/etc/hosts` (hostsFile); returns its bind. */
export function writeEtcFiles(
  dirs: PodDirs,
  pod: Pod,
  podIP: string,
  clusterDomain = "cluster.local",
): Mount[] {
  const uid = pod.metadata.uid!;
  const hosts = hostsFile(pod, podIP, clusterDomain);
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
