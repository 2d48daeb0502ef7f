/**
 * Issue 14, Deliver 3: the nodes of one Hearth route each other's pod CIDRs.
 * Two hosts made with network namespaces, joined by a veth pair on
 * 10.250.0.0/30 that the test creates and removes: `hearth up --runtime cri`
 * in the root namespace (pod CIDR 10.248.0.0/24, serving the API on
 * 10.250.0.1) and `hearth node --runtime cri` in a namespace of its own (its
 * own data directory and containerd, pod CIDR 10.249.0.0/24, InternalIP
 * 10.250.0.2). Each node routes the other's pod CIDR via the other's
 * InternalIP and lets it through its forward rule; a busybox pod on each
 * node fetches from the stock nginx on the other (the root node's also
 * through a ClusterIP whose one endpoint is on the other node: DNATed where
 * the client is, then routed), and each nginx's access log
 * (read with `kubectl logs`, which reaches the namespaced node's log endpoint
 * on its InternalIP) shows the client pod's own address: nothing is
 * masqueraded. The root node's host reaches the other node's nginx directly
 * and through that ClusterIP (then masqueraded to its link address: its
 * source was chosen before the DNAT). A clean stop of both leaves no route, table, bridge or
 * inventory (after a `kill -9` of the namespaced node and a restart, which
 * finds its route where it was); the test then removes the veth and the
 * namespace.
 *
 * The node runs under `nsenter --net=` (test/support/namespaced-node.ts).
 * Skips unless root with containerd, nsenter and the built images.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import {
  NODE_API_CA_ANNOTATION,
  NODE_LOG_TOKEN_ANNOTATION,
  type Node,
} from "../../src/api/index.js";
import {
  bridgeName,
  containerdLayout,
  readRouteInventory,
  routeInventoryPath,
  tableNameFor,
} from "../../src/node/index.js";
import { removeLeftovers } from "../support/containerd-leftovers.js";
import { removeContainerRuntime } from "../support/cri-node.js";
import { type Hearth, startHearth, stopChild, waitFor } from "../support/hearth-process.js";
import {
  addHostPair,
  namespacedNodeSkipReason,
  ok,
  sh,
  startNamespacedNode as startNode,
} from "../support/namespaced-node.js";

const ROOT_CIDR = "10.248.0.0/24";
const NS_CIDR = "10.249.0.0/24";
// Not 10.251–254: the nft-services and nft-conntrack bridges, which may run at the same time.
const SERVICE_CIDR = "10.245.0.0/16";
const ROOT_IP = "10.250.0.1";
const NS_IP = "10.250.0.2";
const ROOT_NODE = "routing-root";
const NS_NODE = "routing-ns";

const skipReason = namespacedNodeSkipReason;

const web = (node: string) => `apiVersion: v1
kind: Pod
metadata: {name: web-${node}, labels: {app: web-${node}}}
spec:
  nodeName: ${node}
  containers: [{name: nginx, image: "nginx:1.22", ports: [{containerPort: 80}]}]
`;

/** A Service in front of the nginx on `node`. */
const service = (node: string) => `apiVersion: v1
kind: Service
metadata: {name: web-${node}}
spec:
  selector: {app: web-${node}}
  ports: [{port: 80, targetPort: 80}]
`;

/** Five fetches from each of `ips`, an "ok" for each that answered. */
const client = (node: string, ips: string[]) => `apiVersion: v1
kind: Pod
metadata: {name: client-${node}}
spec:
  nodeName: ${node}
  restartPolicy: Never
  containers:
  - name: c
    image: "busybox:1.35"
    command: [sh, -c, 'for ip in ${ips.join(" ")}; do for i in 1 2 3 4 5; do timeout 10 wget -q -O /dev/null http://$ip/ && echo ok; done; done']
`;

/** `hearth node` in the namespace; resolves once it printed its ready line. */
const startNamespacedNode = (ns: string, kubeconfig: string, dataDir: string) =>
  startNode({
    netns: ns,
    kubeconfig,
    dataDir,
    podCidr: NS_CIDR,
    serviceCidr: SERVICE_CIDR,
    nodeIp: NS_IP,
    nodeName: NS_NODE,
  });

