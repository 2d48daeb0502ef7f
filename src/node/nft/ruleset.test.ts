import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyScript } from "./nft.js";
import { renderRuleset } from "./ruleset.js";
import type { EndpointSliceObject, NodeFacts, ServiceObject } from "./types.js";

const FACTS: NodeFacts = {
  nodeIPs: ["192.0.2.10"],
  podCIDR: "10.244.0.0/24",
  serviceCIDR: "10.96.0.0/16",
  nodeName: "node-a",
};
const isRoot = process.getuid?.() === 0;

const svc = (name: string, spec: ServiceObject["spec"], namespace = "default"): ServiceObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { namespace, name },
  spec,
});

interface Ep {
  ip: string;
  ready?: boolean;
  node?: string;
}
const slice = (
  service: string,
  ports: { name?: string; port: number; protocol?: string }[],
  eps: Ep[],
  name = `${service}-abcde`,
): EndpointSliceObject => ({
  apiVersion: "discovery.k8s.io/v1",
  kind: "EndpointSlice",
  metadata: { namespace: "default", name, labels: { "kubernetes.io/service-name": service } },
  addressType: "IPv4",
  ports,
  endpoints: eps.map((e) => ({
    addresses: [e.ip],
    ...(e.ready !== undefined ? { conditions: { ready: e.ready } } : {}),
    ...(e.node ? { nodeName: e.node } : {}),
  })),
});

const web = svc("web", { clusterIP: "10.96.0.10", ports: [{ name: "http", port: 80 }] });
const webSlice = slice(
  "web",
  [{ name: "http", port: 8080 }],
  [{ ip: "10.244.0.3" }, { ip: "10.244.0.2", ready: true }, { ip: "10.244.0.4" }],
);

const lines = (text: string) => text.split("\n");
/** The rules of `chain`, without the `add rule ip <table> <chain> ` prefix. */
const rulesOf = (text: string, chain: string) =>
  lines(text)
    .filter((l) => l.startsWith(`add rule ip t ${chain} `))
    .map((l) => l.slice(`add rule ip t ${chain} `.length));
/** The elements of a set or map, in one string. */
const elementsOf = (text: string, set: string) =>
  lines(text)
    .find((l) => l.startsWith(`add element ip t ${set} `))
    ?.slice(`add element ip t ${set} `.length) ?? "";
/** The chain the `services` map sends `key` to. */
const serviceChain = (text: string, key: string) =>
  new RegExp(`${key.replaceAll(".", "\\.")} : goto ([a-z0-9-]+)`).exec(
    elementsOf(text, "services"),
  )?.[1];

/** Validates `text` with the kernel (`nft -c`), as root only. */
async function check(text: string): Promise<void> {
  if (isRoot) await applyScript(text, { check: true });
}

