/**
 * Built-in kinds refuse bad input at the door as kube-apiserver does, table by
 * table against the in-process server (`describeRefusals`: a 422 Invalid
 * naming each field with its reason and kube's rule, nothing written):
 * - a missing required field is validation's 422 (Go decodes an absent field
 *   as its zero value), in the kind's own words where it has them;
 * - Lease spec ranges, strategy and preferredHolder;
 * - Node taints, pod CIDRs and providerID;
 * - fields an update may not change;
 * - name formats per kind.
 * Endpoints and EndpointSlices have their own file (endpoint-refusals).
 */
import assert from "node:assert/strict";
import { type Accepted, describeRefusals, type Obj, type Row } from "../support/refusal-table.js";

const podSpec = { restartPolicy: "Never", containers: [{ name: "c", image: "i" }] };
const template = { metadata: { labels: { app: "a" } }, spec: podSpec };
const ip = (address: string) => ({
  subsets: [{ ports: [{ port: 80 }], addresses: [{ ip: address }] }],
});
const roleRef = { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "r" };
const user = { kind: "User", name: "u", apiGroup: "rbac.authorization.k8s.io" };
const endpoints = (subset: Obj) => ({ subsets: [{ ports: [{ port: 80 }], ...subset }] });

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

const taint = (key: string, effect: string) => ({ key, effect });
const NODES: Row[] = [
  {
    why: "a taint of empty effect whose key is not a label name",
    kind: "Node",
    body: { spec: { taints: [{ key: "bad key", effect: "" }] } },
    causes: [
      ["metadata.taints[0].key", "FieldValueInvalid"],
      ["metadata.taints[0].effect", "FieldValueRequired"],
    ],
    message:
      /\[metadata\.taints\[0\]\.key: Invalid value: "bad key": name part must consist of .*, metadata\.taints\[0\]\.effect: Required value\]$/,
  },
  {
    why: "an unknown taint effect",
    kind: "Node",
    body: { spec: { taints: [taint("k", "Sometimes")] } },
    causes: [["metadata.taints[0].effect", "FieldValueNotSupported"]],
    message:
      /metadata\.taints\[0\]\.effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"$/,
  },
  {
    why: "two taints of one key and effect",
    kind: "Node",
    body: {
      spec: {
        taints: [taint("k", "NoSchedule"), taint("k", "NoExecute"), taint("k", "NoSchedule")],
      },
    },
    causes: [["metadata.taints[2]", "FieldValueDuplicate"]],
    message:
      /metadata\.taints\[2\]: Duplicate value: core\.Taint\{Key:"k", Value:"", Effect:"NoSchedule", TimeAdded:<nil>\}: taints must be unique by key and effect pair$/,
  },
  {
    why: "a podCIDR that is not a CIDR (standing for podCIDRs)",
    kind: "Node",
    body: { spec: { podCIDR: "10.0.0.0/33" } },
    causes: [["spec.podCIDRs[0]", "FieldValueInvalid"]],
    message: /spec\.podCIDRs\[0\]: Invalid value: .*: must be valid CIDR$/,
  },
  {
    why: "two IPv4 podCIDRs",
    kind: "Node",
    body: { spec: { podCIDRs: ["10.0.0.0/24", "10.0.1.0/24"] } },
    causes: [["spec.podCIDRs", "FieldValueInvalid"]],
    message:
      /spec\.podCIDRs: Invalid value: .*: may specify no more than one CIDR for each IP family$/,
  },
  {
    why: "a changed providerID",
    kind: "Node",
    body: { spec: { providerID: "hearth://a" } },
    update: (o) => {
      (o.spec as Obj).providerID = "hearth://b";
    },
    causes: [["spec.providerID", "FieldValueForbidden"]],
    message:
      /spec\.providerID: Forbidden: node updates may not change providerID except from "" to valid$/,
  },
];

const IMMUTABLE: Row[] = [
  {
    why: "a changed Service clusterIP",
    kind: "Service",
    body: { spec: { ports: [{ port: 80 }] } },
    update: (o) => {
      (o.spec as Obj).clusterIP = "10.96.255.254";
      delete (o.spec as Obj).clusterIPs;
    },
    causes: [["spec.clusterIPs[0]", "FieldValueInvalid"]],
    message: /spec\.clusterIPs\[0\]: Invalid value: "10\.96\.255\.254": may not change once set$/,
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

const ACCEPTED: Accepted[] = [
  {
    why: "a Node whose pod range changes on update (its agent re-registers with --pod-cidr)",
    kind: "Node",
    body: {
      spec: {
        podCIDR: "127.1.0.0/16",
        podCIDRs: ["127.1.0.0/16"],
        taints: [taint("k", "NoExecute")],
      },
    },
    check: (stored) => {
      assert.deepEqual((stored.spec as Obj).podCIDRs, ["127.1.0.0/16"]);
    },
  },
  {
    why: "a Lease with a positive duration, zero transitions and a known strategy",
    kind: "Lease",
    body: {
      spec: {
        holderIdentity: "h",
        leaseDurationSeconds: 1,
        leaseTransitions: 0,
        strategy: "OldestEmulationVersion",
        preferredHolder: "p",
      },
    },
    check: (stored) => {
      assert.deepEqual((stored.spec as Obj).leaseTransitions, 0);
    },
  },
];

describeRefusals(
  "built-in kinds refuse bad input with kube's 422",
  [
    ["a missing required field", REQUIRED],
    ["Lease", LEASES],
    ["Node", NODES],
    ["an immutable field", IMMUTABLE],
    ["a name format", NAMES],
  ],
  ACCEPTED,
);
