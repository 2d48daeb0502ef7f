/**
 * Request bodies captured from the real kubectl v1.32.4 (`kubectl create …` against a
 * recording server; Content-Type application/vnd.kubernetes.protobuf), each with the
 * JSON the same command prints with `--dry-run=client -o json`.
 */

export interface KubectlVector {
  command: string;
  /** The POST path, query dropped. */
  path: string;
  /** The protobuf body, base64. */
  body: string;
  json: Record<string, unknown>;
}

export const KUBECTL_VECTORS: KubectlVector[] = [
  {
    command: "kubectl create configmap c1 --from-literal=a=1 --from-literal=b=two -n default",
    path: "/api/v1/namespaces/default/configmaps",
    body: "azhzAAoPCgJ2MRIJQ29uZmlnTWFwEi0KGQoCYzESABoHZGVmYXVsdCIAKgAyADgAQgASBgoBYRIBMRIICgFiEgN0d28aACIA",
    json: {
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "c1", namespace: "default", creationTimestamp: null },
      data: { a: "1", b: "two" },
    },
  },
  {
    command:
      "kubectl create configmap c2 --from-file=hello.txt --from-file=bin.dat -n team-a --save-config",
    path: "/api/v1/namespaces/team-a/configmaps",
    body: "azhzAAoPCgJ2MRIJQ29uZmlnTWFwErECCoUCCgJjMhIAGgZ0ZWFtLWEiACoAMgA4AEIAYuoBCjBrdWJlY3RsLmt1YmVybmV0ZXMuaW8vbGFzdC1hcHBsaWVkLWNvbmZpZ3VyYXRpb24StQF7ImtpbmQiOiJDb25maWdNYXAiLCJhcGlWZXJzaW9uIjoidjEiLCJtZXRhZGF0YSI6eyJuYW1lIjoiYzIiLCJuYW1lc3BhY2UiOiJ0ZWFtLWEiLCJjcmVhdGlvblRpbWVzdGFtcCI6bnVsbH0sImRhdGEiOnsiaGVsbG8udHh0IjoiaGVsbG9cbiJ9LCJiaW5hcnlEYXRhIjp7ImJpbi5kYXQiOiJBQUgrLzJKcGJnPT0ifX0KEhMKCWhlbGxvLnR4dBIGaGVsbG8KGhIKB2Jpbi5kYXQSBwAB/v9iaW4aACIA",
    json: {
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: {
        name: "c2",
        namespace: "team-a",
        creationTimestamp: null,
        annotations: {
          "kubectl.kubernetes.io/last-applied-configuration":
            '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c2","namespace":"team-a","creationTimestamp":null},"data":{"hello.txt":"hello\\n"},"binaryData":{"bin.dat":"AAH+/2Jpbg=="}}\n',
        },
      },
      data: { "hello.txt": "hello\n" },
      binaryData: { "bin.dat": "AAH+/2Jpbg==" },
    },
  },
  {
    command: "kubectl create secret generic s1 --from-literal=p=secret",
    path: "/api/v1/namespaces/default/secrets",
    body: "azhzAAoMCgJ2MRIGU2VjcmV0EiMKEgoCczESABoAIgAqADIAOABCABILCgFwEgZzZWNyZXQaABoAIgA=",
    json: {
      kind: "Secret",
      apiVersion: "v1",
      metadata: { name: "s1", creationTimestamp: null },
      data: { p: "c2VjcmV0" },
    },
  },
  {
    command:
      "kubectl create secret generic s2 --from-file=bin.dat --type=example.com/custom -n team-a",
    path: "/api/v1/namespaces/team-a/secrets",
    body: "azhzAAoMCgJ2MRIGU2VjcmV0EkIKGAoCczISABoGdGVhbS1hIgAqADIAOABCABISCgdiaW4uZGF0EgcAAf7/YmluGhJleGFtcGxlLmNvbS9jdXN0b20aACIA",
    json: {
      kind: "Secret",
      apiVersion: "v1",
      metadata: { name: "s2", namespace: "team-a", creationTimestamp: null },
      data: { "bin.dat": "AAH+/2Jpbg==" },
      type: "example.com/custom",
    },
  },
  {
    command:
      "kubectl create secret docker-registry reg1 --docker-server=r.example.com --docker-username=u --docker-password=pw",
    path: "/api/v1/namespaces/default/secrets",
    body: "azhzAAoMCgJ2MRIGU2VjcmV0EpsBChQKBHJlZzESABoAIgAqADIAOABCABJjChEuZG9ja2VyY29uZmlnanNvbhJOeyJhdXRocyI6eyJyLmV4YW1wbGUuY29tIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicHciLCJhdXRoIjoiZFRwd2R3PT0ifX19Gh5rdWJlcm5ldGVzLmlvL2RvY2tlcmNvbmZpZ2pzb24aACIA",
    json: {
      kind: "Secret",
      apiVersion: "v1",
      metadata: { name: "reg1", creationTimestamp: null },
      data: {
        ".dockerconfigjson":
          "eyJhdXRocyI6eyJyLmV4YW1wbGUuY29tIjp7InVzZXJuYW1lIjoidSIsInBhc3N3b3JkIjoicHciLCJhdXRoIjoiZFRwd2R3PT0ifX19",
      },
      type: "kubernetes.io/dockerconfigjson",
    },
  },
  {
    command: "kubectl create namespace n1",
    path: "/api/v1/namespaces",
    body: "azhzAAoPCgJ2MRIJTmFtZXNwYWNlEhoKEgoCbjESABoAIgAqADIAOABCABIAGgIKABoAIgA=",
    json: {
      kind: "Namespace",
      apiVersion: "v1",
      metadata: { name: "n1", creationTimestamp: null },
      spec: {},
      status: {},
    },
  },
  {
    command: "kubectl create serviceaccount sa1",
    path: "/api/v1/namespaces/default/serviceaccounts",
    body: "azhzAAoUCgJ2MRIOU2VydmljZUFjY291bnQSFQoTCgNzYTESABoAIgAqADIAOABCABoAIgA=",
    json: {
      kind: "ServiceAccount",
      apiVersion: "v1",
      metadata: { name: "sa1", creationTimestamp: null },
    },
  },
  {
    command: "kubectl create configmap c3 --from-literal=k=v --append-hash",
    path: "/api/v1/namespaces/default/configmaps",
    body: "azhzAAoPCgJ2MRIJQ29uZmlnTWFwEicKHQoNYzMtOG1kNDg4Nmg1NxIAGgAiACoAMgA4AEIAEgYKAWsSAXYaACIA",
    json: {
      kind: "ConfigMap",
      apiVersion: "v1",
      metadata: { name: "c3-8md4886h57", creationTimestamp: null },
      data: { k: "v" },
    },
  },
];
