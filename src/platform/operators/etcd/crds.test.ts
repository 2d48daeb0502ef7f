import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ETCD_CLUSTER_CRD, ETCD_MEMBER_CRD, OWNED_FLAG_PATTERN, TYPED_OPTIONS } from "./crds.js";

type Schema = {
  properties: Record<string, Schema>;
  pattern?: string;
  "x-kubernetes-validations"?: { rule: string; message: string }[];
};
interface CrdSpec {
  group: string;
  scope: string;
  names: { plural: string; categories?: string[]; shortNames?: string[] };
  versions: {
    subresources: object;
    additionalPrinterColumns?: { name: string; jsonPath: string }[];
    schema: { openAPIV3Schema: Schema };
  }[];
}

describe("the etcd operator's CRDs", () => {
  it("names which etcd flags the operator owns, and leaves tuning flags to options", () => {
    const owned = new RegExp(OWNED_FLAG_PATTERN);
    for (const flag of [
      "name",
      "data-dir",
      "wal-dir",
      "initial-cluster",
      "initial-cluster-state",
      "listen-client-urls",
      "listen-metrics-urls",
      "advertise-client-urls",
      "cert-file",
      "peer-key-file",
      "trusted-ca-file",
      "client-cert-auth",
      "peer-client-cert-auth",
      "auto-tls",
      "discovery-srv",
    ])
      assert.ok(owned.test(flag), `${flag} is the operator's`);
    for (const flag of [
      "max-request-bytes",
      "heartbeat-interval",
      "election-timeout",
      "experimental-compact-hash-check-enabled",
      "log-level",
      "cipher-suites",
    ])
      assert.ok(!owned.test(flag), `${flag} may be set`);
    assert.deepEqual(Object.keys(TYPED_OPTIONS), [
      "quotaBackendBytes",
      "autoCompactionMode",
      "autoCompactionRetention",
      "snapshotCount",
    ]);
  });

  it("serves EtcdCluster with status and scale, columns READY 2/3 and AGE, category hearth, no short name", () => {
    const spec = ETCD_CLUSTER_CRD.spec as CrdSpec;
    assert.equal(spec.group, "etcd.hearth.io");
    assert.equal(spec.scope, "Namespaced");
    assert.deepEqual(spec.names.categories, ["hearth"]);
    assert.equal(spec.names.shortNames, undefined, '"etcd" is the Etcd app\'s');
    const version = spec.versions[0]!;
    assert.deepEqual(version.subresources, {
      status: {},
      scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" },
    });
    const columns = version.additionalPrinterColumns!.map((c) => `${c.name}=${c.jsonPath}`);
    assert.equal(columns[0], "Ready=.status.ready");
    assert.equal(columns.at(-1), "Age=.metadata.creationTimestamp");
    const schema = version.schema.openAPIV3Schema.properties.spec!.properties;
    assert.deepEqual(schema.replicas, { type: "integer", minimum: 0, default: 3 } as unknown);
    assert.ok(schema.storage!.properties.size!.pattern);
    assert.deepEqual(schema.tls!["x-kubernetes-validations"], [
      { rule: "self == oldSelf", message: "tls is immutable" },
    ]);
  });

  it("serves EtcdMember with a status subresource and an immutable cluster", () => {
    const spec = ETCD_MEMBER_CRD.spec as CrdSpec;
    assert.equal(spec.names.plural, "etcdmembers");
    const version = spec.versions[0]!;
    assert.deepEqual(version.subresources, { status: {} });
    const cluster = version.schema.openAPIV3Schema.properties.spec!.properties.cluster!;
    assert.equal(cluster["x-kubernetes-validations"]?.[0]?.rule, "self == oldSelf");
  });
});
