/**
 * Cluster DNS as a pod sees it (issue 15): `hearth up --runtime cri` with a
 * resolv.conf of the test's whose nameserver is a DNS server of the test's on
 * loopback (the host's upstream), and busybox pods asking with `nslookup` and
 * `wget`: a ClusterIP Service by short name, `<svc>.<ns>` and FQDN; one of
 * another namespace; a headless Service's endpoints and a pod with
 * hostname+subdomain by name; SRV for named ports; PTR for a ClusterIP and a
 * pod address; NXDOMAIN for an unknown Service; a name outside the cluster
 * forwarded upstream. And each pod's /etc/resolv.conf per dnsPolicy
 * (ClusterFirst, Default, None with dnsConfig), its /etc/hosts and its FQDN
 * hostname. Skips unless root with containerd and the built images.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decode, encode } from "dns-packet";
import { buildZone, CriClient, containerdLayout, DnsServer } from "../../src/node/index.js";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { type Hearth, waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.233.0.0/24";
const SERVICE_CIDR = "10.235.0.0/24";
const KUBE_DNS_IP = "10.235.0.10";
/** The test's upstream: a loopback address of its own, port 53 (resolv.conf has no ports). */
const UPSTREAM = `127.53.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

const busybox = (name: string, extra = "", labels = "{}") => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: ${labels}}
spec:
  terminationGracePeriodSeconds: 0
  containers: [{name: c, image: "busybox:1.35", command: [sleep, "3600"]}]
${extra}`;

const OBJECTS = [
  `apiVersion: v1
kind: Namespace
metadata: {name: other}`,
  `apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  terminationGracePeriodSeconds: 0
  containers:
  - name: c
    image: "busybox:1.35"
    command: [sh, -c, 'mkdir -p /www && echo hello-from-web > /www/index.html && exec httpd -f -p 80 -h /www']`,
  `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 80}]`,
  `apiVersion: v1
kind: Service
metadata: {name: db, namespace: other}
spec:
  ports: [{name: pg, port: 5432}]`,
  `apiVersion: v1
kind: Service
metadata: {name: peers}
spec:
  clusterIP: None
  selector: {app: peer}
  ports: [{name: pg, port: 5432}]`,
  busybox("peer-0", "  hostname: peer-0\n  subdomain: peers\n", "{app: peer}"),
  busybox(
    "peer-1",
    "  hostname: peer-1\n  subdomain: peers\n  setHostnameAsFQDN: true\n",
    "{app: peer}",
  ),
  busybox("client"),
  busybox("hostdns", "  dnsPolicy: Default\n"),
  busybox(
    "nonedns",
    "  dnsPolicy: None\n  dnsConfig: {nameservers: [192.0.2.1], searches: [x.example], options: [{name: ndots, value: '2'}, {name: edns0}]}\n",
  ),
].join("\n---\n");

/** The upstream: A 192.0.2.53 for upstream.example, NXDOMAIN for the rest. */
const upstream = new DnsServer({
  zone: () => buildZone("upstream.invalid", [], []),
  forward: async (q) => {
    const p = decode(q);
    const name = p.questions?.[0]?.name ?? "";
    const known = name === "upstream.example" && p.questions?.[0]?.type === "A";
    return encode({
      type: "response",
      id: p.id ?? 0,
      flags: known ? 0 : 3,
      questions: p.questions ?? [],
      answers: known ? [{ name, type: "A", ttl: 30, data: "192.0.2.53" }] : [],
    });
  },
});

/**
 * Runs `cmd` in the pod's container through CRI's ExecSync (Hearth serves no
 * `pods/exec` yet, so `kubectl exec` cannot): what `crictl exec` does.
 */
