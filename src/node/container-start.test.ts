import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import type { Pod } from "../api/index.js";
import { hostsFile } from "./container-start.js";

const pod = (spec: Partial<Pod["spec"]> = {}): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "web-0", namespace: "shop", uid: "u1" },
  spec: { containers: [{ name: "app", image: "busybox" }], ...spec },
});

const HEADER =
  "# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n" +
  "fe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n";

describe("hostsFile", () => {
  test("the kubelet's managed file: the pod's address and hostname", () => {
    assert.equal(hostsFile(pod(), "10.88.0.5", "cluster.local"), `${HEADER}10.88.0.5\tweb-0\n`);
  });

  test("with a subdomain: the FQDN in the configured domain, then the hostname", () => {
    assert.equal(
      hostsFile(pod({ hostname: "db-0", subdomain: "db" }), "10.88.0.5", "hearth.internal"),
      `${HEADER}10.88.0.5\tdb-0.db.shop.svc.hearth.internal\tdb-0\n`,
    );
  });

  test("hostAliases after their header; on the host's network the host's file", () => {
    const aliases = [{ ip: "192.0.2.7", hostnames: ["foo.local", "bar.local"] }];
    assert.equal(
      hostsFile(pod({ hostAliases: aliases }), "10.88.0.5", "cluster.local"),
      `${HEADER}10.88.0.5\tweb-0\n\n# Entries added by HostAliases.\n192.0.2.7\tfoo.local\tbar.local\n`,
    );
    const dir = mkdtempSync(join(tmpdir(), "hosts-"));
    try {
      writeFileSync(join(dir, "hosts"), "127.0.0.1\tlocalhost\n");
      assert.equal(
        hostsFile(
          pod({ hostNetwork: true, hostAliases: aliases }),
          "10.0.0.1",
          "cluster.local",
          join(dir, "hosts"),
        ),
        "127.0.0.1\tlocalhost\n\n# Entries added by HostAliases.\n192.0.2.7\tfoo.local\tbar.local\n",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
