/**
 * The Service rules controller on the envtest apiserver, with a stand-in for
 * `nft` that records each call (and the script it was given) instead of
 * touching the kernel, so it runs without root: a burst of changes makes one
 * rebuild, not one per event; each rebuild holds every Service; the table is
 * deleted when the Manager stops. A stand-in for `conntrack` likewise: the
 * stale UDP flows of a rebuild are deleted after it, and a failed deletion is
 * warned of once and retried without holding the rules back.
 * test/e2e/nft-services.test.ts and nft-conntrack.test.ts run the same
 * controller against the real nft and conntrack.
 */
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../../test/support/envtest.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import type { KubeObject } from "../../api/index.js";
import { registerServiceRules } from "./service-rules.js";
import type { ServiceObject } from "./types.js";

/** Logs its arguments; keeps the script of `-f -` (whole: written, then renamed); lists an empty table. */
const FAKE_NFT = `#!/bin/sh
dir=$(dirname "$0")
echo "$*" >> "$dir/calls"
case "$*" in
  "-f -") n=$(ls "$dir" | grep -c '^script-'); cat > "$dir/.part"; mv "$dir/.part" "$dir/script-$(printf %04d "$n")" ;;
  "-j list table"*) echo '{"nftables":[]}' ;;
esac
`;

/** Logs its arguments; fails while `conntrack-fails` exists, else deletes nothing, as the real one says. */
const FAKE_CONNTRACK = `#!/bin/sh
dir=$(dirname "$0")
echo "$*" >> "$dir/conntrack-calls"
if [ -e "$dir/conntrack-fails" ]; then echo "Operation failed: stood in" >&2; exit 2; fi
echo "conntrack v1.4.7 (conntrack-tools): 0 flow entries have been deleted." >&2
exit 1
`;

