/**
 * What an Etcd app renders: the EtcdCluster as the operator's contract asks
 * (quota 95 % of size, compaction, auth, the five TLS Secrets), the DataStore
 * named after the tenant namespace, and the defrag CronJob reaching the client
 * Service through its service-link variable with the client certificate.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../../api/index.js";
import { APPS_API_VERSION, type App } from "../../engine/module.js";
import { quorum, quotaBackendBytes, renderEtcd } from "./render.js";

const app = (spec: Record<string, unknown> = {}): App => ({
  apiVersion: APPS_API_VERSION,
  kind: "Etcd",
  metadata: { name: "etcd", namespace: "tenant-a" },
  spec,
});

const only = (objects: KubeObject[], kind: string) => {
  const found = objects.filter((o) => o.kind === kind);
  assert.equal(found.length, 1, kind);
  return found[0]! as KubeObject & { spec: Record<string, unknown> };
};

describe("renderEtcd", () => {
  it("renders the EtcdCluster of the contract with Cozystack's defaults", () => {
    const cluster = only(renderEtcd(app()), "EtcdCluster");
    assert.equal(cluster.apiVersion, "etcd.hearth.io/v1alpha1");
    assert.deepEqual(cluster.metadata, { name: "etcd", namespace: "tenant-a" });
    assert.deepEqual(cluster.spec, {
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
      auth: { enabled: true },
      options: {
        quotaBackendBytes: 4080218931,
        autoCompactionMode: "periodic",
        autoCompactionRetention: "5m",
        snapshotCount: 10000,
      },
      resources: {
        limits: { cpu: "1000m", memory: "512Mi" },
        requests: { cpu: "100m", memory: "512Mi" },
      },
    });
  });

  it("takes replicas, size, storage class and resources from the spec", () => {
    const spec = {
      replicas: 1,
      size: "1Gi",
      storageClass: "fast",
      resources: { cpu: 2, memory: "1Gi" },
    };
    const cluster = only(renderEtcd(app(spec)), "EtcdCluster").spec as Record<string, unknown>;
    assert.equal(cluster.replicas, 1);
    assert.deepEqual(cluster.storage, { size: "1Gi", storageClassName: "fast" });
    assert.equal((cluster.options as Record<string, unknown>).quotaBackendBytes, 1020054732);
    assert.deepEqual(cluster.resources, {
      limits: { cpu: "2", memory: "1Gi" },
      requests: { cpu: "200m", memory: "1Gi" },
    });
  });

  it("renders the tenant's DataStore on the client Service, with the CA and client Secrets", () => {
    const ds = only(renderEtcd(app()), "DataStore");
    assert.equal(ds.apiVersion, "kamaji.clastix.io/v1alpha1");
    assert.deepEqual(ds.metadata, { name: "tenant-a", namespace: "" });
    const ref = (name: string, keyPath: string) => ({
      secretReference: { name, namespace: "tenant-a", keyPath },
    });
    assert.deepEqual(ds.spec, {
      driver: "etcd",
      endpoints: ["etcd-client.tenant-a.svc:2379"],
      tlsConfig: {
        certificateAuthority: {
          certificate: ref("etcd-ca-tls", "tls.crt"),
          privateKey: ref("etcd-ca-tls", "tls.key"),
        },
        clientCertificate: {
          certificate: ref("etcd-client-tls", "tls.crt"),
          privateKey: ref("etcd-client-tls", "tls.key"),
        },
      },
    });
  });

  it("renders the hourly defrag CronJob running hearth etcd-defrag on the client Service", () => {
    const cron = only(renderEtcd(app({ size: "1Gi" })), "CronJob");
    assert.equal(cron.metadata.name, "etcd-defrag");
    assert.equal(cron.spec.schedule, "0 * * * *");
    assert.equal(cron.spec.concurrencyPolicy, "Forbid");
    const pod = (
      cron.spec.jobTemplate as {
        spec: { template: { spec: { containers: Record<string, unknown>[]; volumes: unknown[] } } };
      }
    ).spec.template.spec;
    const [c] = pod.containers;
    assert.equal(c!.image, "hearth");
    assert.deepEqual(c!.args, [
      "etcd-defrag",
      "--endpoints=https://$(ETCD_CLIENT_SERVICE_HOST):2379",
      "--cacert=/var/run/etcd/ca/ca.crt",
      "--cert=/var/run/etcd/client-tls/tls.crt",
      "--key=/var/run/etcd/client-tls/tls.key",
      "--cluster",
      "--compaction",
      "--defrag-rule=dbQuotaUsage > 0.8 || dbSize - dbSizeInUse > 200*1024*1024",
      `--etcd-storage-quota-bytes=${quotaBackendBytes("1Gi")}`,
    ]);
    assert.deepEqual(pod.volumes, [
      { name: "client-certificate", secret: { secretName: "etcd-client-tls" } },
      {
        name: "ca-certificate",
        secret: { secretName: "etcd-ca-tls", items: [{ key: "tls.crt", path: "ca.crt" }] },
      },
    ]);
  });

  it("renders the WorkloadMonitor of the member pods, operational while a quorum is Ready", () => {
    const monitor = only(renderEtcd(app()), "WorkloadMonitor");
    assert.equal(monitor.apiVersion, "cozystack.io/v1alpha1");
    assert.deepEqual(monitor.metadata, { name: "etcd", namespace: "tenant-a" });
    assert.deepEqual(monitor.spec, {
      kind: "etcd",
      type: "etcd",
      replicas: 3,
      minReplicas: 2,
      selector: {
        "app.kubernetes.io/name": "etcd",
        "app.kubernetes.io/instance": "etcd",
        "app.kubernetes.io/managed-by": "hearth-etcd-operator",
        "etcd.hearth.io/cluster": "etcd",
      },
    });
    const single = only(renderEtcd(app({ replicas: 1 })), "WorkloadMonitor").spec;
    assert.deepEqual([single.replicas, single.minReplicas], [1, 1]);
    assert.deepEqual([quorum(1), quorum(3), quorum(5)], [1, 2, 3]);
  });
});