class Pods {
  private constructor(private readonly cri: CriClient) {}
  static async connect(dataDir: string): Promise<Pods> {
    return new Pods(await CriClient.connect(containerdLayout(dataDir).socket));
  }
  async exec(pod: string, cmd: string[]): Promise<{ code: number; stdout: string }> {
    const [c] = await this.cri.listContainers(
      {
        labelSelector: { "io.kubernetes.pod.name": pod, "io.kubernetes.pod.namespace": "default" },
        state: { state: "CONTAINER_RUNNING" },
      },
      {},
    );
    assert.ok(c, `a running container of pod ${pod}`);
    const r = await this.cri.execSync(c.id, cmd, 20, {});
    return { code: r.exitCode, stdout: `${r.stdout.toString()}${r.stderr.toString()}` };
  }
  async execOk(pod: string, cmd: string[]): Promise<string> {
    const r = await this.exec(pod, cmd);
    assert.equal(r.code, 0, `${cmd.join(" ")} in ${pod}: ${r.stdout}`);
    return r.stdout;
  }
  close(): void {
    this.cri.close();
  }
}

/**
 * busybox's nslookup asks every search domain of a short name and exits 1
 * when one of them is NXDOMAIN, so only the output says what resolved.
 */
async function resolves(pods: Pods, args: string[], want: RegExp): Promise<string> {
  const { stdout } = await pods.exec("client", ["nslookup", ...args]);
  assert.match(stdout, want, `nslookup ${args.join(" ")}`);
  return stdout;
}

