/**
 * Fixtures of the etcd operator's envtest tests: an apiserver in this process
 * with the operator's CRDs and a namespace, Services given ClusterIPs from a
 * /24 of their own on loopback (127.250–254.x, away from the pod ranges and
 * the other tests' etcds), the test node (test/support/etcd-node.ts) on a
 * Manager of its own that runs the member pods' etcd for real, and the
 * operator on another Manager (restartable, to play a crash; optionally with
 * the garbage collector, which cluster deletion needs). Readers of the end
 * state: the cluster, its EtcdMembers, what the real etcdctl lists as members.
 * No Service rules run: a member's Service address is where its etcd itself
 * listens, and the client Service's address answers nothing (the operator
 * dials the members', etcdctl here dials a member's).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeObject } from "../../src/api/index.js";
import type { Client } from "../../src/client/index.js";
import { GarbageCollector } from "../../src/controllers/index.js";
import {
  ETCD_API_VERSION,
  ETCD_CRDS,
  type EtcdCluster,
  type EtcdMember,
  LABEL_CLUSTER,
  registerEtcdOperator,
} from "../../src/platform/operators/etcd/index.js";
import type { ManagerOptions } from "../../src/runtime/index.js";
import { type ManagerRun, runManager } from "../support/controller-run.js";
import { createNamespace, getOrGone, SECRET, waitForObject } from "../support/core-objects.js";
import { type Env, startEnv } from "../support/envtest.js";
import { etcdClusterObject, etcdctl, tlsSecrets } from "../support/etcd-cluster.js";
import { EtcdTestNode } from "../support/etcd-node.js";
import { waitFor } from "../support/hearth-process.js";

export const NS = "etcd-test";
export const CLUSTER = { apiVersion: ETCD_API_VERSION, kind: "EtcdCluster" };
export const MEMBER = { apiVersion: ETCD_API_VERSION, kind: "EtcdMember" };

export interface OperatorRunOptions extends ManagerOptions {
  /** The operator's client (default: the env's); a crashing or interfering one. */
  client?: Client;
  /** Runs the garbage collector beside it. */
  gc?: boolean;
}

/** One line of `etcdctl member list`. */
export interface EtcdListed {
  id: string;
  name: string;
  learner: boolean;
}

export interface EtcdOperatorTest {
  env: Env;
  node: EtcdTestNode;
  /** Starts the operator, stopping the one running (if any) first. */
  start(opts?: OperatorRunOptions): Promise<ManagerRun<void>>;
  /** Stops the running operator, if any. */
  stopOperator(): Promise<void>;
  createCluster(name: string, replicas: number): Promise<EtcdCluster>;
  cluster(name: string): Promise<EtcdCluster | undefined>;
  /** The cluster's EtcdMembers, oldest first. */
  members(cluster: string): Promise<EtcdMember[]>;
  /** Waits until the cluster is Ready with `replicas` ready voters. */
  waitReady(name: string, replicas: number, timeoutMs?: number): Promise<EtcdCluster>;
  /**
   * Waits until the cluster is Ready with `n` members, each a voter once in
   * etcd (no learner, no stray); answers the members' names, oldest first.
   */
  converged(name: string, n: number): Promise<string[]>;
  /** etcd's own member list, through member `through`'s Service address, by the real etcdctl. */
  etcdMembers(cluster: string, through?: string): Promise<EtcdListed[]>;
  /** The address (ClusterIP) of member `member`'s Service. */
  address(member: string): Promise<string>;
  stop(): Promise<void>;
}

const ready = (c: EtcdCluster) =>
  c.status?.conditions?.some((x) => x.type === "Ready" && x.status === "True") === true;

const byAge = (a: KubeObject, b: KubeObject) =>
  (a.metadata.creationTimestamp ?? "").localeCompare(b.metadata.creationTimestamp ?? "") ||
  a.metadata.name!.localeCompare(b.metadata.name!);

