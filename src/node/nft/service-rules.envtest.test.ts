/**
 * The Service rules controller on the envtest apiserver, with a stand-in for
 * `nft` that records each call (and the script it was given) instead of
 * touching the kernel, so it runs without root: a burst of changes makes one
 * rebuild, not one per event; each rebuild holds every Service; the table is
 * deleted when the Manager stops. test/e2e/nft-services.test.ts runs the same
 * controller against the real nft.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Env, startEnv } from "../../../test/support/envtest.js";
import { waitFor } from "../../../test/support/hearth-process.js";
import { registerServiceRules } from "./service-rules.js";

/** Logs its arguments; keeps the script of `-f -` (whole: written, then renamed); lists an empty table. */
const FAKE_NFT = `#!/bin/sh
dir=$(dirname "$0")
echo "$*" >> "$dir/calls"
case "$*" in
  "-f -") n=$(ls "$dir" | grep -c '^script-'); cat > "$dir/.part"; mv "$dir/.part" "$dir/script-$(printf %04d "$n")" ;;
  "-j list table"*) echo '{"nftables":[]}' ;;
esac
`;

describe("Service rules controller (nft stood in for)", () => {
  let env: Env;
  let dir: string;
  before(async () => {
    env = await startEnv({ serviceCidr: "10.97.0.0/24" });
    dir = mkdtempSync(join(tmpdir(), "hearth-nft-"));
    writeFileSync(join(dir, "nft"), FAKE_NFT);
    chmodSync(join(dir, "nft"), 0o755);
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
  const calls = () => readFileSync(join(dir, "calls"), "utf8").trim().split("\n");
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
