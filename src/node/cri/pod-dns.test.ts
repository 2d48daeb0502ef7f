import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Pod } from "../../api/index.js";
import { parseResolvConf } from "../dns/resolv-conf.js";
import { podSandboxConfig, sandboxHostname } from "./pod-config.js";
import { podDnsConfig } from "./pod-dns.js";

const host = parseResolvConf(
  "# host\nnameserver 10.255.255.53\nnameserver 127.0.0.53\nsearch corp.example lab.example.\noptions edns0 timeout:2\n",
);
const settings = { clusterDNS: ["10.96.0.10"], clusterDomain: "cluster.local", host };

const pod = (spec: Partial<Pod["spec"]> = {}): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web-0", namespace: "shop", uid: "u1" },
  spec: { containers: [{ name: "app", image: "busybox" }], ...spec },
});

describe("podDnsConfig", () => {
  test("ClusterFirst (and unset): the cluster DNS, the cluster's searches then the host's, ndots:5", () => {
    for (const dnsPolicy of [undefined, "ClusterFirst"])
      assert.deepEqual(podDnsConfig(pod(dnsPolicy ? { dnsPolicy } : {}), settings), {
        servers: ["10.96.0.10"],
        searches: [
          "shop.svc.cluster.local",
          "svc.cluster.local",
          "cluster.local",
          "corp.example",
          "lab.example",
        ],
        options: ["ndots:5"],
      });
  });

  test("Default, and ClusterFirst on the host's network: the host's resolv.conf", () => {
    const hostDns = { servers: host.nameservers, searches: host.searches, options: host.options };
    assert.deepEqual(podDnsConfig(pod({ dnsPolicy: "Default" }), settings), hostDns);
    assert.deepEqual(podDnsConfig(pod({ hostNetwork: true }), settings), hostDns);
    assert.deepEqual(
      podDnsConfig(pod({ hostNetwork: true, dnsPolicy: "ClusterFirstWithHostNet" }), settings)
        .servers,
      ["10.96.0.10"],
    );
  });

  test("ClusterFirst without a cluster DNS address: the host's resolv.conf, as the kubelet's", () => {
    assert.deepEqual(podDnsConfig(pod(), { ...settings, clusterDNS: [] }), {
      servers: host.nameservers,
      searches: host.searches,
      options: host.options,
    });
  });

  test("None: only dnsConfig; dnsConfig is appended and its options win by name", () => {
    const dnsConfig = {
      nameservers: ["1.1.1.1"],
      searches: ["extra.example"],
      options: [{ name: "ndots", value: "2" }, { name: "edns0" }],
    };
    assert.deepEqual(podDnsConfig(pod({ dnsPolicy: "None", dnsConfig }), settings), {
      servers: ["1.1.1.1"],
      searches: ["extra.example"],
      options: ["ndots:2", "edns0"],
    });
    const merged = podDnsConfig(
      pod({ dnsConfig: { ...dnsConfig, nameservers: ["10.96.0.10", "1.1.1.1"] } }),
      settings,
    );
    assert.deepEqual(merged.servers, ["10.96.0.10", "1.1.1.1"]);
    assert.equal(merged.searches.at(-1), "extra.example");
    assert.deepEqual(merged.options, ["ndots:2", "edns0"]);
  });

  test("the kubelet's limits: 3 nameservers, 32 search paths, 2048 characters, with a warning", () => {
    const many = podDnsConfig(
      pod({ dnsConfig: { nameservers: ["1.1.1.1", "8.8.8.8", "9.9.9.9"] } }),
      settings,
    );
    assert.deepEqual(many.servers, ["10.96.0.10", "1.1.1.1", "8.8.8.8"]);
    assert.match(
      many.warning ?? "",
      /Nameserver limits were exceeded.*: 10\.96\.0\.10 1\.1\.1\.1 8\.8\.8\.8/,
    );
    const searches = Array.from({ length: 40 }, (_, i) => `s${i}.example`);
    const cut = podDnsConfig(
      pod({ dnsPolicy: "None", dnsConfig: { nameservers: ["1.1.1.1"], searches } }),
      settings,
    );
    assert.equal(cut.searches.length, 32);
    assert.match(cut.warning ?? "", /Search Line limits were exceeded/);
    const long = Array.from({ length: 20 }, (_, i) => `${"a".repeat(120)}.s${i}`);
    const chars = podDnsConfig(
      pod({ dnsPolicy: "None", dnsConfig: { nameservers: ["1.1.1.1"], searches: long } }),
      settings,
    );
    assert.ok(chars.searches.join(" ").length <= 2048);
    assert.equal(chars.searches.length, 16);
    assert.equal(podDnsConfig(pod(), settings).warning, undefined);
  });

  test("the sandbox gets it, and the FQDN hostname uses the configured domain", () => {
    const p = pod({ hostname: "db", subdomain: "dbs", setHostnameAsFQDN: true });
    const dns = podDnsConfig(p, { ...settings, clusterDomain: "hearth.internal" });
    const config = podSandboxConfig(p, {
      logDirectory: "/logs",
      dns,
      clusterDomain: "hearth.internal",
    });
    assert.equal(config.hostname, "db.dbs.shop.svc.hearth.internal");
    assert.deepEqual(config.dnsConfig?.servers, ["10.96.0.10"]);
    assert.equal(config.dnsConfig?.searches?.[0], "shop.svc.hearth.internal");
    assert.equal(sandboxHostname(p), "db.dbs.shop.svc.cluster.local");
  });
});

describe("parseResolvConf", () => {
  test("nameservers, the last search line, options; comments and a lone dot dropped", () => {
    assert.deepEqual(host, {
      nameservers: ["10.255.255.53", "127.0.0.53"],
      searches: ["corp.example", "lab.example"],
      options: ["edns0", "timeout:2"],
    });
    assert.deepEqual(parseResolvConf("search a b\nsearch c .\n; x\n").searches, ["c"]);
    assert.deepEqual(parseResolvConf(""), { nameservers: [], searches: [], options: [] });
  });
});
