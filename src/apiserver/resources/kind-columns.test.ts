/**
 * The cells `kubectl get` prints for the kinds whose columns have no test of
 * their own, table-driven over (kind, object, column → cell): Node, Namespace,
 * StorageClass, PersistentVolume, PersistentVolumeClaim, ConfigMap, Secret,
 * ServiceAccount, Lease and the v1 Event.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BETA_CLASS_ANNOTATION,
  DEFAULT_CLASS_ANNOTATION,
  type KubeObject,
} from "../../api/index.js";
import { builtinTypes } from "./builtin.js";
import { toTable } from "./table.js";

const TYPES = builtinTypes();

/** The row `kubectl get` shows for `o`, as column name → cell. */
function row(kind: string, o: Partial<KubeObject>, group = ""): Record<string, unknown> {
  const t = TYPES.find((x) => x.kind === kind && x.group === group);
  assert.ok(t, `no kind ${kind}`);
  const full = {
    apiVersion: "v1",
    kind,
    ...o,
    metadata: { name: "n", ...(o.metadata ?? {}) },
  } as KubeObject;
  const table = toTable(t, [full], { includeObject: "None", withHeaders: true });
  const names = (table.columnDefinitions as { name: string }[]).map((c) => c.name);
  const cells = (table.rows as { cells: unknown[] }[])[0]!.cells;
  return Object.fromEntries(names.map((n, i) => [n, cells[i]]));
}

interface Case {
  why: string;
  kind: string;
  group?: string;
  obj: Partial<KubeObject>;
  /** The cells to check (others are not compared). */
  want: Record<string, unknown>;
}

const ready = (status: string) => ({ conditions: [{ type: "Ready", status }] });

