/**
 * The Node this agent registers: name, the usual well-known labels, the
 * pod CIDR, capacity and allocatable (cpus, memory, 110 pods), the Ready
 * condition, the InternalIP (127.0.0.1 unless given: `--node-ip`; the address
 * the apiserver reaches the log endpoint on, and other nodes route this
 * node's pod CIDR to), the kubelet endpoint port (where the
 * apiserver fetches logs) and the node info; the log token in an annotation.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import {
  NODE_API_CA_ANNOTATION,
  NODE_LOG_TOKEN_ANNOTATION,
  type Node,
  type NodeCondition,
} from "../api/index.js";

export const KUBELET_VERSION = "v1.32.0-hearth";
export const HOST_IP = "127.0.0.1";
export const MAX_PODS = 110;

function osImage(): string {
  try {
    const text = readFileSync("/etc/os-release", "utf8");
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(text)?.[1] ?? "Linux";
  } catch {
    return "Linux";
  }
}

function readId(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

export function capacity(): Record<string, string> {
  return {
    cpu: String(os.cpus().length),
    memory: `${Math.floor(os.totalmem() / 1024)}Ki`,
    pods: String(MAX_PODS),
  };
}

export interface NodeFacts {
  name: string;
  podCIDR: string;
  port: number;
  token: string;
  /** The CA of the node API's own serving certificate ("" when from the cluster CA). */
  apiCA?: string;
  /** The InternalIP (default HOST_IP). */
  internalIP?: string;
  /** `<runtime name>://<version>` as CRI reports it (the kubelet's `containerRuntimeVersion`). */
  runtimeVersion?: string;
}

export function readyConditions(now: string, old: NodeCondition[] = []): NodeCondition[] {
  const make = (
    type: string,
    status: "True" | "False",
    reason: string,
    message: string,
  ): NodeCondition => {
    const prev = old.find((c) => c.type === type);
    return {
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime:
        prev?.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : now,
    };
  };
  return [
    make(
      "MemoryPressure",
      "False",
      "KubeletHasSufficientMemory",
      "kubelet has sufficient memory available",
    ),
    make("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
    make("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
    make("Ready", "True", "KubeletReady", "hearth node agent is posting ready status"),
  ];
}

export function nodeObject(f: NodeFacts, now: string, old?: Node): Node {
  const cap = capacity();
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name: f.name,
      labels: {
        "kubernetes.io/hostname": f.name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": process.arch === "x64" ? "amd64" : process.arch,
        "beta.kubernetes.io/os": "linux",
        "beta.kubernetes.io/arch": process.arch === "x64" ? "amd64" : process.arch,
      },
      annotations: {
        [NODE_LOG_TOKEN_ANNOTATION]: f.token,
        ...(f.apiCA ? { [NODE_API_CA_ANNOTATION]: f.apiCA } : {}),
      },
    },
    spec: { podCIDR: f.podCIDR, podCIDRs: [f.podCIDR] },
    status: {
      capacity: cap,
      allocatable: cap,
      conditions: readyConditions(now, old?.status?.conditions),
      addresses: [
        { type: "InternalIP", address: f.internalIP ?? HOST_IP },
        { type: "Hostname", address: os.hostname() },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: f.port } },
      nodeInfo: {
        machineID: readId("/etc/machine-id"),
        systemUUID: readId("/sys/class/dmi/id/product_uuid"),
        bootID: readId("/proc/sys/kernel/random/boot_id"),
        kernelVersion: os.release(),
        osImage: osImage(),
        containerRuntimeVersion: f.runtimeVersion ?? "",
        kubeletVersion: KUBELET_VERSION,
        kubeProxyVersion: KUBELET_VERSION,
        operatingSystem: "linux",
        architecture: process.arch === "x64" ? "amd64" : process.arch,
      },
    },
  };
}
