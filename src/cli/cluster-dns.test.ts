import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseArgs } from "./args.js";
import { podDnsFlags, upPodDns } from "./cluster-dns.js";
import { runtimeChoice } from "./container-runtime.js";

const dir = mkdtempSync(join(tmpdir(), "hearth-cluster-dns-"));
const resolvConf = join(dir, "resolv.conf");
writeFileSync(resolvConf, "nameserver 192.0.2.53\nsearch corp.example\n");
test.after(() => rmSync(dir, { recursive: true, force: true }));

const flags = (...argv: string[]) => {
  const args = parseArgs(["--resolv-conf", resolvConf, ...argv]);
  return { args, runtime: runtimeChoice(args) };
};

test("the cluster DNS address is the tenth of the service CIDR; the domain and host file from flags", () => {
  const { args, runtime } = flags(
    "--service-cidr",
    "10.97.0.0/16",
    "--cluster-domain",
    "hearth.test",
  );
  assert.deepEqual(podDnsFlags(args, runtime), {
    clusterDNS: ["10.97.0.10"],
    clusterDomain: "hearth.test",
    host: { nameservers: ["192.0.2.53"], searches: ["corp.example"], options: [] },
  });
  assert.equal(podDnsFlags(flags().args, flags().runtime).clusterDomain, "cluster.local");
});

test("hearth up on another containerd runs no DNS server: no cluster DNS address", () => {
  const own = flags();
  assert.deepEqual(upPodDns(own.args, own.runtime).dns.clusterDNS, ["10.96.0.10"]);
  const other = flags("--containerd-socket", "/run/other.sock");
  const { dns } = upPodDns(other.args, other.runtime);
  assert.deepEqual(dns.clusterDNS, []);
});