/** A directory with the stand-ins `nft` and `conntrack`. */
function standIns(): string {
  const dir = mkdtempSync(join(tmpdir(), "hearth-nft-"));
  for (const [name, text] of [
    ["nft", FAKE_NFT],
    ["conntrack", FAKE_CONNTRACK],
  ] as const) {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** The lines of `file` in `dir` (none yet: none). */
const linesOf = (dir: string, file: string) =>
  existsSync(join(dir, file)) ? readFileSync(join(dir, file), "utf8").trim().split("\n") : [];

describe("Service rules controller (nft stood in for)", () => {
  let env: Env;
  let dir: string;
  before(async () => {
    env = await startEnv({ serviceCidr: "10.97.0.0/24" });
    dir = standIns();
  });
  after(async () => {
    await env.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const scripts = () =>
    readdirSync(dir)
      .filter((f) => f.startsWith("script-"))
      .sort()
      .map((f) => readFileSync(join(dir, f), "utf8"));
  const calls = () => linesOf(dir, "calls");
  const service = (name: string) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { namespace: "default", name },
    spec: { ports: [{ port: 80 }] },
  });
  const slice = (name: string, ip: string) => ({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      namespace: "default",
      name: `${name}-x`,
      labels: { "kubernetes.io/service-name": name },
    },
    addressType: "IPv4",
    ports: [{ port: 8080, protocol: "TCP" }],
    endpoints: [{ addresses: [ip] }],
  });

  it("rebuilds once for a burst, with every Service, and deletes the table at stop", async () => {
    const names = Array.from({ length: 30 }, (_, i) => `svc-${i}`);
    await Promise.all(
      names.map(async (n, i) => {
        await env.client.create(service(n));
        await env.client.create(slice(n, `10.244.0.${i + 2}`));
      }),
    );
    registerServiceRules(env.manager, {
      table: "hearth-test",
      podCIDR: "10.244.0.0/24",
      nodeIPs: [],
      nft: join(dir, "nft"),
    });
    env.startManager();
    const [first] = await waitFor("the first rebuild", () =>
      scripts().length > 0 ? scripts() : undefined,
    );
    assert.equal(
      first?.match(/dnat to 10\.244\.0\.\d+:8080/g)?.length,
      30,
      "every Service in one rebuild",
    );

    await env.client.create(service("late"));
    await env.client.create(slice("late", "10.244.0.99"));
    const all = await waitFor("a rebuild with the late Service", () => {
      const s = scripts();
      return s.at(-1)?.includes("dnat to 10.244.0.99:8080") ? s : undefined;
    });
    // One for the 60 objects there at start, one or two for the late Service and its slice
    // (created one after the other); a request per object would make more.
    assert.ok(all.length <= 3, `${all.length} rebuilds for 62 objects and two bursts`);

    await env.stopManager();
    assert.equal(calls().at(-1), "delete table ip hearth-test");
    assert.ok(
      calls().every((c) =>
        /^(-f -|-j list table ip hearth-test|delete table ip hearth-test)$/.test(c),
      ),
    );
  });
});

describe("Service rules controller: stale conntrack flows (conntrack stood in for)", () => {
  let env: Env;
  let dir: string;
  before(async () => {
    env = await startEnv({ serviceCidr: "10.98.0.0/24" });
    dir = standIns();
  });
  after(async () => {
    await env.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const conntrackCalls = () => linesOf(dir, "conntrack-calls");
  const dnsSlice = (ip: string) => ({
    apiVersion: "discovery.k8s.io/v1",
    kind: "EndpointSlice",
    metadata: {
      namespace: "default",
      name: "dns-x",
      labels: { "kubernetes.io/service-name": "dns" },
    },
    addressType: "IPv4",
    ports: [{ name: "dns", port: 5353, protocol: "UDP" }],
    endpoints: [{ addresses: [ip] }],
  });

  it("deletes them after the rebuild; a failure is warned of once, retried, and holds no rule back", async () => {
    const created = await env.client.create<ServiceObject>({
      apiVersion: "v1",
      kind: "Service",
      metadata: { namespace: "default", name: "dns" },
      spec: { ports: [{ name: "dns", port: 5300, protocol: "UDP" }] },
    } satisfies ServiceObject);
    const clusterIP = created.spec?.clusterIP ?? "";
    await env.client.create(dnsSlice("10.244.0.5"));
    writeFileSync(join(dir, "conntrack-fails"), "");
    const warnings: string[] = [];
    registerServiceRules(env.manager, {
      table: "hearth-test",
      podCIDR: "10.244.0.0/24",
      nodeIPs: [],
      nft: join(dir, "nft"),
      conntrack: join(dir, "conntrack"),
      warn: (m) => warnings.push(m),
    });
    env.startManager();

    const becameActive = `-D -f ipv4 -p udp --orig-dst ${clusterIP} --orig-port-dst 5300`;
    await waitFor("two failed deletions", () => conntrackCalls().length >= 2);
    assert.ok(
      conntrackCalls().every((c) => c === becameActive),
      conntrackCalls().join("\n"),
    );
    const rules = readdirSync(dir).filter((f) => f.startsWith("script-"));
    const first = readFileSync(join(dir, rules[0] ?? ""), "utf8");
    assert.match(first, /meta l4proto udp dnat to 10\.244\.0\.5:5353/, "the rules came first");
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(
      warnings[0] ?? "",
      /cannot delete stale conntrack entries.*\n.*default\/dns:dns\/udp: has endpoints now: .*stood in/,
    );

    rmSync(join(dir, "conntrack-fails"));
    const failedBefore = conntrackCalls().length;
    await waitFor("the deletion retried", () => conntrackCalls().length > failedBefore);
    const current = await env.client.get<KubeObject>({
      apiVersion: "discovery.k8s.io/v1",
      kind: "EndpointSlice",
      namespace: "default",
      name: "dns-x",
    });
    await env.client.update({ ...current, ...dnsSlice("10.244.0.6"), metadata: current.metadata });
    const removed = `-D -f ipv4 -p udp --orig-dst ${clusterIP} --orig-port-dst 5300 --reply-src 10.244.0.5 --reply-port-src 5353`;
    await waitFor("the removed endpoint's flows deleted", () => conntrackCalls().includes(removed));
    const later = conntrackCalls().slice(failedBefore);
    assert.equal(later.at(-1), removed);
    assert.ok(
      later.slice(0, -1).every((c) => c === becameActive),
      `after a success, only the new deletion: ${later.join("\n")}`,
    );
    await env.stopManager();
  });
});
