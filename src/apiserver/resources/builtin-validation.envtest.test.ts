/**
 * Validation of built-in kinds through the in-process apiserver, table-driven:
 * for each kind a valid object is created (201) and invalid ones are refused
 * with kube's 422 Status, whose causes name each field and reason and whose
 * message carries the rule. Covers the kinds without a validation test of
 * their own: Secret types, ServiceAccount, Node, RBAC names, EndpointSlice,
 * Event, PersistentVolume, LimitRange, ResourceQuota, CronJob, StorageClass.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv } from "../../../test/support/raw-http.js";
import type { KubeList, Status } from "../../api/index.js";

const NS = "valid";
const core = (plural: string) => `/api/v1/namespaces/${NS}/${plural}`;
const grouped = (gv: string, plural: string, namespaced = true) =>
  `/apis/${gv}${namespaced ? `/namespaces/${NS}` : ""}/${plural}`;

interface Case {
  kind: string;
  path: string;
  /** The object's body without apiVersion/kind/metadata.name. */
  valid: Record<string, unknown>;
  invalid: {
    why: string;
    body: Record<string, unknown>;
    name?: string;
    causes: [field: string, reason: string][];
    message: RegExp;
  }[];
}

const B64 = Buffer.from("x").toString("base64");
const RULE = "rbac.authorization.k8s.io/v1";

const CASES: Case[] = [
  {
    kind: "v1/Secret",
    path: core("secrets"),
    valid: { type: "kubernetes.io/tls", data: { "tls.crt": B64, "tls.key": B64 } },
    invalid: [
      {
        why: "a key with a slash",
        body: { data: { "a/b": B64 } },
        causes: [["data[a/b]", "FieldValueInvalid"]],
        message: /a valid config key must consist of/,
      },
      {
        why: "a key of '..'",
        body: { data: { "..": B64 } },
        causes: [["data[..]", "FieldValueInvalid"]],
        message: /must not be '\.\.'/,
      },
      {
        why: "a TLS secret without its keys",
        body: { type: "kubernetes.io/tls", data: {} },
        causes: [
          ["data[tls.crt]", "FieldValueRequired"],
          ["data[tls.key]", "FieldValueRequired"],
        ],
        message: /\[data\[tls\.crt\]: Required value, data\[tls\.key\]: Required value\]/,
      },
      {
        why: "a dockerconfigjson secret without .dockerconfigjson",
        body: { type: "kubernetes.io/dockerconfigjson", data: {} },
        causes: [["data[.dockerconfigjson]", "FieldValueRequired"]],
        message: /data\[\.dockerconfigjson\]: Required value/,
      },
      {
        why: "an invalid name",
        name: "Secret_1",
        body: {},
        causes: [["metadata.name", "FieldValueInvalid"]],
        message: /a lowercase RFC 1123 subdomain/,
      },
    ],
  },
  {
    kind: "v1/ServiceAccount",
    path: core("serviceaccounts"),
    valid: {},
    invalid: [
      {
        why: "an upper-case name",
        name: "SA",
        body: {},
        causes: [["metadata.name", "FieldValueInvalid"]],
        message: /metadata\.name: Invalid value: "SA": a lowercase RFC 1123 subdomain/,
      },
    ],
  },
  {
    kind: "v1/Node",
    path: "/api/v1/nodes",
    valid: {},
    invalid: [
      {
        why: "an underscore in the name",
        name: "n_1",
        body: {},
        causes: [["metadata.name", "FieldValueInvalid"]],
        message: /Invalid value: "n_1"/,
      },
    ],
  },
  {
    kind: `${RULE}/ClusterRole`,
    path: grouped(RULE, "clusterroles", false),
    valid: { rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get"] }] },
    invalid: [
      {
        why: "a slash in the name",
        name: "a/b",
        body: { rules: [] },
        causes: [["metadata.name", "FieldValueInvalid"]],
        message:
          /^ClusterRole\.rbac\.authorization\.k8s\.io "a\/b" is invalid: metadata\.name: Invalid value: "a\/b": may not contain '\/'$/,
      },
    ],
  },
  {
    kind: "discovery.k8s.io/v1/EndpointSlice",
    path: grouped("discovery.k8s.io/v1", "endpointslices"),
    valid: { addressType: "IPv4", endpoints: [{ addresses: ["10.0.0.1"] }] },
    invalid: [
      {
        why: "an unknown addressType",
        body: { addressType: "Bad", endpoints: [] },
        causes: [["addressType", "FieldValueNotSupported"]],
        message: /addressType: Unsupported value: "Bad": supported values: "FQDN", "IPv4", "IPv6"/,
      },
    ],
  },
  {
    kind: "v1/Event",
    path: core("events"),
    valid: {
      involvedObject: { kind: "Pod", namespace: NS, name: "p" },
      reason: "Started",
      message: "m",
    },
    invalid: [
      {
        why: "an involvedObject in another namespace",
        body: { involvedObject: { kind: "Pod", namespace: "elsewhere", name: "p" } },
        causes: [["involvedObject.namespace", "FieldValueInvalid"]],
        message:
          /involvedObject\.namespace: Invalid value: "elsewhere": does not match event\.namespace/,
      },
    ],
  },
  {
    kind: "v1/PersistentVolume",
    path: "/api/v1/persistentvolumes",
    valid: {
      capacity: { storage: "1Gi" },
      accessModes: ["ReadWriteOnce"],
      hostPath: { path: "/tmp/pv" },
    },
    invalid: [
      {
        why: "an empty spec",
        body: {},
        causes: [
          ["spec.capacity", "FieldValueRequired"],
          ["spec.accessModes", "FieldValueRequired"],
          ["spec", "FieldValueRequired"],
        ],
        message: /spec: Required value: must specify a volume type/,
      },
    ],
  },
  {
    kind: "v1/LimitRange",
    path: core("limitranges"),
    valid: { limits: [{ type: "Container", max: { cpu: "2" }, min: { cpu: "1" } }] },
    invalid: [
      {
        why: "min above max",
        body: { limits: [{ type: "Pod", max: { cpu: "1" }, min: { cpu: "2" } }] },
        causes: [["spec.limits[0].min[cpu]", "FieldValueInvalid"]],
        message: /min value 2 is greater than max value 1/,
      },
    ],
  },
  {
    kind: "v1/ResourceQuota",
    path: core("resourcequotas"),
    valid: { hard: { cpu: "4", pods: "10" } },
    invalid: [
      {
        why: "a negative hard limit",
        body: { hard: { cpu: "-1" } },
        causes: [["spec.hard[cpu]", "FieldValueInvalid"]],
        message: /spec\.hard\[cpu\]: Invalid value: "-1": must be greater than or equal to 0/,
      },
    ],
  },
  {
    kind: "batch/v1/CronJob",
    path: grouped("batch/v1", "cronjobs"),
    valid: {
      schedule: "*/5 * * * *",
      jobTemplate: {
        spec: {
          template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "i" }] } },
        },
      },
    },
    invalid: [
      {
        why: "a schedule of one field",
        body: {
          schedule: "nope",
          jobTemplate: {
            spec: {
              template: {
                spec: { restartPolicy: "Never", containers: [{ name: "c", image: "i" }] },
              },
            },
          },
        },
        causes: [["spec.schedule", "FieldValueInvalid"]],
        message:
          /spec\.schedule: Invalid value: "nope": expected exactly 5 fields, found 1: \[nope\]/,
      },
    ],
  },
  {
    kind: "storage.k8s.io/v1/StorageClass",
    path: grouped("storage.k8s.io/v1", "storageclasses", false),
    valid: { provisioner: "hearth.dev/local", reclaimPolicy: "Retain" },
    invalid: [
      {
        why: "an unknown reclaimPolicy",
        body: { provisioner: "x", reclaimPolicy: "Keep" },
        causes: [["reclaimPolicy", "FieldValueNotSupported"]],
        message: /reclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Retain"/,
      },
    ],
  },
];