const routeVia = (cidr: string, ns?: string) =>
  sh("ip", [...(ns ? ["-n", ns] : []), "-o", "-4", "route", "show", cidr]).trim();
const inNs = (ns: string, cmd: string, args: string[]) => ["netns", "exec", ns, cmd, ...args];
const linkExists = (name: string, ns?: string) =>
  ok("ip", [...(ns ? ["-n", ns] : []), "link", "show", "dev", name]);
const tableExistsIn = (table: string, ns?: string) =>
  ns
    ? ok("ip", inNs(ns, "nft", ["list", "table", "ip", table]))
    : ok("nft", ["list", "table", "ip", table]);

describe("pod routes between the nodes of one Hearth", { skip: skipReason() }, () => {
  test("a pod on each of two nodes (network namespaces) reaches the other's pod, unmasqueraded; a clean stop leaves nothing", async () => {
    const tmp = mkdtempSync("/tmp/hearth-crirt-");
    const rootDir = join(tmp, "root");
    const nsDir = join(tmp, "ns");
    const tag = String(process.pid % 100_000);
    const ns = `hrt-${tag}`;
    const [vethRoot, vethNs] = [`hrt${tag}a`, `hrt${tag}b`];
    let hearth: Hearth | undefined;
    let nodeChild: ChildProcess | undefined;
    try {
      addHostPair({ netns: ns, vethRoot, vethNs, rootIp: ROOT_IP, nsIp: NS_IP });

      hearth = await startHearth({
        dataDir: rootDir,
        extraArgs: [
          ...["--runtime", "cri", "--pod-cidr", ROOT_CIDR, "--service-cidr", SERVICE_CIDR],
          ...["--host", ROOT_IP, "--node-ip", ROOT_IP, "--node-name", ROOT_NODE],
        ],
        timeoutMs: 180_000,
      });
      const h = hearth;
      let node = startNamespacedNode(ns, h.kubeconfig, nsDir);
      nodeChild = node.child;
      await node.ready;

      // Each node routes the other's pod CIDR via the other's InternalIP, and lets it through.
      await waitFor(
        "the root namespace's route to the namespaced node's pods",
        () => routeVia(NS_CIDR).includes(`via ${NS_IP}`) || undefined,
        60_000,
      );
      await waitFor(
        "the namespaced node's route to the root node's pods",
        () => routeVia(ROOT_CIDR, ns).includes(`via ${ROOT_IP}`) || undefined,
        60_000,
      );
      assert.match(routeVia(NS_CIDR), /proto 77/);
      const [rootTable, nsTable] = [tableNameFor(rootDir), tableNameFor(nsDir)];
      await waitFor(
        "the routed CIDRs in both tables",
        () =>
          sh("nft", ["list", "set", "ip", rootTable, "routed-cidrs"]).includes(NS_CIDR) &&
          sh("ip", inNs(ns, "nft", ["list", "set", "ip", nsTable, "routed-cidrs"])).includes(
            ROOT_CIDR,
          ),
        60_000,
      );

      await h.kubectlOk(["apply", "-f", "-"], {
        input: `${web(ROOT_NODE)}---\n${web(NS_NODE)}`,
      });
      await h.kubectlOk(
        [
          "wait",
          "--for=condition=Ready",
          "pod",
          `web-${ROOT_NODE}`,
          `web-${NS_NODE}`,
          "--timeout=150s",
        ],
        { timeoutMs: 160_000 },
      );
      const podIP = async (name: string) =>
        h.kubectlOk(["get", "pod", name, "-o", "jsonpath={.status.podIP}"]);
      const [webRoot, webNs] = [await podIP(`web-${ROOT_NODE}`), await podIP(`web-${NS_NODE}`)];
      assert.ok(webRoot.startsWith("10.248.0."), webRoot);
      assert.ok(webNs.startsWith("10.249.0."), webNs);
      assert.equal(
        await h.kubectlOk(["get", "pod", `web-${NS_NODE}`, "-o", "jsonpath={.status.hostIP}"]),
        NS_IP,
        "the namespaced node's pods report its InternalIP as their host",
      );

      // A Service whose endpoint is on the other node: DNATed on the client's node, then routed.
      await h.kubectlOk(["apply", "-f", "-"], { input: service(NS_NODE) });
      const farService = await h.kubectlOk([
        "get",
        "service",
        `web-${NS_NODE}`,
        "-o",
        "jsonpath={.spec.clusterIP}",
      ]);
      assert.ok(farService.startsWith("10.245."), farService);
      await waitFor(
        "the root node's rules for the Service",
        () =>
          sh("nft", ["list", "map", "ip", rootTable, "services"]).includes(farService) || undefined,
        60_000,
      );
      await h.kubectlOk(["apply", "-f", "-"], {
        input: `${client(ROOT_NODE, [webNs, farService])}---\n${client(NS_NODE, [webRoot])}`,
      });
      for (const n of [ROOT_NODE, NS_NODE])
        await waitFor(
          `client-${n} done`,
          async () =>
            ["Succeeded", "Failed"].includes(
              await h.kubectlOk(["get", "pod", `client-${n}`, "-o", "jsonpath={.status.phase}"]),
            ) || undefined,
          150_000,
        );
      const clientIP = async (n: string) => podIP(`client-${n}`);
      const [clientRoot, clientNs] = [await clientIP(ROOT_NODE), await clientIP(NS_NODE)];
      for (const [n, target, fetches] of [
        [ROOT_NODE, NS_NODE, 10],
        [NS_NODE, ROOT_NODE, 5],
      ] as const) {
        const said = await h.kubectlOk(["logs", `client-${n}`]);
        assert.equal(
          said.split("\n").filter((l) => l === "ok").length,
          fetches,
          `client-${n} reached web-${target} every time: ${said}`,
        );
      }
      // Each nginx saw the other node's client pod as the source: routed, not masqueraded.
      const served = async (n: string, from: string) =>
        (await h.kubectlOk(["logs", `web-${n}`]))
          .split("\n")
          .filter((l) => l.startsWith(`${from} `) && l.includes('"GET / HTTP/1.1" 200')).length;
      assert.equal(
        await served(NS_NODE, clientRoot),
        10,
        `web-${NS_NODE} saw ${clientRoot}, directly and through its Service`,
      );
      assert.equal(await served(ROOT_NODE, clientNs), 5, `web-${ROOT_NODE} saw ${clientNs}`);
      // The hearth node's API is HTTPS too, under a CA of its own that its Node publishes
      // (no bearer token): the apiserver reaches it for logs (above) and exec.
      const nsNode = JSON.parse(await h.kubectlOk(["get", "node", NS_NODE, "-o", "json"])) as Node;
      assert.equal(nsNode.metadata.annotations?.[NODE_LOG_TOKEN_ANNOTATION], "");
      assert.match(
        nsNode.metadata.annotations?.[NODE_API_CA_ANNOTATION] ?? "",
        /BEGIN CERTIFICATE/,
      );
      assert.equal(
        (await h.kubectlOk(["exec", `web-${NS_NODE}`, "--", "cat", "/etc/hostname"])).trim(),
        `web-${NS_NODE}`,
      );
      // The root node's host reaches the other node's pod from its InternalIP (in the other
      // node's routed set with its pod CIDR), as every kube node reaches every pod.
      const res = await fetch(`http://${webNs}/`, { signal: AbortSignal.timeout(10_000) });
      await res.text();
      assert.equal(res.status, 200, `the root host reached http://${webNs}/`);
      assert.equal(await served(NS_NODE, ROOT_IP), 1, `web-${NS_NODE} saw the root node's address`);
      // And through the ClusterIP whose endpoint is there: the host chose its source before the
      // DNAT, so the connection leaves masqueraded to its address on the link to that node.
      const viaService = await fetch(`http://${farService}/`, {
        signal: AbortSignal.timeout(10_000),
      });
      await viaService.text();
      assert.equal(viaService.status, 200, `the root host reached http://${farService}/`);
      assert.equal(
        await served(NS_NODE, ROOT_IP),
        2,
        "the ClusterIP's request came from the link address",
      );

      // The routes come from Nodes, which only the platform writes: not a tenant's
      // super-admins, nor a tenant's service accounts.
      for (const who of [
        ["--as=alice", "--as-group=tenant-root-super-admin"],
        ["--as=system:serviceaccount:tenant-root:default"],
      ])
        for (const verb of ["create", "update", "patch"])
          for (const sub of [[], ["--subresource=status"]]) {
            const r = await h.kubectl(["auth", "can-i", verb, "nodes", ...sub, ...who]);
            assert.equal(r.stdout.trim(), "no", `${who.join(" ")} may not ${verb} nodes ${sub}`);
          }

      // kill -9 of the namespaced node: its route stays (its pods stay reachable), and
      // the next start on its directory takes it over from its inventory.
      node.child.kill("SIGKILL");
      await stopChild(node.child, 10_000);
      assert.match(routeVia(ROOT_CIDR, ns), new RegExp(`via ${ROOT_IP.replaceAll(".", "\\.")}`));
      assert.deepEqual(readRouteInventory(routeInventoryPath(nsDir)), [
        { cidr: ROOT_CIDR, via: ROOT_IP },
      ]);
      node = startNamespacedNode(ns, h.kubeconfig, nsDir);
      nodeChild = node.child;
      await node.ready;
      await h.kubectlOk(
        ["wait", "--for=condition=Ready", "pod", `web-${NS_NODE}`, "--timeout=60s"],
        {
          timeoutMs: 70_000,
        },
      );
      assert.match(routeVia(ROOT_CIDR, ns), /proto 77/);

      // A clean stop of the namespaced node: its route, table, bridge and inventory go.
      assert.equal(
        await stopChild(node.child, 90_000),
        0,
        `hearth node stopped cleanly: ${node.stderr()}`,
      );
      assert.equal(routeVia(ROOT_CIDR, ns), "", "no route left in the namespace");
      assert.equal(tableExistsIn(nsTable, ns), false, "no nftables table left in the namespace");
      assert.equal(linkExists(bridgeName(nsDir), ns), false, "no bridge left in the namespace");
      assert.equal(existsSync(routeInventoryPath(nsDir)), false);

      assert.equal(await h.stop(), 0, "hearth up stopped cleanly");
      assert.equal(routeVia(NS_CIDR), "", "no route left in the root namespace");
      assert.equal(tableExistsIn(rootTable), false, "no nftables table left");
      assert.equal(linkExists(bridgeName(rootDir)), false, "no bridge left");
      assert.equal(existsSync(routeInventoryPath(rootDir)), false);
    } finally {
      if (nodeChild) await stopChild(nodeChild, 5_000);
      await removeContainerRuntime(nsDir);
      await hearth?.cleanup();
      for (const d of [rootDir, nsDir]) {
        const layout = containerdLayout(d);
        removeLeftovers(d, [layout.config, layout.socket, join(d, "registry", "config.yml")]);
      }
      // The veth goes with its end in the root namespace; the routes via it with it.
      if (linkExists(vethRoot)) sh("ip", ["link", "del", vethRoot]);
      if (ok("ip", ["netns", "pids", ns])) sh("ip", ["netns", "del", ns]);
      if (linkExists(bridgeName(rootDir))) sh("ip", ["link", "del", bridgeName(rootDir)]);
      rmSync(tmp, { recursive: true, force: true });
    }
    assert.equal(linkExists(vethRoot), false, "the veth is gone");
    assert.ok(
      !sh("ip", ["netns", "list"])
        .split("\n")
        .some((l) => l.split(" ")[0] === ns),
    );
  });
});
