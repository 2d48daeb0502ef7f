/**
 * Request bodies captured from the real kubectl v1.32.4 for the workload kinds
 * (Content-Type application/vnd.kubernetes.protobuf, against a recording server).
 * Service, Job and CronJob carry the JSON the same command prints with
 * `--dry-run=client -o json`; `kubectl debug` has no dry run, so the Pod JSON was
 * checked by hand against generateNodeDebugPod and the general and sysadmin
 * profiles in kubectl v1.32.4 (the pod name ends in a random suffix).
 */
import type { KubectlVector } from "./kubectl-vectors.js";

export const KUBECTL_WORKLOAD_VECTORS: KubectlVector[] = [
  {
    command: "kubectl create service clusterip s1 --tcp=80:8080",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJmCh0KAnMxEgAaACIAKgAyADgAQgBaCQoDYXBwEgJzMRJBChsKBzgwLTgwODASA1RDUBhQIgcIABCQPxoAKAASCQoDYXBwEgJzMRoAIglDbHVzdGVySVA6AEIAUgBaAGAAaAAaAgoAGgAiAA==",
    json: {
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "s1", creationTimestamp: null, labels: { app: "s1" } },
      spec: {
        ports: [{ name: "80-8080", protocol: "TCP", port: 80, targetPort: 8080 }],
        selector: { app: "s1" },
        type: "ClusterIP",
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: "kubectl create service clusterip s2 --tcp=80:http --tcp=443 -n team-a",
    path: "/api/v1/namespaces/team-a/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRKJAQojCgJzMhIAGgZ0ZWFtLWEiACoAMgA4AEIAWgkKA2FwcBICczISXgoeCgc4MC1odHRwEgNUQ1AYUCIKCAEQABoEaHR0cCgAChgKAzQ0MxIDVENQGLsDIgcIABC7AxoAKAASCQoDYXBwEgJzMhoAIglDbHVzdGVySVA6AEIAUgBaAGAAaAAaAgoAGgAiAA==",
    json: {
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "s2", namespace: "team-a", creationTimestamp: null, labels: { app: "s2" } },
      spec: {
        ports: [
          { name: "80-http", protocol: "TCP", port: 80, targetPort: "http" },
          { name: "443", protocol: "TCP", port: 443, targetPort: 443 },
        ],
        selector: { app: "s2" },
        type: "ClusterIP",
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: "kubectl create service clusterip headless --clusterip=None --tcp=5432",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJ6CikKCGhlYWRsZXNzEgAaACIAKgAyADgAQgBaDwoDYXBwEghoZWFkbGVzcxJJChkKBDU0MzISA1RDUBi4KiIHCAAQuCoaACgAEg8KA2FwcBIIaGVhZGxlc3MaBE5vbmUiCUNsdXN0ZXJJUDoAQgBSAFoAYABoABoCCgAaACIA",
    json: {
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "headless", creationTimestamp: null, labels: { app: "headless" } },
      spec: {
        ports: [{ name: "5432", protocol: "TCP", port: 5432, targetPort: 5432 }],
        selector: { app: "headless" },
        clusterIP: "None",
        type: "ClusterIP",
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: "kubectl create service nodeport np1 --tcp=80:8080 --node-port=30080",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJqCh8KA25wMRIAGgAiACoAMgA4AEIAWgoKA2FwcBIDbnAxEkMKHQoHODAtODA4MBIDVENQGFAiBwgAEJA/GgAogOsBEgoKA2FwcBIDbnAxGgAiCE5vZGVQb3J0OgBCAFIAWgBgAGgAGgIKABoAIgA=",
    json: {
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "np1", creationTimestamp: null, labels: { app: "np1" } },
      spec: {
        ports: [{ name: "80-8080", protocol: "TCP", port: 80, targetPort: 8080, nodePort: 30080 }],
        selector: { app: "np1" },
        type: "NodePort",
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: "kubectl create service loadbalancer lb1 --tcp=443:8443",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJuCh8KA2xiMRIAGgAiACoAMgA4AEIAWgoKA2FwcBIDbGIxEkcKHQoINDQzLTg0NDMSA1RDUBi7AyIHCAAQ+0EaACgAEgoKA2FwcBIDbGIxGgAiDExvYWRCYWxhbmNlcjoAQgBSAFoAYABoABoCCgAaACIA",
    json: {
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "lb1", creationTimestamp: null, labels: { app: "lb1" } },
      spec: {
        ports: [{ name: "443-8443", protocol: "TCP", port: 443, targetPort: 8443 }],
        selector: { app: "lb1" },
        type: "LoadBalancer",
      },
      status: { loadBalancer: {} },
    },
  },
  {
    command: "kubectl create service externalname ext1 --external-name=db.example.com",
    path: "/api/v1/namespaces/default/services",
    body: "azhzAAoNCgJ2MRIHU2VydmljZRJgCiEKBGV4dDESABoAIgAqADIAOABCAFoLCgNhcHASBGV4dDESNxILCgNhcHASBGV4dDEaACIMRXh0ZXJuYWxOYW1lOgBCAFIOZGIuZXhhbXBsZS5jb21aAGAAaAAaAgoAGgAiAA==",
    json: {
      kind: "Service",
      apiVersion: "v1",
      metadata: { name: "ext1", creationTimestamp: null, labels: { app: "ext1" } },
      spec: { selector: { app: "ext1" }, type: "ExternalName", externalName: "db.example.com" },
      status: { loadBalancer: {} },
    },
  },
  {
    command: "kubectl create job j1 --image=busybox -- sh -c 'exit 0'",
    path: "/apis/batch/v1/namespaces/default/jobs",
    body: "azhzAAoPCghiYXRjaC92MRIDSm9iEooBChIKAmoxEgAaACIAKgAyADgAQgASajJoChAKABIAGgAiACoAMgA4AEIAElQSMQoCajESB2J1c3lib3gaAnNoGgItYxoGZXhpdCAwKgBCAGoAcgCAAQCIAQCQAQCiAQAaBU5ldmVyMgBCAEoAUgBYAGAAaACCAQCKAQCaAQDCAQAaCCAAKAAwADoAGgAiAA==",
    json: {
      kind: "Job",
      apiVersion: "batch/v1",
      metadata: { name: "j1", creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: {
            containers: [
              { name: "j1", image: "busybox", command: ["sh", "-c", "exit 0"], resources: {} },
            ],
            restartPolicy: "Never",
          },
        },
      },
      status: {},
    },
  },
  {
    command: "kubectl create job j2 --image=busybox:1.36 -n team-a",
    path: "/apis/batch/v1/namespaces/team-a/jobs",
    body: "azhzAAoPCghiYXRjaC92MRIDSm9iEoUBChgKAmoyEgAaBnRlYW0tYSIAKgAyADgAQgASXzJdChAKABIAGgAiACoAMgA4AEIAEkkSJgoCajISDGJ1c3lib3g6MS4zNioAQgBqAHIAgAEAiAEAkAEAogEAGgVOZXZlcjIAQgBKAFIAWABgAGgAggEAigEAmgEAwgEAGgggACgAMAA6ABoAIgA=",
    json: {
      kind: "Job",
      apiVersion: "batch/v1",
      metadata: { name: "j2", namespace: "team-a", creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: {
            containers: [{ name: "j2", image: "busybox:1.36", resources: {} }],
            restartPolicy: "Never",
          },
        },
      },
      status: {},
    },
  },
  {
    command: "kubectl create cronjob c1 --image=busybox '--schedule=*/1 * * * *' -- true",
    path: "/apis/batch/v1/namespaces/default/cronjobs",
    body: "azhzAAoTCghiYXRjaC92MRIHQ3JvbkpvYhKkAQoSCgJjMRIAGgAiACoAMgA4AEIAEosBCgsqLzEgKiAqICogKhoAKnoKEgoCYzESABoAIgAqADIAOABCABJkMmIKEAoAEgAaACIAKgAyADgAQgASThInCgJjMRIHYnVzeWJveBoEdHJ1ZSoAQgBqAHIAgAEAiAEAkAEAogEAGglPbkZhaWx1cmUyAEIASgBSAFgAYABoAIIBAIoBAJoBAMIBABoAGgAiAA==",
    json: {
      kind: "CronJob",
      apiVersion: "batch/v1",
      metadata: { name: "c1", creationTimestamp: null },
      spec: {
        schedule: "*/1 * * * *",
        jobTemplate: {
          metadata: { name: "c1", creationTimestamp: null },
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: {
                containers: [{ name: "c1", image: "busybox", command: ["true"], resources: {} }],
                restartPolicy: "OnFailure",
              },
            },
          },
        },
      },
      status: {},
    },
  },
  {
    command:
      "kubectl create cronjob c2 --image=busybox --schedule=@hourly --restart=Never -n team-a -- echo hi",
    path: "/apis/batch/v1/namespaces/team-a/cronjobs",
    body: "azhzAAoTCghiYXRjaC92MRIHQ3JvbkpvYhKmAQoYCgJjMhIAGgZ0ZWFtLWEiACoAMgA4AEIAEocBCgdAaG91cmx5GgAqegoSCgJjMhIAGgAiACoAMgA4AEIAEmQyYgoQCgASABoAIgAqADIAOABCABJOEisKAmMyEgdidXN5Ym94GgRlY2hvGgJoaSoAQgBqAHIAgAEAiAEAkAEAogEAGgVOZXZlcjIAQgBKAFIAWABgAGgAggEAigEAmgEAwgEAGgAaACIA",
    json: {
      kind: "CronJob",
      apiVersion: "batch/v1",
      metadata: { name: "c2", namespace: "team-a", creationTimestamp: null },
      spec: {
        schedule: "@hourly",
        jobTemplate: {
          metadata: { name: "c2", creationTimestamp: null },
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: {
                containers: [
                  { name: "c2", image: "busybox", command: ["echo", "hi"], resources: {} },
                ],
                restartPolicy: "Never",
              },
            },
          },
        },
      },
      status: {},
    },
  },
  {
    command: "kubectl debug node/n1 --image=busybox --profile=general",
    path: "/api/v1/namespaces/default/pods",
    body: "azhzAAoJCgJ2MRIDUG9kEswBCiYKFm5vZGUtZGVidWdnZXItbjEtbXJ3eHgSABoAIgAqADIAOABCABKPAQoSCglob3N0LXJvb3QSBQoDCgEvEkUKCGRlYnVnZ2VyEgdidXN5Ym94KgBCAEoYCglob3N0LXJvb3QQABoFL2hvc3QiADIAagByAIABAIgBAJABAKIBBEZpbGUaBU5ldmVyMgBCAEoAUgJuMVgBYAFoAYIBAIoBAJoBALIBDgoAEgZFeGlzdHMaACIAwgEAGhAKABoAIgAqADIASgBaAHIAGgAiAA==",
    json: {
      kind: "Pod",
      apiVersion: "v1",
      metadata: { name: "node-debugger-n1-mrwxx", creationTimestamp: null },
      spec: {
        volumes: [{ name: "host-root", hostPath: { path: "/" } }],
        containers: [
          {
            name: "debugger",
            image: "busybox",
            resources: {},
            volumeMounts: [{ name: "host-root", mountPath: "/host" }],
            terminationMessagePolicy: "File",
          },
        ],
        restartPolicy: "Never",
        nodeName: "n1",
        hostNetwork: true,
        hostPID: true,
        hostIPC: true,
        tolerations: [{ operator: "Exists" }],
      },
      status: {},
    },
  },
  {
    command: "kubectl debug node/n1 --image=busybox:1.36 --profile=sysadmin -- chroot /host",
    path: "/api/v1/namespaces/default/pods",
    body: "azhzAAoJCgJ2MRIDUG9kEuQBCiYKFm5vZGUtZGVidWdnZXItbjEtNW5jdHoSABoAIgAqADIAOABCABKnAQoSCglob3N0LXJvb3QSBQoDCgEvEl0KCGRlYnVnZ2VyEgxidXN5Ym94OjEuMzYaBmNocm9vdBoFL2hvc3QqAEIAShgKCWhvc3Qtcm9vdBAAGgUvaG9zdCIAMgBqAHIAegIQAYABAIgBAJABAKIBBEZpbGUaBU5ldmVyMgBCAEoAUgJuMVgBYAFoAYIBAIoBAJoBALIBDgoAEgZFeGlzdHMaACIAwgEAGhAKABoAIgAqADIASgBaAHIAGgAiAA==",
    json: {
      kind: "Pod",
      apiVersion: "v1",
      metadata: { name: "node-debugger-n1-5nctz", creationTimestamp: null },
      spec: {
        volumes: [{ name: "host-root", hostPath: { path: "/" } }],
        containers: [
          {
            name: "debugger",
            image: "busybox:1.36",
            command: ["chroot", "/host"],
            resources: {},
            volumeMounts: [{ name: "host-root", mountPath: "/host" }],
            terminationMessagePolicy: "File",
            securityContext: { privileged: true },
          },
        ],
        restartPolicy: "Never",
        nodeName: "n1",
        hostNetwork: true,
        hostPID: true,
        hostIPC: true,
        tolerations: [{ operator: "Exists" }],
      },
      status: {},
    },
  },
];
