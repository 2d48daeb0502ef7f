import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { effectiveOptions, etcdArgs, memberClaim, memberPod } from "./member-pod.js";
import type { EtcdCluster, EtcdMember } from "./types.js";

const cluster = (over: Partial<EtcdCluster["spec"]> = {}): EtcdCluster => ({
  apiVersion: "etcd.hearth.io/v1alpha1",
  kind: "EtcdCluster",
  metadata: { name: "etcd", namespace: "tenant-a", uid: "cluster-uid" },
  spec: {
    replicas: 3,
    storage: { size: "4Gi" },
    tls: {
      client: {
        caSecretRef: { name: "etcd-ca-tls" },
        serverSecretRef: { name: "etcd-server-tls" },
        clientSecretRef: { name: "etcd-client-tls" },
      },
      peer: { caSecretRef: { name: "etcd-peer-ca-tls" }, secretRef: { name: "etcd-peer-tls" } },
    },
    ...over,
  },
});

const member: EtcdMember = {
  apiVersion: "etcd.hearth.io/v1alpha1",
  kind: "EtcdMember",
  metadata: { name: "etcd-abcde", namespace: "tenant-a", uid: "member-uid" },
  spec: {
    cluster: "etcd",
    initialCluster: "etcd-abcde=https://127.2.0.5:2380,etcd-fghij=https://127.2.0.6:2380",
    initialClusterState: "existing",
  },
};

describe("a member's pod", () => {
  it("defaults the quota to 95 % of the volume, periodic 5m compaction, 10000 snapshots", () => {
    assert.deepEqual(effectiveOptions(cluster()), {
      "quota-backend-bytes": "4080218931",
      "auto-compaction-mode": "periodic",
      "auto-compaction-retention": "5m",
      "snapshot-count": "10000",
    });
  });

  it("takes typed options over the defaults and passes other flags as they are", () => {
    const opts = effectiveOptions(
      cluster({
        options: {
          quotaBackendBytes: 1000,
          autoCompactionRetention: "1h",
          "max-request-bytes": "2097152",
        },
      }),
    );
    assert.equal(opts["quota-backend-bytes"], "1000");
    assert.equal(opts["auto-compaction-retention"], "1h");
    assert.equal(opts["max-request-bytes"], "2097152");
  });

  it("listens on the pod IP, advertises the Service address, and checks client certificates on both sides", () => {
    const args = etcdArgs(cluster(), member, "127.2.0.5");
    for (const want of [
      "--name=etcd-abcde",
      "--listen-client-urls=https://$(POD_IP):2379",
      "--advertise-client-urls=https://127.2.0.5:2379",
      "--listen-peer-urls=https://$(POD_IP):2380",
      "--initial-advertise-peer-urls=https://127.2.0.5:2380",
      "--listen-metrics-urls=http://$(POD_IP):2381",
      `--initial-cluster=${member.spec.initialCluster}`,
      "--initial-cluster-state=existing",
      "--initial-cluster-token=cluster-uid",
      "--client-cert-auth",
      "--peer-client-cert-auth",
      "--quota-backend-bytes=4080218931",
    ])
      assert.ok(args.includes(want), `${want} in ${args.join(" ")}`);
    assert.ok(args.some((a) => a.startsWith("--trusted-ca-file=")));
    assert.ok(args.some((a) => a.startsWith("--peer-trusted-ca-file=")));
  });

  it("carries its cluster's app lineage labels, for the app's WorkloadMonitor", () => {
    const labelled = cluster();
    labelled.metadata.labels = {
      "apps.cozystack.io/application.kind": "Etcd",
      "apps.cozystack.io/application.group": "apps.cozystack.io",
      "apps.cozystack.io/application.name": "etcd",
      "apps.cozystack.io/application.uid": "app-uid",
      "example.com/other": "x",
    };
    const pod = memberPod(labelled, member, "127.2.0.5");
    assert.deepEqual(pod.metadata.labels, {
      "apps.cozystack.io/application.kind": "Etcd",
      "apps.cozystack.io/application.group": "apps.cozystack.io",
      "apps.cozystack.io/application.name": "etcd",
      "app.kubernetes.io/name": "etcd",
      "app.kubernetes.io/instance": "etcd",
      "app.kubernetes.io/managed-by": "hearth-etcd-operator",
      "etcd.hearth.io/cluster": "etcd",
      "app.kubernetes.io/component": "etcd-abcde",
    });
  });

  it("is owned by its member, labelled, probed on :2381 and mounts its claim and certificates", () => {
    const pod = memberPod(
      cluster({ resources: { limits: { memory: "512Mi" } } }),
      member,
      "127.2.0.5",
    );
    assert.equal(pod.metadata.name, "etcd-abcde");
    assert.deepEqual(
      pod.metadata.ownerReferences?.map((o) => [o.kind, o.uid, o.controller]),
      [["EtcdMember", "member-uid", true]],
    );
    assert.deepEqual(pod.metadata.labels, {
      "app.kubernetes.io/name": "etcd",
      "app.kubernetes.io/instance": "etcd",
      "app.kubernetes.io/managed-by": "hearth-etcd-operator",
      "etcd.hearth.io/cluster": "etcd",
      "app.kubernetes.io/component": "etcd-abcde",
    });
    const c = pod.spec!.containers[0]!;
    assert.equal(c.image, "etcd:3.4");
    assert.deepEqual(c.command, ["etcd"]);
    assert.deepEqual(c.readinessProbe?.httpGet, { path: "/health", port: 2381 });
    assert.deepEqual(c.livenessProbe?.httpGet, { path: "/health", port: 2381 });
    assert.deepEqual(c.resources, { limits: { memory: "512Mi" } });
    assert.deepEqual(
      pod.spec!.volumes?.map((v) => v.persistentVolumeClaim?.claimName ?? v.secret?.secretName),
      ["data-etcd-abcde", "etcd-server-tls", "etcd-peer-tls"],
    );
    const claim = memberClaim(
      cluster({ storage: { size: "4Gi", storageClassName: "fast" } }),
      member,
    );
    assert.equal(claim.metadata.name, "data-etcd-abcde");
    assert.deepEqual(claim.spec, {
      accessModes: ["ReadWriteOnce"],
      resources: { requests: { storage: "4Gi" } },
      storageClassName: "fast",
    });
  });
});