/** `node: false` runs no test node: pods stay unstarted, etcd never answers. */
export async function startEtcdOperatorTest(
  opts: { node?: boolean } = {},
): Promise<EtcdOperatorTest> {
  const serviceCidr = `127.${250 + Math.floor(Math.random() * 5)}.${1 + Math.floor(Math.random() * 250)}.0/24`;
  const env = await startEnv({ serviceCidr });
  const certs = mkdtempSync(join(tmpdir(), "hearth-etcd-ctl-"));
  const node = new EtcdTestNode(env.client);
  let nodeRun: ManagerRun<void> | undefined;
  let operator: ManagerRun<void> | undefined;
  const cleanup = async () => {
    try {
      await operator?.stop().catch(() => {});
      await nodeRun?.stop().catch(() => {});
      await node.stop();
      await env.stop();
    } finally {
      rmSync(certs, { recursive: true, force: true });
    }
  };
  try {
    for (const crd of ETCD_CRDS) await env.client.create(crd as KubeObject);
    await waitFor("the etcd CRDs served", async () => {
      await env.client.list(CLUSTER);
      await env.client.list(MEMBER);
      return true;
    });
    await createNamespace(env.client, NS);
    if (opts.node !== false) nodeRun = await runManager(env.client, (m) => node.register(m));
  } catch (e) {
    await cleanup();
    throw e;
  }

  /** The files of the cluster's client certificate (CN root) for etcdctl. */
  const clientFiles = async (cluster: string) => {
    const s = tlsSecrets(cluster);
    const secret = await env.client.get<KubeObject & { data: Record<string, string> }>({
      ...SECRET,
      namespace: NS,
      name: s.client,
    });
    const ca = await env.client.get<KubeObject & { data: Record<string, string> }>({
      ...SECRET,
      namespace: NS,
      name: s.ca,
    });
    const dir = join(certs, cluster);
    mkdirSync(dir, { recursive: true });
    const file = (name: string, b64: string) => {
      writeFileSync(join(dir, name), Buffer.from(b64, "base64"), { mode: 0o600 });
      return join(dir, name);
    };
    return {
      dir,
      cacert: file("ca.crt", ca.data["tls.crt"]!),
      cert: file("tls.crt", secret.data["tls.crt"]!),
      key: file("tls.key", secret.data["tls.key"]!),
    };
  };

  const t: EtcdOperatorTest = {
    env,
    node,
    async start(opts = {}) {
      await t.stopOperator();
      const { client = env.client, gc, ...managerOpts } = opts;
      operator = await runManager(
        client,
        (m) => {
          registerEtcdOperator(m);
          if (gc) new GarbageCollector(client, { resyncDiscoveryMs: 60_000 }).register(m);
        },
        managerOpts,
      );
      return operator;
    },
    async stopOperator() {
      const last = operator;
      operator = undefined;
      await last?.stop();
    },
    createCluster: (name, replicas) =>
      env.client.create<EtcdCluster>(
        etcdClusterObject(name, { namespace: NS, replicas }) as EtcdCluster,
      ),
    cluster: (name) => getOrGone<EtcdCluster>(env.client, { ...CLUSTER, namespace: NS, name }),
    async members(cluster) {
      const list = await env.client.list<EtcdMember>(MEMBER, {
        namespace: NS,
        labelSelector: `${LABEL_CLUSTER}=${cluster}`,
      });
      return list.items.sort(byAge);
    },
    waitReady: (name, replicas, timeoutMs = 90_000) =>
      waitForObject(
        `EtcdCluster ${name} Ready with ${replicas} voters`,
        () => t.cluster(name),
        (c) => ready(c) && c.status?.readyMembers === replicas && c.spec.replicas === replicas,
        timeoutMs,
      ),
    async converged(name, n) {
      await t.waitReady(name, n);
      const members = (await t.members(name)).map((m) => m.metadata.name!);
      assert.equal(members.length, n, `members: ${members}`);
      const listed = await waitFor(`etcd lists the ${n} members`, async () => {
        const l = await t.etcdMembers(name);
        return l.length === n ? l : undefined;
      });
      assert.deepEqual(
        listed.map((m) => [m.name, m.learner]),
        [...members].sort().map((m) => [m, false]),
      );
      return members;
    },
    async address(member) {
      const svc = await env.client.get<KubeObject & { spec: { clusterIP: string } }>({
        apiVersion: "v1",
        kind: "Service",
        namespace: NS,
        name: member,
      });
      return svc.spec.clusterIP;
    },
    async etcdMembers(cluster, through) {
      const via = through ?? (await t.members(cluster))[0]!.metadata.name!;
      const files = await clientFiles(cluster);
      const endpoint = `https://${await t.address(via)}:2379`;
      const r = await etcdctl(endpoint, files, ["member", "list"]);
      if (r.code !== 0) throw new Error(`etcdctl member list: ${r.stderr}`);
      // `<id hex>, <started|unstarted>, <name>, <peer URLs>, <client URLs>, <is learner>`
      return r.stdout
        .trim()
        .split("\n")
        .filter((l) => l)
        .map((l) => l.split(", "))
        .map((f) => ({ id: f[0]!, name: f[2]!, learner: f[5] === "true" }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
    stop: cleanup,
  };
  return t;
}
