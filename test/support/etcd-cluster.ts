/**
 * Helpers for end-to-end tests of EtcdClusters under a real `hearth up`: its
 * address ranges, the manifest of a cluster (its five TLS Secrets named after it), waiting for it
 * to be Ready, certificate files from its Secrets (or a fresh client
 * certificate with any CN, issued from its CA Secret with src/pki), the real
 * etcdctl over TLS through a ClusterIP, and what is left of a cluster after
 * its deletion.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { issueLeaf } from "../../src/pki/index.js";
import { type Hearth, type RunResult, run, waitFor } from "./hearth-process.js";
import { testNetwork } from "./test-network.js";

/**
 * `hearth up` flags for a test that runs EtcdClusters: a pod CIDR and a
 * service CIDR of its own (testNetwork). The operator's Services take the
 * lowest free ClusterIPs, so two hearths on one range at once would both
 * want its first address.
 */
export function etcdHearthArgs(): string[] {
  return testNetwork().args;
}

export interface ClusterOptions {
  namespace?: string;
  replicas: number;
  size?: string;
  auth?: boolean;
  options?: Record<string, string | number>;
}

/** The Secret names of cluster `name`: CA, server, client (CN root), peer CA, peer. */
export function tlsSecrets(name: string) {
  return {
    ca: `${name}-ca-tls`,
    server: `${name}-server-tls`,
    client: `${name}-client-tls`,
    peerCa: `${name}-peer-ca-tls`,
    peer: `${name}-peer-tls`,
  };
}

export function etcdClusterObject(name: string, o: ClusterOptions) {
  const s = tlsSecrets(name);
  return {
    apiVersion: "etcd.hearth.io/v1alpha1",
    kind: "EtcdCluster",
    metadata: { name, namespace: o.namespace ?? "default" },
    spec: {
      replicas: o.replicas,
      storage: { size: o.size ?? "1Gi" },
      tls: {
        client: {
          caSecretRef: { name: s.ca },
          serverSecretRef: { name: s.server },
          clientSecretRef: { name: s.client },
        },
        peer: { caSecretRef: { name: s.peerCa }, secretRef: { name: s.peer } },
      },
      ...(o.auth ? { auth: { enabled: true } } : {}),
      ...(o.options ? { options: o.options } : {}),
    },
  };
}

export async function waitClusterReady(
  h: Hearth,
  name: string,
  namespace = "default",
  timeoutS = 90,
) {
  await h.kubectlOk(
    [
      "wait",
      "-n",
      namespace,
      "--for=condition=Ready",
      `etcdcluster/${name}`,
      `--timeout=${timeoutS}s`,
    ],
    { timeoutMs: (timeoutS + 10) * 1000 },
  );
}

export async function jsonpath(h: Hearth, args: string[], path: string): Promise<string> {
  return h.kubectlOk(["get", ...args, "-o", `jsonpath=${path}`]);
}

export interface CertFiles {
  dir: string;
  cacert: string;
  cert: string;
  key: string;
}

async function secretData(h: Hearth, secret: string, namespace: string) {
  const s = JSON.parse(await h.kubectlOk(["get", "secret", "-n", namespace, secret, "-o", "json"]));
  const pem = (k: string) => Buffer.from(s.data[k] as string, "base64").toString();
  return { cert: pem("tls.crt"), key: pem("tls.key"), ca: pem("ca.crt") };
}

function writeFiles(ca: string, cert: string, key: string): CertFiles {
  const dir = mkdtempSync(join(tmpdir(), "hearth-etcd-certs-"));
  const files = {
    dir,
    cacert: join(dir, "ca.crt"),
    cert: join(dir, "tls.crt"),
    key: join(dir, "tls.key"),
  };
  writeFileSync(files.cacert, ca);
  writeFileSync(files.cert, cert);
  writeFileSync(files.key, key, { mode: 0o600 });
  return files;
}

/** The files of a TLS Secret (`ca.crt`, `tls.crt`, `tls.key`) in a new temp dir. */
export async function secretFiles(
  h: Hearth,
  secret: string,
  namespace = "default",
): Promise<CertFiles> {
  const d = await secretData(h, secret, namespace);
  return writeFiles(d.ca, d.cert, d.key);
}

/** A client certificate with CN `cn`, issued from the CA in Secret `caSecret`, as files. */
export async function issueClientFiles(
  h: Hearth,
  caSecret: string,
  cn: string,
  namespace = "default",
): Promise<CertFiles> {
  const ca = await secretData(h, caSecret, namespace);
  const leaf = await issueLeaf(
    { certPem: ca.cert, keyPem: ca.key },
    { commonName: cn, usage: ["client"] },
  );
  return writeFiles(ca.cert, leaf.certPem, leaf.keyPem);
}

export function removeFiles(...files: (CertFiles | undefined)[]): void {
  for (const f of files) if (f) rmSync(f.dir, { recursive: true, force: true });
}

/** The real etcdctl against `endpoint` with `files` (no client certificate when `cert` is false). */
export function etcdctl(
  endpoint: string,
  files: CertFiles,
  args: string[],
  opts: { cert?: boolean; timeoutMs?: number } = {},
): Promise<RunResult> {
  const tls = [
    `--cacert=${files.cacert}`,
    ...(opts.cert === false ? [] : [`--cert=${files.cert}`, `--key=${files.key}`]),
  ];
  return run(
    "etcdctl",
    ["--endpoints", endpoint, "--dial-timeout=3s", "--command-timeout=5s", ...tls, ...args],
    { timeoutMs: opts.timeoutMs ?? 20_000 },
  );
}

/** etcdctl until it exits 0 (the proxy forwards once the Service has a ready endpoint). */
export async function etcdctlOk(
  endpoint: string,
  files: CertFiles,
  args: string[],
  timeoutMs = 30_000,
): Promise<string> {
  let last: RunResult | undefined;
  try {
    const r = await waitFor(
      `etcdctl ${args.join(" ")}`,
      async () => {
        last = await etcdctl(endpoint, files, args);
        return last.code === 0 ? last : undefined;
      },
      timeoutMs,
    );
    return r.stdout;
  } catch (e) {
    throw new Error(`${(e as Error).message}; last: ${last?.stderr ?? ""}`);
  }
}

/** Everything of cluster `name` still in the API (by its label), as `kind/name` lines. */
export async function clusterLeftovers(
  h: Hearth,
  name: string,
  namespace = "default",
): Promise<string> {
  return (
    await h.kubectlOk([
      "get",
      "pods,pvc,svc,secrets,etcdmembers",
      "-n",
      namespace,
      "-l",
      `etcd.hearth.io/cluster=${name}`,
      "-o",
      "name",
    ])
  ).trim();
}
