/**
 * Built-in kinds refuse bad input at the door as kube-apiserver does, table by
 * table against the in-process server: each row is a create (or an update of
 * an object the row first creates) that must get a 422 Invalid Status whose
 * causes name each field with its reason and whose message carries kube's
 * rule, and that writes nothing (the storage revision does not move).
 * - a missing required field is validation's 422 (Go decodes an absent field
 *   as its zero value), in the kind's own words where it has them;
 * - Lease spec ranges, strategy and preferredHolder;
 * - Endpoints addresses (IP, special ranges; IPv4 loopback is Hearth's pod
 *   network and accepted), ports (range, protocol, names) and subsets;
 * - fields an update may not change;
 * - name formats per kind.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { expectRefused } from "../support/refusal.js";

type Obj = Record<string, unknown>;

const NS = "door";
const RBAC = "rbac.authorization.k8s.io/v1";

/** Where each kind's objects are created: its apiVersion and collection path. */
const KINDS: Record<string, { apiVersion: string; path: string }> = {
  Role: { apiVersion: RBAC, path: `/apis/${RBAC}/namespaces/${NS}/roles` },
  RoleBinding: { apiVersion: RBAC, path: `/apis/${RBAC}/namespaces/${NS}/rolebindings` },
  StorageClass: { apiVersion: "storage.k8s.io/v1", path: "/apis/storage.k8s.io/v1/storageclasses" },
  Pod: { apiVersion: "v1", path: `/api/v1/namespaces/${NS}/pods` },
  Service: { apiVersion: "v1", path: `/api/v1/namespaces/${NS}/services` },
  Endpoints: { apiVersion: "v1", path: `/api/v1/namespaces/${NS}/endpoints` },
  EndpointSlice: {
    apiVersion: "discovery.k8s.io/v1",
    path: `/apis/discovery.k8s.io/v1/namespaces/${NS}/endpointslices`,
  },
  Lease: {
    apiVersion: "coordination.k8s.io/v1",
    path: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`,
  },
  CronJob: { apiVersion: "batch/v1", path: `/apis/batch/v1/namespaces/${NS}/cronjobs` },
  Job: { apiVersion: "batch/v1", path: `/apis/batch/v1/namespaces/${NS}/jobs` },
  PersistentVolumeClaim: {
    apiVersion: "v1",
    path: `/api/v1/namespaces/${NS}/persistentvolumeclaims`,
  },
  Namespace: { apiVersion: "v1", path: "/api/v1/namespaces" },
};

interface Row {
  why: string;
  kind: string;
  /** The object's fields beside apiVersion, kind and metadata. */
  body: Obj;
  /** The name (default: one of the row's own). */
  name?: string;
  /**
   * Set for an update: `body` is created first (it must be valid), then this
   * turns the stored object into the PUT that must be refused.
   */
  update?: (stored: Obj) => void;
  causes: [field: string, reason: string][];
  message: RegExp;
}

const podSpec = { restartPolicy: "Never", containers: [{ name: "c", image: "i" }] };
const template = { metadata: { labels: { app: "a" } }, spec: podSpec };
const endpoints = (subset: Obj) => ({ subsets: [{ ports: [{ port: 80 }], ...subset }] });
const ip = (address: string) => endpoints({ addresses: [{ ip: address }] });
const roleRef = { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" };
const user = { kind: "User", name: "u", apiGroup: "rbac.authorization.k8s.io" };

const REQUIRED: Row[] = [
  {
    why: "a Role rule without verbs",
    kind: "Role",
    body: { rules: [{ apiGroups: [""], resources: ["pods"] }] },
    causes: [["rules[0].verbs", "FieldValueRequired"]],
    message:
      /is invalid: rules\[0\]\.verbs: Required value: verbs must contain at least one value$/,
  },
  {
    why: "a StorageClass without provisioner",
    kind: "StorageClass",
    body: {},
    causes: [["provisioner", "FieldValueRequired"]],
    message: /is invalid: provisioner: Required value$/,
  },
  {
    why: "a RoleBinding subject without name",
    kind: "RoleBinding",
    body: { roleRef, subjects: [{ kind: "ServiceAccount" }] },
    causes: [["subjects[0].name", "FieldValueRequired"]],
    message: /is invalid: subjects\[0\]\.name: Required value$/,
  },
  {
    why: "a RoleBinding subject without kind",
    kind: "RoleBinding",
    body: { roleRef, subjects: [{ name: "u" }] },
    causes: [["subjects[0].kind", "FieldValueNotSupported"]],
    message:
      /subjects\[0\]\.kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"$/,
  },
  {
    why: "a RoleBinding without roleRef (its apiGroup defaulted, as v1 does)",
    kind: "RoleBinding",
    body: { subjects: [user] },
    causes: [
      ["roleRef.kind", "FieldValueNotSupported"],
      ["roleRef.name", "FieldValueRequired"],
    ],
    message:
      /\[roleRef\.kind: Unsupported value: "": supported values: "Role", "ClusterRole", roleRef\.name: Required value\]$/,
  },
  {
    why: "a Pod without containers",
    kind: "Pod",
    body: { spec: { restartPolicy: "Never" } },
    causes: [["spec.containers", "FieldValueRequired"]],
    message: /is invalid: spec\.containers: Required value$/,
  },
  {
    why: "a Service port without its number (Go's zero)",
    kind: "Service",
    body: { spec: { ports: [{ name: "http" }] } },
    causes: [["spec.ports[0].port", "FieldValueInvalid"]],
    message: /spec\.ports\[0\]\.port: Invalid value: 0: must be between 1 and 65535, inclusive$/,
  },
  {
    why: "a CronJob without schedule",
    kind: "CronJob",
    body: { spec: { jobTemplate: { spec: { template } } } },
    causes: [["spec.schedule", "FieldValueRequired"]],
    message: /is invalid: spec\.schedule: Required value$/,
  },
  {
    why: "an EndpointSlice without addressType",
    kind: "EndpointSlice",
    body: { endpoints: [] },
    causes: [["addressType", "FieldValueRequired"]],
    message: /is invalid: addressType: Required value$/,
  },
  {
    why: "an Endpoints address without ip (Go's empty string, as kube words it)",
    kind: "Endpoints",
    body: endpoints({ addresses: [{ hostname: "h" }] }),
    causes: [
      ["subsets[0].addresses[0].ip", "FieldValueInvalid"],
      ["subsets[0].addresses[0].ip", "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]\.addresses\[0\]\.ip: Invalid value: "": must be a valid IP address, \(e\.g\./,
  },
];

const LEASES: Row[] = [
  {
    why: "a negative duration",
    kind: "Lease",
    body: { spec: { holderIdentity: "h", leaseDurationSeconds: -1 } },
    causes: [["spec.leaseDurationSeconds", "FieldValueInvalid"]],
    message: /is invalid: spec\.leaseDurationSeconds: Invalid value: -1: must be greater than 0$/,
  },
  {
    why: "a zero duration and negative transitions",
    kind: "Lease",
    body: { spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } },
    causes: [
      ["spec.leaseDurationSeconds", "FieldValueInvalid"],
      ["spec.leaseTransitions", "FieldValueInvalid"],
    ],
    message:
      /\[spec\.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec\.leaseTransitions: Invalid value: -1: must be greater than or equal to 0\]$/,
  },
  {
    why: "a preferredHolder without strategy",
    kind: "Lease",
    body: { spec: { preferredHolder: "other" } },
    causes: [["spec.preferredHolder", "FieldValueForbidden"]],
    message: /spec\.preferredHolder: Forbidden: may only be specified if `strategy` is defined$/,
  },
  {
    why: "an unknown strategy (at kube's doubled path)",
    kind: "Lease",
    body: { spec: { strategy: "Newest" } },
    causes: [["spec.strategy.strategy", "FieldValueNotSupported"]],
    message:
      /spec\.strategy\.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"$/,
  },
  {
    why: "an update to a negative duration",
    kind: "Lease",
    body: { spec: { leaseDurationSeconds: 15 } },
    update: (o) => {
      (o.spec as Obj).leaseDurationSeconds = -5;
    },
    causes: [["spec.leaseDurationSeconds", "FieldValueInvalid"]],
    message: /spec\.leaseDurationSeconds: Invalid value: -5: must be greater than 0$/,
  },
];

const IP = "subsets[0].addresses[0].ip";
const ENDPOINTS: Row[] = [
  {
    why: "an ip that is not an IP",
    kind: "Endpoints",
    body: ip("nope"),
    causes: [
      [IP, "FieldValueInvalid"],
      [IP, "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]\.addresses\[0\]\.ip: Invalid value: "nope": must be a valid IP address, \(e\.g\. 10\.9\.8\.7 or 2001:db8::ffff\), subsets\[0\]\.addresses\[0\]\.ip: Invalid value: "nope": must be a valid IP address\]$/,
  },
  {
    why: "the unspecified address",
    kind: "Endpoints",
    body: ip("0.0.0.0"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /Invalid value: "0\.0\.0\.0": may not be unspecified \(0\.0\.0\.0\)$/,
  },
  {
    why: "a link-local address among the not-ready ones",
    kind: "Endpoints",
    body: endpoints({ notReadyAddresses: [{ ip: "169.254.169.254" }] }),
    causes: [["subsets[0].notReadyAddresses[0].ip", "FieldValueInvalid"]],
    message:
      /"169\.254\.169\.254": may not be in the link-local range \(169\.254\.0\.0\/16, fe80::\/10\)$/,
  },
  {
    why: "an IPv6 link-local address",
    kind: "Endpoints",
    body: ip("fe80::1"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /"fe80::1": may not be in the link-local range/,
  },
  {
    why: "a link-local multicast address",
    kind: "Endpoints",
    body: ip("224.0.0.251"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /may not be in the link-local multicast range \(224\.0\.0\.0\/24, ff02::\/10\)$/,
  },
  {
    why: "the IPv6 loopback address (Hearth's pods are IPv4)",
    kind: "Endpoints",
    body: ip("::1"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /"::1": may not be in the loopback range \(127\.0\.0\.0\/8, ::1\/128\)$/,
  },
  {
    why: "a port above 65535 and one of 0",
    kind: "Endpoints",
    body: {
      subsets: [
        { addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 70000 }] },
        { addresses: [{ ip: "10.0.0.2" }], ports: [{ port: 0 }] },
      ],
    },
    causes: [
      ["subsets[0].ports[0].port", "FieldValueInvalid"],
      ["subsets[1].ports[0].port", "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]\.ports\[0\]\.port: Invalid value: 70000: must be between 1 and 65535, inclusive, subsets\[1\]\.ports\[0\]\.port: Invalid value: 0: must be between 1 and 65535, inclusive\]$/,
  },
  {
    why: "an unknown protocol and an unnamed port beside another",
    kind: "Endpoints",
    body: {
      subsets: [
        {
          addresses: [{ ip: "10.0.0.1" }],
          ports: [{ name: "a", port: 1, protocol: "ICMP" }, { port: 2 }],
        },
      ],
    },
    causes: [
      ["subsets[0].ports[0].protocol", "FieldValueNotSupported"],
      ["subsets[0].ports[1].name", "FieldValueRequired"],
    ],
    message:
      /\[subsets\[0\]\.ports\[0\]\.protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP", subsets\[0\]\.ports\[1\]\.name: Required value\]$/,
  },
  {
    why: "a subset without addresses and a hostname that is not a label",
    kind: "Endpoints",
    body: {
      subsets: [{ ports: [{ port: 80 }] }, { addresses: [{ ip: "10.0.0.1", hostname: "A_B" }] }],
    },
    causes: [
      ["subsets[0]", "FieldValueRequired"],
      ["subsets[1].addresses[0].hostname", "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]: Required value: must specify `addresses` or `notReadyAddresses`, subsets\[1\]\.addresses\[0\]\.hostname: Invalid value: "A_B": a lowercase RFC 1123 label/,
  },
  {
    why: "an update to a link-local address",
    kind: "Endpoints",
    body: ip("10.0.0.1"),
    update: (o) => {
      Object.assign(o, ip("169.254.0.1"));
    },
    causes: [[IP, "FieldValueInvalid"]],
    message: /"169\.254\.0\.1": may not be in the link-local range/,
  },
];

const IMMUTABLE: Row[] = [
  {
    why: "a changed Service clusterIP",
    kind: "Service",
    body: { spec: { ports: [{ port: 80 }] } },
    update: (o) => {
      (o.spec as Obj).clusterIP = "127.2.255.254";
      delete (o.spec as Obj).clusterIPs;
    },
    causes: [["spec.clusterIPs[0]", "FieldValueInvalid"]],
    message: /spec\.clusterIPs\[0\]: Invalid value: "127\.2\.255\.254": may not change once set$/,
  },
  {
    why: "a changed PersistentVolumeClaim access mode",
    kind: "PersistentVolumeClaim",
    body: { spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } } },
    update: (o) => {
      (o.spec as Obj).accessModes = ["ReadWriteMany"];
    },
    causes: [["spec", "FieldValueForbidden"]],
    message:
      /spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/,
  },
  {
    why: "a changed Job template",
    kind: "Job",
    body: { spec: { template } },
    update: (o) => {
      (o.spec as { template: { spec: Obj } }).template.spec.activeDeadlineSeconds = 5;
    },
    causes: [["spec.template", "FieldValueInvalid"]],
    message: /spec\.template: Invalid value: "object": field is immutable$/,
  },
  {
    why: "a changed Job selector",
    kind: "Job",
    body: { spec: { template } },
    update: (o) => {
      const spec = o.spec as { selector: { matchLabels: Obj } };
      spec.selector.matchLabels.extra = "x";
    },
    causes: [
      ["spec.selector", "FieldValueInvalid"],
      ["spec.template.metadata.labels", "FieldValueInvalid"],
      ["spec.selector", "FieldValueInvalid"],
    ],
    message:
      /\[spec\.selector: Invalid value: "object": `selector` not auto-generated, .*, spec\.selector: Invalid value: "object": field is immutable\]$/,
  },
  {
    why: "changed StorageClass parameters and provisioner",
    kind: "StorageClass",
    body: { provisioner: "a.io/one", parameters: { k: "v" } },
    update: (o) => {
      o.provisioner = "a.io/two";
      o.parameters = { k: "w" };
    },
    causes: [
      ["parameters", "FieldValueForbidden"],
      ["provisioner", "FieldValueForbidden"],
    ],
    message:
      /\[parameters: Forbidden: updates to parameters are forbidden\., provisioner: Forbidden: updates to provisioner are forbidden\.\]$/,
  },
  {
    why: "a changed EndpointSlice addressType",
    kind: "EndpointSlice",
    body: { addressType: "IPv4", endpoints: [] },
    update: (o) => {
      o.addressType = "FQDN";
    },
    causes: [["addressType", "FieldValueInvalid"]],
    message: /addressType: Invalid value: "FQDN": field is immutable$/,
  },
  {
    why: "a changed RoleBinding roleRef",
    kind: "RoleBinding",
    body: { roleRef, subjects: [user] },
    update: (o) => {
      (o.roleRef as Obj).name = "other";
    },
    causes: [["roleRef", "FieldValueInvalid"]],
    message: /roleRef: Invalid value: .*: cannot change roleRef$/,
  },
];

const NAMES: Row[] = [
  {
    why: "a Service name that is not a DNS-1035 label",
    kind: "Service",
    name: "1svc",
    body: { spec: { ports: [{ port: 80 }] } },
    causes: [["metadata.name", "FieldValueInvalid"]],
    message: /metadata\.name: Invalid value: "1svc": a DNS-1035 label must consist of/,
  },
  {
    why: "a Namespace name that is not a DNS-1123 label",
    kind: "Namespace",
    name: "a.b",
    body: {},
    causes: [["metadata.name", "FieldValueInvalid"]],
    message: /metadata\.name: Invalid value: "a\.b": a lowercase RFC 1123 label must consist of/,
  },
  {
    why: "a Lease name that is not a DNS-1123 subdomain",
    kind: "Lease",
    name: "Lease_1",
    body: { spec: {} },
    causes: [["metadata.name", "FieldValueInvalid"]],
    message: /metadata\.name: Invalid value: "Lease_1": a lowercase RFC 1123 subdomain/,
  },
  {
    why: "an Endpoints name that is not a DNS-1123 subdomain",
    kind: "Endpoints",
    name: "EP",
    body: ip("10.0.0.1"),
    causes: [["metadata.name", "FieldValueInvalid"]],
    message: /metadata\.name: Invalid value: "EP": a lowercase RFC 1123 subdomain/,
  },
];

describe("built-in kinds refuse bad input with kube's 422", () => {
  let s: InProcessServer;
  let seq = 0;
  before(async () => {
    s = await startInProcess();
    await created("Namespace", NS, {});
  });
  after(async () => {
    await s?.stop();
  });

  const manifest = (kind: string, name: string, body: Obj) => ({
    apiVersion: KINDS[kind]!.apiVersion,
    kind,
    metadata: { name },
    ...structuredClone(body),
  });

  async function created(kind: string, name: string, body: Obj): Promise<Obj> {
    const r = await s.request(
      "POST",
      KINDS[kind]!.path,
      JSON.stringify(manifest(kind, name, body)),
    );
    assert.equal(r.status, 201, r.text);
    return r.body as Obj;
  }

  for (const [table, rows] of [
    ["a missing required field", REQUIRED],
    ["Lease", LEASES],
    ["Endpoints", ENDPOINTS],
    ["an immutable field", IMMUTABLE],
    ["a name format", NAMES],
  ] as const) {
    describe(table, () => {
      for (const row of rows) {
        it(`refuses ${row.why} with ${row.causes.map((c) => c[0]).join(", ")}`, async () => {
          const name = row.name ?? `${row.kind.toLowerCase()}-${++seq}`;
          const { path } = KINDS[row.kind]!;
          let send = () =>
            s.request("POST", path, JSON.stringify(manifest(row.kind, name, row.body)));
          if (row.update) {
            const stored = await created(row.kind, name, row.body);
            row.update(stored);
            send = () => s.request("PUT", `${path}/${name}`, JSON.stringify(stored));
          }
          const status = await expectRefused(s, `${row.kind} ${row.why}`, send, {
            code: 422,
            reason: "Invalid",
            message: row.message,
            fields: row.causes.map((c) => c[0]),
          });
          assert.equal(status.details?.kind, row.kind);
          assert.deepEqual(
            status.details?.causes?.map((c) => c.reason),
            row.causes.map((c) => c[1]),
          );
        });
      }
    });
  }

  it("takes Endpoints on Hearth's loopback pod addresses, defaulting the protocol to TCP", async () => {
    const ep = await created("Endpoints", "pods", {
      subsets: [{ addresses: [{ ip: "127.1.0.7", nodeName: "node-1" }], ports: [{ port: 8080 }] }],
    });
    assert.deepEqual((ep.subsets as Obj[])[0]!.ports, [{ port: 8080, protocol: "TCP" }]);
  });

  it("takes a Lease with a positive duration, zero transitions and a known strategy", async () => {
    const spec = {
      holderIdentity: "h",
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
      strategy: "OldestEmulationVersion",
      preferredHolder: "p",
    };
    const lease = await created("Lease", "ok", { spec });
    assert.deepEqual(lease.spec, spec);
  });
});
