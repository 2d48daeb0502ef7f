/**
 * The Etcd app and tenant module under a real `hearth up`, with kubectl and
 * etcdctl as a user would. A Tenant with `etcd: true` installs the Etcd app
 * `etcd` in its namespace (here the app is created first with one replica:
 * the Tenant's module app carries no values and leaves the user's alone); it
 * becomes Ready on the operator's EtcdCluster; the DataStore and the defrag
 * CronJob exist; etcdctl with the client certificate from `etcd-client-tls`
 * works through the `etcd-client` ClusterIP; the app scales to 3; a Job from
 * the CronJob finds the Service through its service-link variable and runs
 * `hearth etcd-defrag` on every member, the leader last; a child tenant's
 * values point at the etcd. Bad input is refused with the field named and
 * nothing changed. Turning `etcd` off uninstalls it and leaves no claim,
 * volume, directory, TLS Secret, DataStore or process behind; so does deleting
 * a Tenant with etcd (3 members by default) with a kill -9 of `hearth up` in
 * the middle of its module's uninstall, after a restart.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parse } from "yaml";
import type { KubeObject } from "../../src/api/types.js";
import { etcdHearthArgs } from "../support/etcd-cluster.js";
import { ETCDCTL_BIN } from "../support/etcd-process.js";
import { type Hearth, run, startHearth, waitFor } from "../support/hearth-process.js";
import { podProcesses, stopAndClean } from "../support/node-pods.js";
import { podSkipReason } from "../support/test-network.js";

const NS = "tenant-alpha";
const TLS_SECRETS = [
  "etcd-ca-tls",
  "etcd-peer-ca-tls",
  "etcd-server-tls",
  "etcd-peer-tls",
  "etcd-client-tls",
];

const manifest = (kind: string, name: string, namespace: string, spec: object) =>
  JSON.stringify({
    apiVersion: "apps.cozystack.io/v1alpha1",
    kind,
    metadata: { name, namespace },
    spec,
  });

describe("the Etcd app under hearth up", { skip: podSkipReason() }, () => {
  let h: Hearth;
  let certDir: string;
  const dataDir = mkdtempSync(join(tmpdir(), "hearth-etcd-app-"));
  const cidrs = etcdHearthArgs();
  /** Starts `hearth up` on `dataDir` (again, after a kill -9), with the same pod and service CIDRs. */
  const start = async () => {
    h = await startHearth({
      dataDir,
      extraArgs: [...cidrs, "--root-host", "example.org"],
      timeoutMs: 60_000,
    });
  };

  before(async () => {
    await start();
    certDir = mkdtempSync(join(tmpdir(), "hearth-etcd-app-certs-"));
  });
  after(async () => {
    await stopAndClean(h);
    rmSync(dataDir, { recursive: true, force: true });
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  const json = async <T extends KubeObject = KubeObject>(args: string[]): Promise<T> =>
    JSON.parse(await h.kubectlOk([...args, "-o", "json"])) as T;
  const items = async (args: string[]) =>
    (await json<KubeObject & { items: KubeObject[] }>(args)).items;
  const absent = async (args: string[]) => {
    const r = await h.kubectl(["get", ...args]);
    return r.code !== 0 && /NotFound/.test(r.stderr);
  };
  /** Turns the Tenant alpha's etcd module on or off, as a user does. */
  const setEtcd = (on: boolean) =>
    h.kubectlOk([
      "patch",
      "tenants.apps.cozystack.io",
      "alpha",
      "-n",
      "tenant-root",
      "--type=merge",
      "-p",
      JSON.stringify({ spec: { etcd: on } }),
    ]);
  /** `kubectl wait` for the app's Ready; on a timeout the error shows the app and its EtcdCluster. */
  const appReady = async (seconds: number) => {
    const args = ["wait", "--for=condition=Ready", "etcds.apps.cozystack.io/etcd", "-n", NS];
    const r = await h.kubectl([...args, `--timeout=${seconds}s`], {
      timeoutMs: (seconds + 10) * 1000,
    });
    if (r.code === 0) return;
    const state = await h.kubectl([
      "get",
      "etcds.apps.cozystack.io,etcdclusters",
      "-n",
      NS,
      "-o",
      "yaml",
    ]);
    assert.fail(`the Etcd app is not Ready after ${seconds}s: ${r.stderr}\n${state.stdout}`);
  };
  /** `kubectl wait` for a Job's Complete; on a timeout the error shows the Job, its pods and their logs. */
  const jobComplete = async (name: string, seconds: number) => {
    const args = ["wait", "--for=condition=Complete", `job/${name}`, "-n", NS];
    const r = await h.kubectl([...args, `--timeout=${seconds}s`], {
      timeoutMs: (seconds + 10) * 1000,
    });
    if (r.code === 0) return;
    const selector = ["-l", `batch.kubernetes.io/job-name=${name}`, "-n", NS];
    const job = await h.kubectl(["get", `job/${name}`, "-n", NS, "-o", "yaml"]);
    const pods = await h.kubectl(["get", "pods", ...selector, "-o", "yaml"]);
    const logs = await h.kubectl(["logs", ...selector, "--tail=-1"]);
    assert.fail(
      `job ${name} is not Complete after ${seconds}s: ${r.stderr}\n${job.stdout}\n${pods.stdout}\nlogs:\n${logs.stdout}${logs.stderr}`,
    );
  };
  /** What an installed etcd has on the machine: its volumes and its processes. */
  const footprint = async () => ({
    volumes: (await items(["get", "pv"]))
      .filter((v) => (v.spec as { claimRef?: { namespace?: string } }).claimRef?.namespace === NS)
      .map((v) => v.metadata.name!),
    processes: await podProcesses(dataDir),
  });
  const assertFreed = async (f: Awaited<ReturnType<typeof footprint>>) => {
    for (const pv of f.volumes) {
      assert.ok(await absent(["pv", pv]), `PersistentVolume ${pv}`);
      assert.equal(existsSync(join(dataDir, "volumes", pv)), false, `volume directory ${pv}`);
    }
    const alive = (await podProcesses(dataDir)).filter((p) =>
      f.processes.some((q) => q.pid === p.pid),
    );
    assert.deepEqual(alive, [], "no etcd process is left");
    assert.ok(await absent(["datastores.kamaji.clastix.io", NS]));
  };
  const values = async (namespace: string) => {
    const secret = await json(["get", "secret", "cozystack-values", "-n", namespace]);
    const data = (secret.data as Record<string, string>)["values.yaml"]!;
    return parse(Buffer.from(data, "base64").toString("utf8")) as {
      _namespace: Record<string, string>;
    };
  };

  it("installs the Etcd module of a Tenant with etcd: true and reports it Ready", async () => {
    await h.kubectlOk(["create", "-f", "-"], {
      input: manifest("Tenant", "alpha", "tenant-root", {}),
    });
    await waitFor(
      "namespace tenant-alpha",
      async () => (await h.kubectl(["get", "ns", NS])).code === 0,
    );
    await h.kubectlOk(["create", "-f", "-"], {
      input: manifest("Etcd", "etcd", NS, { replicas: 1, size: "1Gi" }),
    });
    await setEtcd(true);
    await appReady(120);
    const app = await json(["get", "etcds.apps.cozystack.io", "etcd", "-n", NS]);
    assert.equal(app.metadata.labels?.["internal.cozystack.io/tenantmodule"], "true");
    assert.equal((app.spec as { replicas: number }).replicas, 1, "the user's replicas stay");
    const cluster = await json(["get", "etcdclusters", "etcd", "-n", NS]);
    assert.equal((cluster.status as { readyMembers: number }).readyMembers, 1);
    assert.equal((await values(NS))._namespace.etcd, NS);
  });

  it("shows the member pods' WorkloadMonitor operational and WorkloadsReady from it", async () => {
    const monitor = await waitFor("the WorkloadMonitor etcd operational", async () => {
      const m = await json(["get", "workloadmonitors.cozystack.io", "etcd", "-n", NS]);
      return (m.status as { operational?: boolean } | undefined)?.operational ? m : undefined;
    });
    assert.deepEqual(monitor.spec, {
      kind: "etcd",
      type: "etcd",
      replicas: 1,
      minReplicas: 1,
      selector: {
        "app.kubernetes.io/name": "etcd",
        "app.kubernetes.io/instance": "etcd",
        "app.kubernetes.io/managed-by": "hearth-etcd-operator",
        "etcd.hearth.io/cluster": "etcd",
      },
    });
    assert.deepEqual(monitor.status, {
      operational: true,
      observedReplicas: 1,
      availableReplicas: 1,
    });
    await h.kubectlOk([
      "wait",
      "--for=condition=WorkloadsReady",
      "etcds.apps.cozystack.io/etcd",
      "-n",
      NS,
      "--timeout=30s",
    ]);
  });

  it("writes the tenant's DataStore and the defrag CronJob", async () => {
    const ds = await json(["get", "datastores.kamaji.clastix.io", NS]);
    const spec = ds.spec as Record<string, unknown> & {
      tlsConfig: Record<string, Record<string, { secretReference: Record<string, string> }>>;
    };
    assert.equal(spec.driver, "etcd");
    assert.deepEqual(spec.endpoints, [`etcd-client.${NS}.svc:2379`]);
    const ref = (o: { secretReference: Record<string, string> }) =>
      `${o.secretReference.namespace}/${o.secretReference.name}:${o.secretReference.keyPath}`;
    assert.equal(
      ref(spec.tlsConfig.certificateAuthority!.certificate!),
      `${NS}/etcd-ca-tls:tls.crt`,
    );
    assert.equal(
      ref(spec.tlsConfig.certificateAuthority!.privateKey!),
      `${NS}/etcd-ca-tls:tls.key`,
    );
    assert.equal(
      ref(spec.tlsConfig.clientCertificate!.certificate!),
      `${NS}/etcd-client-tls:tls.crt`,
    );
    assert.equal(
      ref(spec.tlsConfig.clientCertificate!.privateKey!),
      `${NS}/etcd-client-tls:tls.key`,
    );
    const cron = await json(["get", "cronjob", "etcd-defrag", "-n", NS]);
    assert.equal((cron.spec as { schedule: string }).schedule, "0 * * * *");
  });

  it("serves etcdctl with the client certificate through the etcd-client ClusterIP", async () => {
    const secret = await json(["get", "secret", "etcd-client-tls", "-n", NS]);
    const data = secret.data as Record<string, string>;
    for (const key of ["ca.crt", "tls.crt", "tls.key"])
      writeFileSync(join(certDir, key), Buffer.from(data[key]!, "base64"), { mode: 0o600 });
    const svc = await json(["get", "service", "etcd-client", "-n", NS]);
    const ip = (svc.spec as { clusterIP: string }).clusterIP;
    const etcdctl = (args: string[]) =>
      run(ETCDCTL_BIN, [
        `--endpoints=https://${ip}:2379`,
        `--cacert=${join(certDir, "ca.crt")}`,
        `--cert=${join(certDir, "tls.crt")}`,
        `--key=${join(certDir, "tls.key")}`,
        ...args,
      ]);
    const put = await etcdctl(["put", "/hello", "tenant"]);
    assert.equal(put.code, 0, put.stderr);
    const get = await etcdctl(["get", "/hello", "--print-value-only"]);
    assert.equal(get.stdout.trim(), "tenant");
    const anonymous = await run(ETCDCTL_BIN, [
      `--endpoints=https://${ip}:2379`,
      `--cacert=${join(certDir, "ca.crt")}`,
      "get",
      "/hello",
    ]);
    assert.notEqual(anonymous.code, 0, "a client without a certificate is refused");
  });

  it("scales with the app's replicas", async () => {
    await h.kubectlOk([
      "patch",
      "etcds.apps.cozystack.io",
      "etcd",
      "-n",
      NS,
      "--type=merge",
      "-p",
      '{"spec":{"replicas":3}}',
    ]);
    await waitFor(
      "three ready voters",
      async () => {
        const cluster = await json(["get", "etcdclusters", "etcd", "-n", NS]);
        const status = (cluster.status ?? {}) as {
          readyMembers?: number;
          observedGeneration?: number;
        };
        return (
          status.readyMembers === 3 && status.observedGeneration === cluster.metadata.generation
        );
      },
      120_000,
    );
    await appReady(60);
    const monitor = await waitFor("the WorkloadMonitor to count three members", async () => {
      const m = await json(["get", "workloadmonitors.cozystack.io", "etcd", "-n", NS]);
      return (m.status as { availableReplicas?: number } | undefined)?.availableReplicas === 3
        ? m
        : undefined;
    });
    assert.deepEqual(
      [
        (monitor.spec as { replicas: number }).replicas,
        (monitor.spec as { minReplicas: number }).minReplicas,
      ],
      [3, 2],
    );
  });

  it("runs hearth etcd-defrag from the CronJob on every member, the leader last", async () => {
    // The Job finds etcd-client through its service link, $(ETCD_CLIENT_SERVICE_HOST).
    await h.kubectlOk(["create", "job", "defrag-now", "--from=cronjob/etcd-defrag", "-n", NS]);
    await jobComplete("defrag-now", 90);
    const logs = await h.kubectlOk(["logs", "job/defrag-now", "-n", NS]);
    assert.match(logs, /compacted the keyspace at revision \d+|is already compacted/);
    const members = logs
      .split("\n")
      .filter((l) => /^https:\/\/[\d.]+:2379 \(member [0-9a-f]+/.test(l));
    assert.equal(members.length, 3, logs);
    for (const line of members)
      assert.match(line, /dbSize=\d+ .*dbQuota=1020054732 (skipped|defragmented)/);
    assert.deepEqual(
      members.map((l) => l.includes(", leader)")),
      [false, false, true],
      "followers first, the leader last",
    );
    await h.kubectlOk(["delete", "job", "defrag-now", "-n", NS]);
  });

  it("points a child tenant's _namespace.etcd at the nearest ancestor with etcd", async () => {
    await h.kubectlOk(["create", "-f", "-"], { input: manifest("Tenant", "beta", NS, {}) });
    const child = await waitFor("tenant-alpha-beta's values", async () => {
      const r = await h.kubectl(["get", "secret", "cozystack-values", "-n", `${NS}-beta`]);
      return r.code === 0 ? values(`${NS}-beta`) : undefined;
    });
    assert.equal(child._namespace.etcd, NS);
    const ns = await json(["get", "namespace", `${NS}-beta`]);
    assert.equal(ns.metadata.labels?.["namespace.cozystack.io/etcd"], NS);
  });

  it("refuses bad input with the field named and changes nothing", async () => {
    const before = await json(["get", "etcds.apps.cozystack.io", "etcd", "-n", NS]);
    const patch = (p: object) =>
      h.kubectl([
        "patch",
        "etcds.apps.cozystack.io",
        "etcd",
        "-n",
        NS,
        "--type=merge",
        "-p",
        JSON.stringify(p),
      ]);
    const cases: [object, RegExp][] = [
      [{ spec: { replicas: 2 } }, /spec\.replicas: Invalid value: 2: must be odd \(1, 3, 5…\)/],
      [{ spec: { replicas: -1 } }, /spec\.replicas/],
      [{ spec: { size: "abc" } }, /spec\.size/],
      [{ spec: { size: "0" } }, /spec\.size: Invalid value: "0": must be a quantity above zero/],
      [{ spec: { storageClass: "fast" } }, /spec\.storageClass: Forbidden: cannot change/],
    ];
    for (const [p, message] of cases) {
      const r = await patch(p);
      assert.notEqual(r.code, 0, JSON.stringify(p));
      assert.match(r.stderr, message);
    }
    const other = await h.kubectl(["create", "-f", "-"], {
      input: manifest("Etcd", "other", NS, {}),
    });
    assert.notEqual(other.code, 0);
    assert.match(
      other.stderr,
      /metadata\.name: Invalid value: "other": the Etcd module is installed once per tenant namespace/,
    );
    const badStore = await h.kubectl(["create", "-f", "-"], {
      input: JSON.stringify({
        apiVersion: "kamaji.clastix.io/v1alpha1",
        kind: "DataStore",
        metadata: { name: "no-client-cert" },
        spec: { driver: "etcd", endpoints: ["etcd-client.x.svc:2379"] },
      }),
    });
    assert.notEqual(badStore.code, 0);
    assert.match(badStore.stderr, /the etcd driver needs tlsConfig/);
    const afterwards = await json(["get", "etcds.apps.cozystack.io", "etcd", "-n", NS]);
    // The engine may write status meanwhile (a resync, a member's readiness), so
    // "nothing changed" is the spec and its generation, not the resourceVersion.
    assert.deepEqual(afterwards.spec, before.spec);
    assert.equal(afterwards.metadata.generation, before.metadata.generation);
    assert.ok(await absent(["datastores.kamaji.clastix.io", "no-client-cert"]));
  });

  it("uninstalls when etcd is turned off, leaving nothing behind", async () => {
    const claims = (await items(["get", "pvc", "-n", NS])).map((c) => c.metadata.name!);
    const installed = await footprint();
    assert.equal(claims.length, 3, `claims: ${claims.join(", ")}`);
    assert.equal(installed.volumes.length, 3);
    for (const pv of installed.volumes) assert.ok(existsSync(join(dataDir, "volumes", pv)));
    assert.ok(installed.processes.length >= 3);

    await setEtcd(false);
    await waitFor(
      "the Etcd app to be uninstalled",
      () => absent(["etcds.apps.cozystack.io", "etcd", "-n", NS]),
      120_000,
    );
    assert.deepEqual(await items(["get", "pvc", "-n", NS]), []);
    await assertFreed(installed);
    for (const s of TLS_SECRETS) assert.ok(await absent(["secret", s, "-n", NS]), `Secret ${s}`);
    assert.ok(await absent(["cronjob", "etcd-defrag", "-n", NS]));
    assert.ok(await absent(["etcdclusters", "etcd", "-n", NS]));
    assert.ok(await absent(["workloadmonitors.cozystack.io", "etcd", "-n", NS]));
    assert.deepEqual(await items(["get", "etcdmembers,pods", "-n", NS]), []);
    assert.equal((await values(NS))._namespace.etcd, "");
  });

  it("finishes deleting a Tenant with etcd after a kill -9 in the middle, leaving nothing", async () => {
    await setEtcd(true);
    await waitFor(
      "the module app",
      async () => !(await absent(["etcds.apps.cozystack.io", "etcd", "-n", NS])),
    );
    await appReady(120);
    const app = await json(["get", "etcds.apps.cozystack.io", "etcd", "-n", NS]);
    assert.equal((app.spec as { replicas: number }).replicas, 3, "the module's default");
    const installed = await footprint();
    assert.equal(installed.volumes.length, 3);

    await h.kubectlOk([
      "delete",
      "tenants.apps.cozystack.io",
      "alpha",
      "-n",
      "tenant-root",
      "--wait=false",
    ]);
    // Killed once the Tenant's teardown reached the module (its applications are gone).
    await waitFor(
      "the Etcd app's uninstall to start",
      async () =>
        (await json(["get", "etcds.apps.cozystack.io", "etcd", "-n", NS])).metadata
          .deletionTimestamp,
      60_000,
    );
    await h.kill9();
    await start();
    await waitFor(
      "the Tenant to be gone",
      () => absent(["tenants.apps.cozystack.io", "alpha", "-n", "tenant-root"]),
      180_000,
    );
    for (const ns of [NS, `${NS}-beta`])
      assert.ok(await absent(["namespace", ns]), `namespace ${ns}`);
    await assertFreed(installed);
    assert.deepEqual(await items(["get", "etcdclusters,etcdmembers", "-A"]), []);
  });
});