// Unfinished: see the dns branch report (the nslookup/wget checks after the first ones were not yet run green).
describe("cluster DNS on containers", {
  skip: criSkipReason() ?? "unfinished: not yet run green end to end",
}, () => {
  let dir: string;
  before(async () => {
    dir = mkdtempSync("/tmp/hearth-dns-conf-");
    writeFileSync(
      join(dir, "resolv.conf"),
      `nameserver ${UPSTREAM}\nsearch corp.example\noptions timeout:1\n`,
    );
    await upstream.listen(UPSTREAM, 53);
  });
  after(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("pods resolve Services, endpoints, SRV, PTR and outside names; resolv.conf per dnsPolicy", async () => {
    const opts = {
      prefix: "hearth-dns-",
      podCIDR: POD_CIDR,
      serviceCIDR: SERVICE_CIDR,
      extraArgs: ["--resolv-conf", join(dir, "resolv.conf")],
    };
    await withCriHearth(opts, async (h, dataDir) => {
      const pods = await Pods.connect(dataDir);
      try {
        await checks(h, pods);
      } finally {
        pods.close();
      }
    });
  });
});

async function checks(h: Hearth, pods: Pods): Promise<void> {
  const kubeDns = await waitFor(
    "the kube-dns Service",
    async () => {
      const r = await h.kubectl([
        "get",
        "service",
        "-n",
        "kube-system",
        "kube-dns",
        "-o",
        "jsonpath={.spec.clusterIP} {.spec.ports[*].name} {.spec.ports[*].protocol}",
      ]);
      return r.code === 0 ? r.stdout : undefined;
    },
    30_000,
  );
  assert.equal(kubeDns, `${KUBE_DNS_IP} dns dns-tcp UDP TCP`);
  await h.kubectlOk(["apply", "-f", "-"], { input: OBJECTS });
  await h.kubectlOk(["wait", "--for=condition=Ready", "pod", "--all", "--timeout=120s"], {
    timeoutMs: 130_000,
  });
  const jsonpath = (kind: string, name: string, path: string, ns = "default") =>
    h.kubectlOk(["get", kind, name, "-n", ns, "-o", `jsonpath={${path}}`]);
  const webIP = await jsonpath("service", "web", ".spec.clusterIP");
  const dbIP = await jsonpath("service", "db", ".spec.clusterIP", "other");
  const peer0 = await jsonpath("pod", "peer-0", ".status.podIP");
  const peer1 = await jsonpath("pod", "peer-1", ".status.podIP");
  const esc = (s: string) => s.replaceAll(".", "\\.");

  // The headless Service's endpoints follow the pods' readiness: wait for both.
  await waitFor(
    "the headless Service's two endpoints",
    async () => {
      const r = await pods.exec("client", ["nslookup", "peers.default.svc.cluster.local"]);
      return r.stdout.includes(peer0) && r.stdout.includes(peer1) ? true : undefined;
    },
    60_000,
  );
  const webFqdn = new RegExp(
    `Name:\\s+web\\.default\\.svc\\.cluster\\.local\\s+Address:\\s+${esc(webIP)}`,
  );
  await resolves(pods, ["web"], webFqdn);
  await resolves(pods, ["web.default.svc.cluster.local"], webFqdn);
  await resolves(pods, ["db.other.svc.cluster.local"], new RegExp(`Address:\\s+${esc(dbIP)}`));
  await resolves(
    pods,
    ["peer-0.peers.default.svc.cluster.local"],
    new RegExp(`peer-0\\.peers\\.default\\.svc\\.cluster\\.local\\s+Address:\\s+${esc(peer0)}`),
  );
  await resolves(
    pods,
    ["peer-1.peers.default.svc.cluster.local"],
    new RegExp(`Address:\\s+${esc(peer1)}`),
  );
  await resolves(
    pods,
    ["-type=srv", "_http._tcp.web.default.svc.cluster.local"],
    /0 100 80 web\.default\.svc\.cluster\.local/,
  );
  await resolves(
    pods,
    ["-type=srv", "_pg._tcp.peers.default.svc.cluster.local"],
    /0 100 5432 peer-0\.peers\.default\.svc\.cluster\.local/,
  );
  await resolves(pods, [webIP], /name = web\.default\.svc\.cluster\.local/);
  await resolves(pods, [peer0], /name = peer-0\.peers\.default\.svc\.cluster\.local/);
  const nx = await pods.exec("client", ["nslookup", "nope.default.svc.cluster.local"]);
  assert.notEqual(nx.code, 0);
  assert.match(nx.stdout, /NXDOMAIN/);
  await resolves(pods, ["upstream.example"], /Address:\s+192\.0\.2\.53/);
  // Names with dots through the libc resolver (busybox's nslookup applies the
  // search list to dotless names only; glibc to any with fewer than ndots:5).
  for (const name of ["web", "web.default", "web.default.svc", "web.default.svc.cluster.local"]) {
    const page = await pods.execOk("client", ["wget", "-qO-", `http://${name}/`]);
    assert.equal(page.trim(), "hello-from-web", name);
  }
  // wget says where it connects before it fails (db has no endpoints: refused).
  for (const [name, ip] of [
    ["db.other", dbIP],
    ["peer-0.peers", peer0],
  ] as const) {
    const r = await pods.exec("client", [
      "wget",
      "-T",
      "3",
      "-O",
      "/dev/null",
      `http://${name}:5432/`,
    ]);
    assert.match(r.stdout, new RegExp(`Connecting to ${esc(name)} \\(${esc(ip)}:5432\\)`), name);
  }

  const resolv = (pod: string) => pods.execOk(pod, ["cat", "/etc/resolv.conf"]);
  const client = await resolv("client");
  assert.match(client, new RegExp(`^nameserver ${esc(KUBE_DNS_IP)}$`, "m"));
  assert.match(
    client,
    /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local corp\.example$/m,
  );
  assert.match(client, /^options ndots:5$/m);
  const host = await resolv("hostdns");
  assert.match(host, new RegExp(`^nameserver ${esc(UPSTREAM)}$`, "m"));
  assert.match(host, /^search corp\.example$/m);
  assert.doesNotMatch(host, new RegExp(esc(KUBE_DNS_IP)));
  const none = await resolv("nonedns");
  assert.match(none, /^nameserver 192\.0\.2\.1$/m);
  assert.match(none, /^search x\.example$/m);
  assert.match(none, /^options ndots:2 edns0$/m);

  const hosts = await pods.execOk("peer-0", ["cat", "/etc/hosts"]);
  assert.match(hosts, /^# Kubernetes-managed hosts file\.$/m);
  assert.match(
    hosts,
    new RegExp(`^${esc(peer0)}\\tpeer-0\\.peers\\.default\\.svc\\.cluster\\.local\\tpeer-0$`, "m"),
  );
  assert.equal((await pods.execOk("peer-0", ["hostname"])).trim(), "peer-0");
  assert.equal(
    (await pods.execOk("peer-1", ["hostname"])).trim(),
    "peer-1.peers.default.svc.cluster.local",
  );
}