/** Kinds whose top-level fields sit under `spec`. */
const SPEC_KINDS = new Set([
  "v1/PersistentVolume",
  "v1/LimitRange",
  "v1/ResourceQuota",
  "batch/v1/CronJob",
]);

function manifest(kind: string, name: string, body: Record<string, unknown>) {
  const slash = kind.lastIndexOf("/");
  return {
    apiVersion: kind.slice(0, slash),
    kind: kind.slice(slash + 1),
    metadata: { name },
    ...(SPEC_KINDS.has(kind) ? { spec: body } : body),
  };
}

let env: Env;
let api: RawApi;

before(async () => {
  ({ env, api } = await startRawEnv(NS));
});

after(() => env.stop());

for (const c of CASES) {
  describe(c.kind, () => {
    it("creates a valid object", async () => {
      const name = `ok-${c.kind.split("/").pop()!.toLowerCase()}`;
      const reply = await api.call("POST", c.path, manifest(c.kind, name, c.valid));
      assert.equal(reply.status, 201, reply.text);
    });

    for (const [i, bad] of c.invalid.entries()) {
      it(`refuses ${bad.why} with a 422 naming ${bad.causes.map((x) => x[0]).join(", ")}`, async () => {
        const name = bad.name ?? `bad-${i}`;
        const reply = await api.call("POST", c.path, manifest(c.kind, name, bad.body));
        assert.equal(reply.status, 422, reply.text);
        const s = reply.body as Status;
        assert.equal(s.reason, "Invalid");
        assert.equal(s.details?.name, name);
        assert.equal(s.details?.kind, c.kind.split("/").pop());
        assert.deepEqual(
          s.details?.causes?.map((x) => [x.field, x.reason]),
          bad.causes,
        );
        assert.match(s.message ?? "", bad.message);
        const stored = await api.ok<KubeList>("GET", c.path);
        assert.ok(!stored.items.some((o) => o.metadata.name === name), "nothing was stored");
      });
    }
  });
}