describe("nftables Service ruleset", () => {
  it("keeps the pods' forwarded traffic on their bridge: nothing routed off the machine", async () => {
    const { text } = renderRuleset("t", [web], [webSlice], { ...FACTS, podBridge: "hth0a1b2c3d" });
    assert.deepEqual(rulesOf(text, "filter-forward").slice(0, 4), [
      'ip saddr 10.244.0.0/24 oifname != "hth0a1b2c3d" ip daddr != @routed-cidrs counter drop',
      'ip daddr 10.244.0.0/24 iifname != "hth0a1b2c3d" ip saddr != @routed-cidrs counter drop',
      "ip saddr 10.244.0.0/24 ct state invalid counter drop",
      "ip daddr 10.244.0.0/24 ct state invalid counter drop",
    ]);
    assert.equal(elementsOf(text, "routed-cidrs"), "", "no other node: nothing is let through");
    assert.equal(
      rulesOf(renderRuleset("t", [web], [webSlice], FACTS).text, "filter-forward").length,
      2,
    );
    assert.throws(
      () => renderRuleset("t", [], [], { ...FACTS, podBridge: 'x" accept; #' }),
      /invalid bridge name/,
    );
    await check(text);
  });

  it("lets pod traffic through to and from the other nodes' pod CIDRs only, in the same script", async () => {
    const facts = {
      ...FACTS,
      podBridge: "hth0a1b2c3d",
      routedCIDRs: ["10.245.0.0/24", "10.246.0.0/16", "bad; drop"],
    };
    const { text, skipped } = renderRuleset("t", [web], [webSlice], facts);
    assert.ok(
      lines(text).includes("add set ip t routed-cidrs { type ipv4_addr; flags interval; }"),
      text,
    );
    assert.ok(lines(text).includes("flush set ip t routed-cidrs"), "rebuilt whole each time");
    assert.equal(elementsOf(text, "routed-cidrs"), "{ 10.245.0.0/24, 10.246.0.0/16 }");
    assert.deepEqual(skipped, ['routed pod CIDR "bad; drop" is not an IPv4 network']);
    assert.deepEqual(rulesOf(text, "nat-postrouting").slice(1), [
      "fib saddr type local ip daddr @routed-cidrs ct status dnat masquerade",
    ]);
    assert.equal(
      text.match(/masquerade/g)?.length,
      2,
      "pod traffic is not masqueraded: only hairpin, and the host's DNATed to another node",
    );
    await check(text);
  });

  it("sends a ClusterIP to one of three ready endpoints at random, each DNATed", async () => {
    const { text, skipped } = renderRuleset("t", [web], [webSlice], FACTS);
    assert.deepEqual(skipped, []);
    const chain = serviceChain(text, "10.96.0.10 . tcp . 80");
    assert.ok(chain?.startsWith("svc-"), text);
    const [pick, ...rest] = rulesOf(text, chain ?? "");
    assert.deepEqual(rest, []);
    const m =
      /^numgen random mod 3 vmap \{ 0 : goto (\S+), 1 : goto (\S+), 2 : goto (\S+) \}$/.exec(
        pick ?? "",
      );
    assert.ok(m, pick);
    assert.deepEqual(
      m.slice(1).map((ep) => rulesOf(text, ep)),
      [
        ["meta l4proto tcp dnat to 10.244.0.2:8080"],
        ["meta l4proto tcp dnat to 10.244.0.3:8080"],
        ["meta l4proto tcp dnat to 10.244.0.4:8080"],
      ],
    );
    assert.match(elementsOf(text, "cluster-ips"), /10\.96\.0\.10/);
    assert.equal(
      elementsOf(text, "hairpin"),
      "{ 10.244.0.2 . 10.244.0.2, 10.244.0.3 . 10.244.0.3, 10.244.0.4 . 10.244.0.4 }",
    );
    await check(text);
  });

  it("writes the hooks: DNAT from pods and from the host, masquerade only for hairpin in the pod CIDR", () => {
    const { text } = renderRuleset("t", [web], [webSlice], FACTS);
    assert.ok(text.startsWith("add table ip t "));
    assert.match(
      text,
      /add chain ip t nat-prerouting \{ type nat hook prerouting priority dstnat;/,
    );
    assert.match(text, /add chain ip t nat-output \{ type nat hook output priority -100;/);
    assert.match(
      text,
      /add chain ip t nat-postrouting \{ type nat hook postrouting priority srcnat;/,
    );
    assert.deepEqual(rulesOf(text, "nat-prerouting"), ["jump host-ports", "jump services"]);
    assert.deepEqual(rulesOf(text, "nat-output"), ["jump host-ports", "jump services"]);
    assert.deepEqual(rulesOf(text, "nat-postrouting"), [
      "ip saddr 10.244.0.0/24 ip daddr 10.244.0.0/24 ct status dnat ip saddr . ip daddr @hairpin masquerade",
    ]);
    assert.equal(text.match(/masquerade/g)?.length, 1, "no other masquerade");
    assert.ok(!/delete table/.test(text), "rebuilds in place, keeping affinity sets");
    assert.ok(text.indexOf("flush table ip t") < text.indexOf("add rule"), "flushes before rules");
  });

  it("takes a named targetPort's number per slice from the slice port of the service port's name", async () => {
    const s = svc("named", {
      clusterIP: "10.96.0.20",
      ports: [
        { name: "http", port: 80 },
        { name: "metrics", port: 9100 },
      ],
    });
    const slices = [
      slice(
        "named",
        [
          { name: "http", port: 8080 },
          { name: "metrics", port: 9090 },
        ],
        [{ ip: "10.244.0.5" }],
        "a",
      ),
      slice("named", [{ name: "http", port: 8081 }], [{ ip: "10.244.0.6" }], "b"),
    ];
    const { text } = renderRuleset("t", [s], slices, FACTS);
    const http = serviceChain(text, "10.96.0.20 . tcp . 80") ?? "";
    const metrics = serviceChain(text, "10.96.0.20 . tcp . 9100") ?? "";
    const dnats = (chain: string) =>
      [...(rulesOf(text, chain)[0] ?? "").matchAll(/goto (\S+?)[,\s]/g)].flatMap((m) =>
        rulesOf(text, m[1] ?? ""),
      );
    assert.deepEqual(dnats(http), [
      "meta l4proto tcp dnat to 10.244.0.5:8080",
      "meta l4proto tcp dnat to 10.244.0.6:8081",
    ]);
    assert.deepEqual(dnats(metrics), ["meta l4proto tcp dnat to 10.244.0.5:9090"]);
    await check(text);
  });

  it("rejects a Service with no ready endpoint, and excludes not-ready endpoints", async () => {
    const none = svc("none", { clusterIP: "10.96.0.30", ports: [{ port: 80 }] });
    const down = svc("down", { clusterIP: "10.96.0.31", ports: [{ port: 80 }] });
    const slices = [
      slice(
        "down",
        [{ port: 80 }],
        [
          { ip: "10.244.0.7", ready: false },
          { ip: "10.244.0.8", ready: false },
        ],
      ),
      slice(
        "web",
        [{ name: "http", port: 8080 }],
        [{ ip: "10.244.0.2" }, { ip: "10.244.0.9", ready: false }],
      ),
    ];
    const { text } = renderRuleset("t", [none, down, web], slices, FACTS);
    assert.equal(
      elementsOf(text, "no-endpoint-services"),
      "{ 10.96.0.31 . tcp . 80 : goto reject-chain, 10.96.0.30 . tcp . 80 : goto reject-chain }",
    );
    assert.doesNotMatch(elementsOf(text, "services"), /10\.96\.0\.3[01]/);
    assert.doesNotMatch(text, /10\.244\.0\.[789]/);
    assert.deepEqual(rulesOf(text, "reject-chain"), [
      "meta l4proto tcp reject with tcp reset",
      "reject with icmp type port-unreachable",
    ]);
    assert.deepEqual(rulesOf(text, "filter-output"), ["ct state new jump endpoints-check"]);
    assert.deepEqual(rulesOf(text, "cluster-ips-check"), [
      "ip daddr @cluster-ips goto reject-chain",
      "ip daddr 10.96.0.0/16 drop",
    ]);
    await check(text);
  });

  it("keeps a ClientIP client on its endpoint: a lookup before numgen, an update in the endpoint chain", async () => {
    const s = svc("sticky", {
      clusterIP: "10.96.0.40",
      ports: [{ port: 80 }],
      sessionAffinity: "ClientIP",
      sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
    });
    const slices = [
      slice("sticky", [{ port: 8080 }], [{ ip: "10.244.0.2" }, { ip: "10.244.0.3" }]),
    ];
    const { text } = renderRuleset("t", [s], slices, FACTS);
    const rules = rulesOf(text, serviceChain(text, "10.96.0.40 . tcp . 80") ?? "");
    assert.equal(rules.length, 3);
    const sets = rules.slice(0, 2).map((r) => {
      const m = /^ip saddr @(aff-[0-9a-f]+) goto (ep-[0-9a-f]+)$/.exec(r);
      assert.ok(m, r);
      assert.deepEqual(rulesOf(text, m[2] ?? "")[0], `update @${m[1]} { ip saddr }`);
      return m[1];
    });
    assert.match(rules[2] ?? "", /^numgen random mod 2 vmap/);
    for (const set of sets)
      assert.ok(
        text.includes(
          `add set ip t ${set} { type ipv4_addr; flags dynamic,timeout; timeout 600s; }`,
        ),
      );
    await check(text);
  });

  it("sends NodePorts on node IPs and local addresses to the service chain", async () => {
    const s = svc("np", {
      type: "NodePort",
      clusterIP: "10.96.0.50",
      ports: [{ port: 80, nodePort: 30080 }],
    });
    const { text } = renderRuleset(
      "t",
      [s],
      [slice("np", [{ port: 8080 }], [{ ip: "10.244.0.2" }])],
      FACTS,
    );
    const chain = serviceChain(text, "10.96.0.50 . tcp . 80");
    assert.equal(elementsOf(text, "node-ports"), `{ tcp . 30080 : goto ${chain} }`);
    assert.equal(elementsOf(text, "node-ips"), "{ 192.0.2.10 }");
    assert.deepEqual(rulesOf(text, "services"), [
      "ip daddr . meta l4proto . th dport vmap @services",
      "ip daddr @node-ips meta l4proto . th dport vmap @node-ports",
      "fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto . th dport vmap @node-ports",
    ]);
    const clusterOnly = renderRuleset(
      "t",
      [{ ...s, spec: { ...s.spec, type: "ClusterIP" } }],
      [],
      FACTS,
    );
    assert.equal(
      elementsOf(clusterOnly.text, "node-ports"),
      "",
      "a ClusterIP Service has no NodePort",
    );
    await check(text);
  });

  it("sends a pod's host port on local addresses, or its hostIP only, to the pod, with hairpin", async () => {
    const hostPorts = [
      {
        pod: "default/web",
        protocol: "tcp" as const,
        hostPort: 8080,
        podIP: "10.244.0.7",
        containerPort: 80,
      },
      {
        pod: "default/dns",
        hostIP: "192.0.2.10",
        protocol: "udp" as const,
        hostPort: 5353,
        podIP: "10.244.0.8",
        containerPort: 53,
      },
    ];
    const { text } = renderRuleset("t", [], [], { ...FACTS, hostPorts });
    assert.deepEqual(rulesOf(text, "host-ports"), [
      'fib daddr type local ip daddr != 127.0.0.0/8 meta l4proto tcp th dport 8080 dnat to 10.244.0.7:80 comment "default/web"',
      'ip daddr 192.0.2.10 meta l4proto udp th dport 5353 dnat to 10.244.0.8:53 comment "default/dns"',
    ]);
    assert.equal(
      elementsOf(text, "hairpin"),
      "{ 10.244.0.7 . 10.244.0.7, 10.244.0.8 . 10.244.0.8 }",
    );
    assert.deepEqual(rulesOf(renderRuleset("t", [], [], FACTS).text, "host-ports"), []);
    await check(text);
  });

  it("under externalTrafficPolicy Local, sends NodePorts to this node's endpoints only, and drops with none", async () => {
    const spec = {
      type: "NodePort",
      clusterIP: "10.96.0.60",
      externalTrafficPolicy: "Local",
      ports: [{ port: 80, nodePort: 30060 }],
    };
    const eps = [
      { ip: "10.244.0.2", node: "node-a" },
      { ip: "10.244.1.2", node: "node-b" },
    ];
    const { text } = renderRuleset(
      "t",
      [svc("loc", spec)],
      [slice("loc", [{ port: 8080 }], eps)],
      FACTS,
    );
    const ext = /tcp \. 30060 : goto (ext-[0-9a-f]+)/.exec(elementsOf(text, "node-ports"))?.[1];
    assert.ok(ext, text);
    const [pick] = rulesOf(text, ext);
    const only = /^numgen random mod 1 vmap \{ 0 : goto (ep-[0-9a-f]+) \}$/.exec(pick ?? "")?.[1];
    assert.deepEqual(rulesOf(text, only ?? ""), ["meta l4proto tcp dnat to 10.244.0.2:8080"]);
    assert.match(
      rulesOf(text, serviceChain(text, "10.96.0.60 . tcp . 80") ?? "")[0] ?? "",
      /mod 2/,
    );
    await check(text);

    const remote = renderRuleset(
      "t",
      [svc("loc", spec)],
      [slice("loc", [{ port: 8080 }], eps.slice(1))],
      FACTS,
    );
    assert.equal(elementsOf(remote.text, "no-endpoint-node-ports"), "{ tcp . 30060 : drop }");
    assert.equal(elementsOf(remote.text, "node-ports"), "");
    await check(remote.text);
  });

  it("skips invalid addresses, names and ports, and never writes them into the script", async () => {
    const hostile = [
      svc("web", { clusterIP: "10.96.0.70; flush ruleset", ports: [{ port: 80 }] }),
      svc('x" }; flush ruleset; #', { clusterIP: "10.96.0.71", ports: [{ port: 80 }] }),
      svc("ports", {
        clusterIP: "10.96.0.72",
        ports: [
          { port: 70000 },
          { port: 81, protocol: "ICMP" },
          { name: "Bad Name", port: 82 },
          { port: 83 },
        ],
      }),
      svc("loop", { clusterIP: "127.0.0.5", ports: [{ port: 80 }] }),
      svc("headless", { clusterIP: "None", ports: [{ port: 80 }] }),
    ];
    const slices = [
      slice(
        "ports",
        [{ port: 8083 }],
        [{ ip: "10.244.0.2" }, { ip: "10.244.0.300" }, { ip: "1.2.3.4 }" }],
      ),
    ];
    const { text, skipped } = renderRuleset("t", hostile, slices, {
      ...FACTS,
      nodeIPs: ["192.0.2.10", "evil; flush ruleset"],
    });
    assert.doesNotMatch(
      text,
      /flush ruleset|10\.96\.0\.7[01]|70000|ICMP|Bad Name|127\.0\.0\.5|10\.244\.0\.300|1\.2\.3\.4/,
    );
    assert.match(
      elementsOf(text, "services"),
      /^\{ 10\.96\.0\.72 \. tcp \. 83 : goto svc-[0-9a-f]+ \}$/,
    );
    assert.equal(skipped.length, 9, skipped.join("\n"));
    assert.throws(
      () => renderRuleset("t; flush ruleset", [], [], FACTS),
      /invalid nftables table name/,
    );
    assert.throws(
      () => renderRuleset("t", [], [], { ...FACTS, podCIDR: "10.0.0.0/33" }),
      /pod CIDR/,
    );
    await check(text);
  });

  it("is deterministic: the same objects in any order give the same text, with stable names", () => {
    const other = svc("other", { clusterIP: "10.96.0.80", ports: [{ port: 53, protocol: "UDP" }] });
    const otherSlice = slice("other", [{ port: 5353, protocol: "UDP" }], [{ ip: "10.244.0.9" }]);
    const a = renderRuleset("t", [web, other], [webSlice, otherSlice], FACTS).text;
    const reversed = { ...webSlice, endpoints: [...(webSlice.endpoints ?? [])].reverse() };
    const b = renderRuleset("t", [other, web], [otherSlice, reversed], FACTS).text;
    assert.equal(a, b);
    assert.match(a, /meta l4proto udp dnat to 10\.244\.0\.9:5353/);
    const renamed = renderRuleset("t", [svc("web2", web.spec)], [], FACTS).text;
    assert.notEqual(
      serviceChain(a, "10.96.0.10 . tcp . 80"),
      serviceChain(renamed, "10.96.0.10 . tcp . 80"),
    );
  });

  it("returns the service ports it wrote: a taken ClusterIP port left out, a taken NodePort dropped", () => {
    const udp = (name: string, nodePort: number, clusterIP = `10.96.0.9${nodePort % 10}`) =>
      svc(name, { type: "NodePort", clusterIP, ports: [{ port: 53, protocol: "UDP", nodePort }] });
    const { ports, skipped } = renderRuleset(
      "t",
      [udp("a", 30001), udp("b", 30001, "10.96.0.92"), udp("c", 30003, "10.96.0.91")],
      [],
      FACTS,
    );
    assert.deepEqual(
      ports.map((p) => [p.key, p.clusterIP, p.nodePort]),
      [
        ["default/a:53/udp", "10.96.0.91", 30001],
        ["default/b:53/udp", "10.96.0.92", undefined],
      ],
    );
    assert.equal(skipped.length, 2, skipped.join("\n"));
  });

  it("deletes the chains and sets the table holds that it no longer wants, keeping the rest", () => {
    const want = renderRuleset("t", [web], [webSlice], FACTS).text;
    const chain = serviceChain(want, "10.96.0.10 . tcp . 80") ?? "";
    const { text } = renderRuleset("t", [web], [webSlice], FACTS, {
      chains: ["services", chain, "svc-gone", "ep-gone"],
      sets: ["hairpin", "aff-gone"],
      maps: ["services", "old-map"],
    });
    const deletes = lines(text).filter((l) => l.startsWith("delete "));
    assert.deepEqual(deletes, [
      "delete chain ip t ep-gone",
      "delete chain ip t svc-gone",
      "delete set ip t aff-gone",
      "delete map ip t old-map",
    ]);
    assert.equal(lines(text).at(-2), "delete map ip t old-map", "deletes come after every flush");
  });
});
