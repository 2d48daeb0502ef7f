#!/usr/bin/env node
/** The `hearth` executable: picks a command and runs it. */
import { apiserver, controllers, doctor, etcdDefrag, images, node, up } from "../cli/index.js";
import { errorText } from "../client/index.js";
import { DEFAULT_CRI_POD_CIDR } from "../node/index.js";

const USAGE = `usage: hearth <command> [flags]

commands:
  up [--data-dir DIR] [--port N] [--host ADDR]   run the platform (defaults ./.hearth, 6443)
     [--pod-cidr CIDR] [--node-name NAME] [--node-ip ADDR] [--keep-workloads] [--no-node-agent]
     [--containerd-socket PATH]                  (see "container runtime" below)
     [--insecure-registry HOST[,HOST…]]
     [--etcd-servers URL[,URL…] --etcd-prefix P --etcd-cafile F --etcd-certfile F --etcd-keyfile F]
  apiserver --etcd-servers URL[,URL…]            only the API server, on etcd (same etcd flags;
     [--data-dir DIR] [--port N] [--host ADDR]    several may share one etcd and one DIR/pki)
  node --kubeconfig FILE [--data-dir DIR]        run a node agent against an apiserver
     [--node-name NAME] [--node-ip ADDR] [--pod-cidr CIDR] [--keep-workloads]
     [--containerd-socket PATH] [--insecure-registry HOST[,HOST…]]
     [--client-ca-file FILE]                     the CA of the apiserver's client certificate to
                                                 its node API (default: the kubeconfig's CA)
  controllers --kubeconfig FILE                  the core controllers and scheduler against an apiserver
     [--leader-elect=false] [--leader-elect-lease-duration 15s] [--leader-elect-renew-deadline 10s]
     [--leader-elect-retry-period 2s] [--node-monitor-grace-period 40s]
  etcd-defrag --endpoints URL[,URL…]             defragment etcd members a CEL rule matches
     [--cacert F --cert F --key F] [--cluster] [--defrag-rule EXPR] [--compaction]
     [--etcd-storage-quota-bytes N] [--dry-run]
  doctor [--kubeconfig FILE | --data-dir DIR]   list deletions waiting longer than --threshold (60s):
     [--threshold DURATION] [--namespace NS]     what holds each, who owns it, the next step; exits 0
     [-o json]                                   when nothing is stuck, 1 when something is, 2 on errors
  images build [--only NAME[,NAME…]] [--refresh]  build Hearth's OCI images from Debian packages
     [--cache DIR]                                 and hearth from this checkout ($HEARTH_IMAGE_CACHE)
  images serve [--data-dir DIR] [--port N]       the local registry (DIR/registry) with them published

container runtime (up, node):
  pods are containers through CRI (--runtime cri may be given; there is no other runtime)
  (by default)           as root, Hearth runs its own containerd under
                         DIR/containerd, the local registry (DIR/registry) with the built images
                         as a mirror of docker.io and registry.k8s.io, and a CNI bridge for the
                         pod CIDR (--pod-cidr, default ${DEFAULT_CRI_POD_CIDR}; give each Hearth its own)
  --insecure-registry H  with its own containerd: registries (HOST[:PORT], comma-separated) that its
                         containerd pulls from over plain HTTP; https://HOST[:PORT] for TLS
                         without verifying the certificate
  --containerd-socket P  use the containerd already serving CRI on P;
                         Hearth starts none and writes no configuration: that containerd needs
                         its CRI plugin enabled, a CNI network for the node's pod CIDR, its
                         sandbox image pullable, and registry mirrors for offline images
  --no-node-agent        (up) the API and the platform without pods: needs neither root nor containerd
  --node-ip ADDR         the Node's InternalIP (default 127.0.0.1): its log endpoint listens
                         there, and every other node routes this node's pod
                         CIDR to it (and it theirs to them); \`up\` adds it to a new serving
                         certificate, and --host ADDR is where \`up\` serves the API

cluster DNS (up, node; see docs/dns.md):
  --cluster-domain D     the cluster's DNS domain (default cluster.local); every node's must be up's
  --resolv-conf FILE     the host resolver configuration (default /etc/resolv.conf): pods with
                         dnsPolicy Default get it, and \`up\`'s DNS server forwards other names to
                         its nameservers
`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "up":
      return up(rest);
    case "apiserver":
      return apiserver(rest);
    case "node":
      return node(rest);
    case "controllers":
      return controllers(rest);
    case "etcd-defrag":
      return etcdDefrag(rest);
    case "images":
      return images(rest);
    case "doctor":
      process.exitCode = await doctor(rest);
      return;
    case undefined:
    case "help":
    case "--help":
      process.stdout.write(USAGE);
      return;
    default:
      process.stderr.write(`hearth: unknown command ${JSON.stringify(command)}\n${USAGE}`);
      process.exit(2);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`hearth: ${errorText(err)}\n`);
  process.exit(1);
});