const CASES: Case[] = [
  // Node
  {
    why: "a node without a Ready condition is Unknown and has no roles",
    kind: "Node",
    obj: {},
    want: { Status: "Unknown", Roles: "<none>", Version: "<none>", "Internal-IP": "<none>" },
  },
  {
    why: "a Ready node",
    kind: "Node",
    obj: { status: ready("True") },
    want: { Status: "Ready" },
  },
  {
    why: "Ready False and Unknown both read NotReady; cordoned adds SchedulingDisabled",
    kind: "Node",
    obj: { status: ready("Unknown"), spec: { unschedulable: true } },
    want: { Status: "NotReady,SchedulingDisabled" },
  },
  {
    why: "a cordoned Ready node",
    kind: "Node",
    obj: { status: ready("True"), spec: { unschedulable: true } },
    want: { Status: "Ready,SchedulingDisabled" },
  },
  {
    why: "roles come from node-role labels and kubernetes.io/role, sorted",
    kind: "Node",
    obj: {
      metadata: {
        labels: {
          "node-role.kubernetes.io/worker": "",
          "node-role.kubernetes.io/control-plane": "",
          "kubernetes.io/role": "edge",
          "other/label": "x",
        },
      },
    },
    want: { Roles: "control-plane,edge,worker" },
  },
  {
    why: "an empty kubernetes.io/role is no role",
    kind: "Node",
    obj: { metadata: { labels: { "kubernetes.io/role": "" } } },
    want: { Roles: "<none>" },
  },
  {
    why: "addresses and node info in wide output",
    kind: "Node",
    obj: {
      status: {
        addresses: [
          { type: "Hostname", address: "h" },
          { type: "InternalIP", address: "10.0.0.2" },
          { type: "ExternalIP", address: "1.2.3.4" },
        ],
        nodeInfo: {
          kubeletVersion: "v1.31.0-hearth",
          osImage: "Debian",
          kernelVersion: "6.1",
          containerRuntimeVersion: "hearth://1",
        },
      },
    },
    want: {
      "Internal-IP": "10.0.0.2",
      "External-IP": "1.2.3.4",
      Version: "v1.31.0-hearth",
      "OS-Image": "Debian",
      "Kernel-Version": "6.1",
      "Container-Runtime": "hearth://1",
    },
  },
  // Namespace
  {
    why: "a namespace's phase",
    kind: "Namespace",
    obj: { status: { phase: "Active" } },
    want: { Status: "Active" },
  },
  { why: "a namespace without status", kind: "Namespace", obj: {}, want: { Status: "" } },
  // StorageClass
  {
    why: "a class with defaults filled in by the table",
    kind: "StorageClass",
    group: "storage.k8s.io",
    obj: { provisioner: "hearth.io/local" },
    want: {
      Name: "n",
      Provisioner: "hearth.io/local",
      ReclaimPolicy: "Delete",
      VolumeBindingMode: "Immediate",
      AllowVolumeExpansion: false,
    },
  },
  {
    why: "the default class shows (default) after its name",
    kind: "StorageClass",
    group: "storage.k8s.io",
    obj: {
      metadata: { annotations: { [DEFAULT_CLASS_ANNOTATION]: "true" } },
      reclaimPolicy: "Retain",
      volumeBindingMode: "WaitForFirstConsumer",
      allowVolumeExpansion: true,
    },
    want: {
      Name: "n (default)",
      ReclaimPolicy: "Retain",
      VolumeBindingMode: "WaitForFirstConsumer",
      AllowVolumeExpansion: true,
    },
  },
  {
    why: "the beta default annotation counts too; a false one does not",
    kind: "StorageClass",
    group: "storage.k8s.io",
    obj: {
      metadata: {
        annotations: {
          "storageclass.beta.kubernetes.io/is-default-class": "true",
          [DEFAULT_CLASS_ANNOTATION]: "false",
        },
      },
    },
    want: { Name: "n (default)" },
  },
  // PersistentVolume
  {
    why: "a bound volume",
    kind: "PersistentVolume",
    obj: {
      spec: {
        capacity: { storage: "5Gi" },
        accessModes: ["ReadWriteMany", "ReadWriteOnce"],
        persistentVolumeReclaimPolicy: "Retain",
        claimRef: { namespace: "ns", name: "data" },
        storageClassName: "fast",
        volumeMode: "Block",
      },
      status: { phase: "Bound", reason: "" },
    },
    want: {
      Capacity: "5Gi",
      "Access Modes": "RWO,RWX",
      "Reclaim Policy": "Retain",
      Status: "Bound",
      Claim: "ns/data",
      StorageClass: "fast",
      VolumeAttributesClass: "<unset>",
      Reason: "",
      VolumeMode: "Block",
    },
  },
  {
    why: "a volume being deleted, with the beta class annotation and a reason",
    kind: "PersistentVolume",
    obj: {
      metadata: {
        deletionTimestamp: "2026-01-01T00:00:00Z",
        annotations: { [BETA_CLASS_ANNOTATION]: "old" },
      },
      spec: { storageClassName: "new", volumeAttributesClassName: "gold" },
      status: { phase: "Failed", reason: "Recycling" },
    },
    want: {
      Status: "Terminating",
      Claim: "",
      StorageClass: "old",
      VolumeAttributesClass: "gold",
      Reason: "Recycling",
      Capacity: "",
    },
  },
  {
    why: "a volume with no spec",
    kind: "PersistentVolume",
    obj: {},
    want: { "Access Modes": "", VolumeMode: "<unset>", Status: "" },
  },
  // PersistentVolumeClaim
  {
    why: "a pending claim shows no capacity or modes",
    kind: "PersistentVolumeClaim",
    obj: {
      spec: { storageClassName: "fast", accessModes: ["ReadWriteOnce"] },
      status: { phase: "Pending", capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"] },
    },
    want: { Status: "Pending", Volume: "", Capacity: "", "Access Modes": "", StorageClass: "fast" },
  },
  {
    why: "a bound claim shows its volume's capacity and modes from status",
    kind: "PersistentVolumeClaim",
    obj: {
      spec: { volumeName: "pv-1", volumeMode: "Filesystem", volumeAttributesClassName: "" },
      status: {
        phase: "Bound",
        capacity: { storage: "10Gi" },
        accessModes: ["ReadOnlyMany", "ReadWriteOncePod"],
      },
    },
    want: {
      Volume: "pv-1",
      Capacity: "10Gi",
      "Access Modes": "ROX,RWOP",
      VolumeAttributesClass: "<unset>",
      VolumeMode: "Filesystem",
    },
  },
  {
    why: "a claim being deleted; the beta class annotation wins over storageClassName",
    kind: "PersistentVolumeClaim",
    obj: {
      metadata: {
        deletionTimestamp: "2026-01-01T00:00:00Z",
        annotations: { [BETA_CLASS_ANNOTATION]: "" },
      },
      spec: { storageClassName: "fast" },
      status: { phase: "Bound" },
    },
    want: { Status: "Terminating", StorageClass: "" },
  },
  // Core kinds
  {
    why: "a config map counts data and binaryData",
    kind: "ConfigMap",
    obj: { data: { a: "1" }, binaryData: { b: "AA==", c: "AA==" } },
    want: { Data: 3 },
  },
  { why: "an empty config map", kind: "ConfigMap", obj: {}, want: { Data: 0 } },
  {
    why: "a secret's type and data count",
    kind: "Secret",
    obj: { type: "kubernetes.io/tls", data: { "tls.crt": "", "tls.key": "" } },
    want: { Type: "kubernetes.io/tls", Data: 2 },
  },
  { why: "a secret with no type", kind: "Secret", obj: {}, want: { Type: "", Data: 0 } },
  {
    why: "a service account counts its secrets",
    kind: "ServiceAccount",
    obj: { secrets: [{ name: "a" }, { name: "b" }] },
    want: { Secrets: 2 },
  },
  {
    why: "a service account without secrets",
    kind: "ServiceAccount",
    obj: {},
    want: { Secrets: 0 },
  },
  {
    why: "a lease's holder",
    kind: "Lease",
    group: "coordination.k8s.io",
    obj: { spec: { holderIdentity: "node-a" } },
    want: { Holder: "node-a" },
  },
  {
    why: "a lease with no holder",
    kind: "Lease",
    group: "coordination.k8s.io",
    obj: {},
    want: { Holder: "" },
  },
  {
    why: "a v1 event: type, reason, the regarded object in lower case, message, name",
    kind: "Event",
    obj: {
      metadata: { name: "e.1" },
      type: "Warning",
      reason: "BackOff",
      involvedObject: { kind: "Pod", name: "web-0" },
      message: "Back-off restarting",
      lastTimestamp: new Date(Date.now() - 90_000).toISOString(),
    },
    want: {
      "Last Seen": "90s",
      Type: "Warning",
      Reason: "BackOff",
      Object: "pod/web-0",
      Message: "Back-off restarting",
      Name: "e.1",
    },
  },
  {
    why: "a v1 event without lastTimestamp is as old as its eventTime, or else its creation",
    kind: "Event",
    obj: {
      metadata: { creationTimestamp: new Date(Date.now() - 3 * 3600_000).toISOString() },
    },
    want: { "Last Seen": "3h", Object: "/" },
  },
];

describe("kubectl get cells per kind", () => {
  for (const c of CASES)
    it(`${c.kind}: ${c.why}`, () => {
      const got = row(c.kind, c.obj, c.group);
      for (const [column, want] of Object.entries(c.want))
        assert.deepEqual(got[column], want, `${c.kind} column ${column}`);
    });

  it("own-column kinds start with NAME and keep one AGE", () => {
    for (const [kind, group] of [
      ["StorageClass", "storage.k8s.io"],
      ["PersistentVolume", ""],
      ["PersistentVolumeClaim", ""],
    ] as const) {
      const names = Object.keys(row(kind, {}, group));
      assert.equal(names[0], "Name", kind);
      assert.equal(names.filter((n) => n === "Age").length, 1, kind);
    }
  });
});
