/**
 * Hand-built vectors for what kubectl's create commands never set: each body was
 * encoded by protobufjs from kube's own generated.proto files (an encoder independent
 * of ours), and each expected object was written by hand from the Go types' JSON tags.
 */

export interface HandVector {
  name: string;
  /** The protobuf body with its `k8s\x00` envelope, base64. */
  body: string;
  json: Record<string, unknown>;
}

export const HAND_VECTORS: HandVector[] = [
  {
    name: "ConfigMap with every ObjectMeta field",
    body: "azhzAAoPCgJ2MRIJQ29uZmlnTWFwEpMDCvkCCgJjbRIDY20tGgNuczEiJC9hcGkvdjEvbmFtZXNwYWNlcy9uczEvY29uZmlnbWFwcy9jbSokNmYxZTJkM2MtMDAwMC00MDAwLTgwMDAtMDAwMDAwMDAwMDAxMgI0MjgDQgkIgOLPqgYQ9ANKBgjY5s+qBlAeWg0KBHRpZXISBWZyb250WgoKA2FwcBIDd2ViYhYKEGV4YW1wbGUuY29tL25vdGUSAmhpaiUKClJlcGxpY2FTZXQaA3JzMSIFdS1yczEqB2FwcHMvdjEwATgAahAKCkRlcGxveW1lbnQaAmQxcg5leGFtcGxlLmNvbS9mMXIOZXhhbXBsZS5jb20vZjKKAVkKGWt1YmVjdGwtY2xpZW50LXNpZGUtYXBwbHkSBlVwZGF0ZRoCdjEiBgiA4s+qBjIIRmllbGRzVjE6HgoceyJmOmRhdGEiOnsiLiI6e30sImY6YSI6e319fYoBGQoEY3RybBIFQXBwbHkaAnYxQgZzdGF0dXMSBgoBYRIBMRoLCgNiaW4SBAABAv8gABoAIgA=",
    json: {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: {
        name: "cm",
        generateName: "cm-",
        namespace: "ns1",
        selfLink: "/api/v1/namespaces/ns1/configmaps/cm",
        uid: "6f1e2d3c-0000-4000-8000-000000000001",
        resourceVersion: "42",
        generation: 3,
        creationTimestamp: "2023-11-14T22:13:20Z",
        deletionTimestamp: "2023-11-14T22:23:20Z",
        deletionGracePeriodSeconds: 30,
        labels: { app: "web", tier: "front" },
        annotations: { "example.com/note": "hi" },
        ownerReferences: [
          {
            apiVersion: "apps/v1",
            kind: "ReplicaSet",
            name: "rs1",
            uid: "u-rs1",
            controller: true,
            blockOwnerDeletion: false,
          },
          { apiVersion: "", kind: "Deployment", name: "d1", uid: "" },
        ],
        finalizers: ["example.com/f1", "example.com/f2"],
        managedFields: [
          {
            manager: "kubectl-client-side-apply",
            operation: "Update",
            apiVersion: "v1",
            time: "2023-11-14T22:13:20Z",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:data": { ".": {}, "f:a": {} } },
          },
          { manager: "ctrl", operation: "Apply", apiVersion: "v1", subresource: "status" },
        ],
      },
      immutable: false,
      data: { a: "1" },
      binaryData: { bin: "AAEC/w==" },
    },
  },
  {
    name: "Secret with bytes data, stringData, type, immutable",
    body: "azhzAAoMCgJ2MRIGU2VjcmV0EksKCAoBcxoDbnMxEg8KB3Rscy5jcnQSBGNlcnQSCQoFZW1wdHkSABoRa3ViZXJuZXRlcy5pby90bHMiDgoFZXh0cmESBXBsYWluKAEaACIA",
    json: {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s", namespace: "ns1", creationTimestamp: null },
      immutable: true,
      data: { empty: "", "tls.crt": "Y2VydA==" },
      stringData: { extra: "plain" },
      type: "kubernetes.io/tls",
    },
  },
  {
    name: "Namespace terminating, with finalizers and conditions",
    body: "azhzAAoPCgJ2MRIJTmFtZXNwYWNlEssBCicKAm4yWiEKG2t1YmVybmV0ZXMuaW8vbWV0YWRhdGEubmFtZRICbjISDAoKa3ViZXJuZXRlcxqRAQoLVGVybWluYXRpbmcSYgofTmFtZXNwYWNlRGVsZXRpb25Db250ZW50RmFpbHVyZRIFRmFsc2UiBgiA4s+qBioOQ29udGVudERlbGV0ZWQyIEFsbCBjb250ZW50IHN1Y2Nlc3NmdWxseSBkZWxldGVkEh4KHE5hbWVzcGFjZUZpbmFsaXplcnNSZW1haW5pbmcaACIA",
    json: {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: {
        name: "n2",
        creationTimestamp: null,
        labels: { "kubernetes.io/metadata.name": "n2" },
      },
      spec: { finalizers: ["kubernetes"] },
      status: {
        phase: "Terminating",
        conditions: [
          {
            type: "NamespaceDeletionContentFailure",
            status: "False",
            lastTransitionTime: "2023-11-14T22:13:20Z",
            reason: "ContentDeleted",
            message: "All content successfully deleted",
          },
          { type: "NamespaceFinalizersRemaining", status: "", lastTransitionTime: null },
        ],
      },
    },
  },
  {
    name: "Namespace with an empty message",
    body: "azhzAAoPCgJ2MRIJTmFtZXNwYWNlEgAaACIA",
    json: {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { creationTimestamp: null },
      spec: {},
      status: {},
    },
  },
  {
    name: "ServiceAccount with secrets, imagePullSecrets, automount",
    body: "azhzAAoUCgJ2MRIOU2VydmljZUFjY291bnQSTwoKCgNzYTIaA25zMRIpCgZTZWNyZXQSA25zMRoJc2EyLXRva2VuIgJ1MSoCdjEyATc6BGRhdGESBxoFb3RoZXIaCQoHcmVnY3JlZBoAIAAaACIA",
    json: {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "sa2", namespace: "ns1", creationTimestamp: null },
      secrets: [
        {
          kind: "Secret",
          namespace: "ns1",
          name: "sa2-token",
          uid: "u1",
          apiVersion: "v1",
          resourceVersion: "7",
          fieldPath: "data",
        },
        { name: "other" },
      ],
      imagePullSecrets: [{ name: "regcred" }, {}],
      automountServiceAccountToken: false,
    },
  },
  {
    name: "Event with every field",
    body: "azhzAAoLCgJ2MRIFRXZlbnQS4QEKEwoIcG9kMS4xN2EaB2RlZmF1bHQSOgoDUG9kEgdkZWZhdWx0GgRwb2QxIgV1LXBvZCoCdjEyAzEwMDoUc3BlYy5jb250YWluZXJze2FwcH0aBlB1bGxlZCITU3VjY2Vzc2Z1bGx5IHB1bGxlZCoRCgdrdWJlbGV0EgZub2RlLTEyBgiA4s+qBjoGCLziz6oGQAJKBk5vcm1hbFILCIDiz6oGEJWa7zpaDQgCEgkIvOLPqgYQiCdiB1B1bGxpbmdqDgoETm9kZRoGbm9kZS0xcgdrdWJlbGV0egZub2RlLTEaACIA",
    json: {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "pod1.17a", namespace: "default", creationTimestamp: null },
      involvedObject: {
        kind: "Pod",
        namespace: "default",
        name: "pod1",
        uid: "u-pod",
        apiVersion: "v1",
        resourceVersion: "100",
        fieldPath: "spec.containers{app}",
      },
      reason: "Pulled",
      message: "Successfully pulled",
      source: { component: "kubelet", host: "node-1" },
      firstTimestamp: "2023-11-14T22:13:20Z",
      lastTimestamp: "2023-11-14T22:14:20Z",
      count: 2,
      type: "Normal",
      eventTime: "2023-11-14T22:13:20.123456Z",
      series: { count: 2, lastObservedTime: "2023-11-14T22:14:20.000005Z" },
      action: "Pulling",
      related: { kind: "Node", name: "node-1" },
      reportingComponent: "kubelet",
      reportingInstance: "node-1",
    },
  },
  {
    name: "Event with only the required fields",
    body: "azhzAAoLCgJ2MRIFRXZlbnQSKAoMCgFlGgdkZWZhdWx0Eg8KCUNvbmZpZ01hcBoCYzEaB0NyZWF0ZWQaACIA",
    json: {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "e", namespace: "default", creationTimestamp: null },
      involvedObject: { kind: "ConfigMap", name: "c1" },
      reason: "Created",
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: "",
      reportingInstance: "",
    },
  },
  {
    name: "Lease with every spec field (MicroTime)",
    body: "azhzAAofChZjb29yZGluYXRpb24uazhzLmlvL3YxEgVMZWFzZRJqCh0KDmt1YmUtc2NoZWR1bGVyGgtrdWJlLXN5c3RlbRJJCgpub2RlLTFfYWJjEA8aDAiA4s+qBhD/k+vcAyIJCIriz6oGEOgHKAAyFk9sZGVzdEVtdWxhdGlvblZlcnNpb246Bm5vZGUtMhoAIgA=",
    json: {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "kube-scheduler", namespace: "kube-system", creationTimestamp: null },
      spec: {
        holderIdentity: "node-1_abc",
        leaseDurationSeconds: 15,
        acquireTime: "2023-11-14T22:13:20.999999Z",
        renewTime: "2023-11-14T22:13:30.000001Z",
        leaseTransitions: 0,
        strategy: "OldestEmulationVersion",
        preferredHolder: "node-2",
      },
    },
  },
  {
    name: "Lease with no spec",
    body: "azhzAAofChZjb29yZGluYXRpb24uazhzLmlvL3YxEgVMZWFzZRIFCgMKAWwaACIA",
    json: {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "l", creationTimestamp: null },
      spec: {},
    },
  },
  {
    name: "DeleteOptions (v1) with every field",
    body: "azhzAAoTCgJ2MRINRGVsZXRlT3B0aW9ucxIgCAASBwoCdTESATUYACIKRm9yZWdyb3VuZCoDQWxsMAEaACIA",
    json: {
      apiVersion: "v1",
      kind: "DeleteOptions",
      gracePeriodSeconds: 0,
      preconditions: { uid: "u1", resourceVersion: "5" },
      orphanDependents: false,
      propagationPolicy: "Foreground",
      dryRun: ["All"],
      ignoreStoreReadErrorWithClusterBreakingPotential: true,
    },
  },
  {
    name: "DeleteOptions (meta.k8s.io/v1), negative grace, empty preconditions",
    body: "azhzAAofCg5tZXRhLms4cy5pby92MRINRGVsZXRlT3B0aW9ucxIZCPv//////////wESACIKQmFja2dyb3VuZBoAIgA=",
    json: {
      apiVersion: "meta.k8s.io/v1",
      kind: "DeleteOptions",
      gracePeriodSeconds: -5,
      preconditions: {},
      propagationPolicy: "Background",
    },
  },
  {
    name: "DeleteOptions (coordination.k8s.io/v1), empty",
    body: "azhzAAonChZjb29yZGluYXRpb24uazhzLmlvL3YxEg1EZWxldGVPcHRpb25zEgAaACIA",
    json: { apiVersion: "coordination.k8s.io/v1", kind: "DeleteOptions" },
  },
];
