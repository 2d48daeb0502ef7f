/**
 * Kubeconfig files: reading the current (or a named) context into a ClientConfig,
 * and writing a minimal one that kubectl accepts. Paths inside a kubeconfig are
 * relative to the file's directory, as kubectl resolves them.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse, stringify } from "yaml";
import { isObject } from "../api/index.js";
import type { ClientConfig } from "./transport.js";

export interface ParseKubeconfigOptions {
  /** Context to use instead of `current-context`. */
  context?: string;
  /** Directory that relative file paths are resolved against; default: the process's cwd. */
  baseDir?: string;
}

/** Reads the selected context's cluster and user; referenced files are read too. */
export async function parseKubeconfig(
  text: string,
  opts: ParseKubeconfigOptions = {},
): Promise<ClientConfig> {
  const doc: unknown = parse(text);
  if (!isObject(doc)) throw new Error("cannot read kubeconfig: it is not a YAML mapping");
  const contextName = opts.context ?? doc["current-context"];
  if (typeof contextName !== "string" || contextName === "") {
    throw new Error("cannot read kubeconfig: no current-context is set and none was given");
  }
  const context = named(doc, "contexts", "context", contextName);
  const clusterName = context.cluster;
  if (typeof clusterName !== "string") {
    throw new Error(`cannot read kubeconfig: context "${contextName}" names no cluster`);
  }
  const cluster = named(doc, "clusters", "cluster", clusterName);
  const user = typeof context.user === "string" ? named(doc, "users", "user", context.user) : {};
  if (typeof cluster.server !== "string" || cluster.server === "") {
    throw new Error(`cannot read kubeconfig: cluster "${clusterName}" has no server`);
  }
  const files = (p: string) =>
    readFile(isAbsolute(p) ? p : resolve(opts.baseDir ?? ".", p), "utf8");
  const material = async (
    section: Record<string, unknown>,
    data: string,
    file: string,
  ): Promise<string | undefined> => {
    const inline = str(section[data]);
    if (inline) return Buffer.from(inline, "base64").toString("utf8");
    const path = str(section[file]);
    return path ? await files(path) : undefined;
  };
  const config: ClientConfig = { server: cluster.server };
  const caPem = await material(cluster, "certificate-authority-data", "certificate-authority");
  const certPem = await material(user, "client-certificate-data", "client-certificate");
  const keyPem = await material(user, "client-key-data", "client-key");
  const tokenFile = str(user.tokenFile);
  const token = str(user.token) ?? (tokenFile ? (await files(tokenFile)).trim() : undefined);
  if (caPem) config.caPem = caPem;
  if (certPem) config.certPem = certPem;
  if (keyPem) config.keyPem = keyPem;
  if (token) config.token = token;
  if (cluster["insecure-skip-tls-verify"] === true) config.insecure = true;
  return config;
}

export async function loadKubeconfig(path: string, context?: string): Promise<ClientConfig> {
  const text = await readFile(path, "utf8");
  return parseKubeconfig(text, {
    baseDir: dirname(resolve(path)),
    ...(context ? { context } : {}),
  });
}

export interface KubeconfigSpec {
  server: string;
  caPem?: string;
  token?: string;
  certPem?: string;
  keyPem?: string;
  insecure?: boolean;
  /** Names the context and the cluster; default `hearth`. */
  contextName?: string;
  /** Default `admin`. */
  userName?: string;
}

/** A kubeconfig with one cluster, one user and one context, made current. */
export function kubeconfigYaml(spec: KubeconfigSpec): string {
  const contextName = spec.contextName ?? "hearth";
  const userName = spec.userName ?? "admin";
  const b64 = (pem: string) => Buffer.from(pem, "utf8").toString("base64");
  const cluster: Record<string, unknown> = { server: spec.server };
  if (spec.caPem) cluster["certificate-authority-data"] = b64(spec.caPem);
  if (spec.insecure) cluster["insecure-skip-tls-verify"] = true;
  const user: Record<string, unknown> = {};
  if (spec.token) user.token = spec.token;
  if (spec.certPem) user["client-certificate-data"] = b64(spec.certPem);
  if (spec.keyPem) user["client-key-data"] = b64(spec.keyPem);
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: contextName, cluster }],
    users: [{ name: userName, user }],
    contexts: [{ name: contextName, context: { cluster: contextName, user: userName } }],
    "current-context": contextName,
    preferences: {},
  });
}

/** Writes `kubeconfigYaml(spec)` readable by its owner only, as it holds credentials. */
export async function writeKubeconfig(path: string, spec: KubeconfigSpec): Promise<void> {
  await writeFile(path, kubeconfigYaml(spec), { mode: 0o600 });
  await chmod(path, 0o600);
}

/** The `inner` mapping of the entry called `name` in the list `doc[list]`. */
function named(
  doc: Record<string, unknown>,
  list: string,
  inner: string,
  name: string,
): Record<string, unknown> {
  const entries = Array.isArray(doc[list]) ? doc[list] : [];
  const entry = entries.find((e: unknown) => isObject(e) && e.name === name);
  if (!isObject(entry)) {
    throw new Error(`cannot read kubeconfig: ${inner} "${name}" is not in ${list}`);
  }
  const value = entry[inner];
  return isObject(value) ? value : {};
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}
