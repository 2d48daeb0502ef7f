/**
 * The network of a test's `hearth up`: its flags and the ClusterIPs a test
 * may ask for. Each call is a network of its own, so that hearths running at
 * once (in one file or in parallel files) do not share addresses: a pod /24
 * in 10.208–211.x and a service /24 in 10.212–215.x (the same x); the
 * nftables rules of one Hearth then never see another's. Tests that need pods
 * skip where the machine cannot run containers (`podSkipReason`).
 *
 * The ranges the tests take, which e2e files running at once must not share
 * (a Hearth's table rejects unknown addresses of its service CIDR):
 * 10.200–207 the node agent's shared suites (agent-env), 10.208–215 these,
 * 10.231 cri-network, 10.232/10.234 cri-up, 10.236/10.237 cri-services,
 * 10.238/10.239 cri-side-by-side, 10.240/10.241 the container benches,
 * 10.242/10.243 cri-private-registry, 10.245 and 10.248–250 cri-routing,
 * 10.246/10.247 cri-stats, 10.251/10.252 nft-services, 10.253/10.254
 * nft-conntrack, 10.230/10.233 cri-host-ports, 10.235/10.255 dns, 10.244
 * daemonsets.
 */
import { criSkipReason } from "./cri-node.js";

export interface TestNetwork {
  podCidr: string;
  /** The `hearth up` flags: the pod CIDR and the service CIDR. */
  args: string[];
  /** A ClusterIP inside the service range, away from the lowest addresses the allocator hands out. */
  clusterIp(): string;
}

let machineSkip: string | false | undefined;

/**
 * Why pods cannot run here (not root, containerd, the CNI plugins or the
 * built images missing), or false: a test that needs pods skips with it.
 * What the machine can run does not change during a test file: asked once.
 */
export function podSkipReason(): string | false {
  machineSkip ??= criSkipReason();
  return machineSkip;
}

const random = (from: number, count: number) => from + Math.floor(Math.random() * count);

export function testNetwork(): TestNetwork {
  const n = random(0, 1024);
  const service = `10.${212 + (n >> 8)}.${n & 255}`;
  const podCidr = `10.${208 + (n >> 8)}.${n & 255}.0/24`;
  return {
    podCidr,
    args: ["--pod-cidr", podCidr, "--service-cidr", `${service}.0/24`],
    clusterIp: () => `${service}.${random(100, 150)}`,
  };
}
