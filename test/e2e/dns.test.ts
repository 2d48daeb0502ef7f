/**
 * Cluster DNS as a pod sees it (issue 15): `hearth up` with a resolv.conf of
 * the test's whose nameserver is a DNS server of the test's on a loopback
 * address (the host's upstream, so nothing leaves the machine), and busybox
 * pods. Names with dots go through the libc resolver (busybox `wget`, which
 * applies the search list and ndots:5; busybox `nslookup` applies it to
 * dotless names only), record types through `nslookup` with FQDNs: a
 * ClusterIP Service by short name, `<svc>.<ns>` and FQDN, also from another
 * namespace; a headless Service's endpoints and a pod with
 * hostname+subdomain; SRV for named ports; PTR for a ClusterIP and a pod
 * address; NXDOMAIN for an unknown Service; names outside the cluster
 * forwarded upstream, its NXDOMAIN and SERVFAIL passed on at once. And each
 * pod's /etc/resolv.conf per dnsPolicy (ClusterFirst, Default, None with
 * dnsConfig), its /etc/hosts and FQDN hostname; kube-dns out of tenants'
 * reach (RBAC) and put back by the platform when edited or deleted. Commands run through CRI
 * ExecSync (test/support/cri-exec.ts). Skips unless root with containerd
 * and the built images.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decode, encode } from "dns-packet";
import { buildZone, DnsServer } from "../../src/node/index.js";
import { PodExec } from "../support/cri-exec.js";
import { withCriHearth } from "../support/cri-hearth.js";
import { criSkipReason } from "../support/cri-node.js";
import { type Hearth, waitFor } from "../support/hearth-process.js";

const POD_CIDR = "10.235.0.0/24";
const SERVICE_CIDR = "10.255.0.0/24";
const KUBE_DNS_IP = "10.255.0.10";
/** The test's upstream: a loopback address of its own, port 53 (resolv.conf has no ports). */
const UPSTREAM = `127.53.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

const busybox = (name: string, extra = "", labels = "{}", ns = "default") => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${ns}, labels: ${labels}}
spec:
  terminationGracePeriodSeconds: 0
  containers: [{name: c, image: "busybox:1.35", command: [sleep, "3600"]}]
${extra}`;

/** A busybox httpd answering `text` on port 80. */
const server = (name: string, text: string, extra = "", labels = "{}", ns = "default") =>
  busybox(name, extra, labels, ns).replace(
    'command: [sleep, "3600"]',
    `command: [sh, -c, 'mkdir -p /www && echo ${text} > /www/index.html && exec httpd -f -p 80 -h /www']`,
  );

const OBJECTS = [
  `apiVersion: v1
kind: Namespace
metadata: {name: other}`,
  server("web", "hello-from-web", "", "{app: web}"),
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
  selector: {app: db}
  ports: [{name: http, port: 80}]`,
  `apiVersion: v1
kind: Service
metadata: {name: peers}
spec:
  clusterIP: None
  selector: {app: peer}
  ports: [{name: pg, port: 5432}]`,
  server("peer-0", "i-am-peer-0", "  hostname: peer-0\n  subdomain: peers\n", "{app: peer}"),
  server(
    "peer-1",
    "i-am-peer-1",
    "  hostname: peer-1\n  subdomain: peers\n  setHostnameAsFQDN: true\n",
    "{app: peer}",
  ),
  busybox("client"),
  server("elsewhere", "hello-from-db", "", "{app: db}", "other"),
  busybox("hostdns", "  dnsPolicy: Default\n"),
  busybox(
    "nonedns",
    "  dnsPolicy: None\n  dnsConfig: {nameservers: [192.0.2.1], searches: [x.example], options: [{name: ndots, value: '2'}, {name: edns0}]}\n",
  ),
].join("\n---\n");

/** The upstream: A 192.0.2.53 for upstream.example, SERVFAIL for broken.example, else NXDOMAIN. */
const upstream = new DnsServer({
  zone: () => buildZone("upstream.invalid", [], []),
  forward: async (q) => {
    const p = decode(q);
    const name = p.questions?.[0]?.name ?? "";
    const known = name === "upstream.example" && p.questions?.[0]?.type === "A";
    return encode({
      type: "response",
      id: p.id ?? 0,
      flags: known ? 0 : name === "broken.example" ? 2 : 3,
      questions: p.questions ?? [],
      answers: known ? [{ name, type: "A", ttl: 30, data: "192.0.2.53" }] : [],
    });
  },
});

const esc = (s: string) => s.replaceAll(".", "\\.");

describe("cluster DNS on containers", { skip: criSkipReason() }, () => {
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

  test("pods resolve Services, endpoints, SRV, PTR and outside names; resolv.conf per dnsPolicy", async (t) => {
    const opts = {
      prefix: "hearth-dns-",
      podCIDR: POD_CIDR,
      serviceCIDR: SERVICE_CIDR,
      extraArgs: ["--resolv-conf", join(dir, "resolv.conf")],
    };
    await withCriHearth(opts, async (h, dataDir) => {
      const pods = await PodExec.connect(dataDir);
      try {
        const ips = await setUp(h, pods);
        await t.test("ClusterIP Service by short name, <svc>.<ns>, FQDN", () => byName(pods, ips));
        await t.test("another namespace", () => otherNamespace(pods, ips));
        await t.test("headless endpoints, hostname+subdomain", () => headless(pods, ips));
        await t.test("SRV, PTR, NXDOMAIN", () => recordTypes(pods, ips));
        await t.test("outside names forwarded, errors passed on fast", () => outside(pods));
        await t.test("resolv.conf per dnsPolicy, /etc/hosts, FQDN hostname", () =>
          podFiles(pods, ips),
        );
        await t.test("the platform puts kube-dns back when it is edited or deleted", () =>
          keptByPlatform(h, pods, ips),
        );
      } finally {
        pods.close();
      }
    });
  });
});

interface Ips {
  web: string;
  db: string;
  peer0: string;
  peer1: string;
}

/** The kube-dns Service's fields at `jsonpath`, or undefined while it is not there. */
async function kubeDns(h: Hearth, jsonpath: string): Promise<string | undefined> {
  const r = await h.kubectl([
    "get",
    "service",
    "-n",
    "kube-system",
    "kube-dns",
    "-o",
    `jsonpath=${jsonpath}`,
  ]);
  return r.code === 0 ? r.stdout : undefined;
}

async function setUp(h: Hearth, pods: PodExec): Promise<Ips> {
  const service = await waitFor(
    "the kube-dns Service",
    () => kubeDns(h, "{.spec.clusterIP} {.spec.ports[*].name} {.spec.ports[*].protocol}"),
    30_000,
  );
  assert.equal(service, `${KUBE_DNS_IP} dns dns-tcp UDP TCP`);
  await h.kubectlOk(["apply", "-f", "-"], { input: OBJECTS });
  for (const ns of ["default", "other"])
    await h.kubectlOk(
      ["wait", "-n", ns, "--for=condition=Ready", "pod", "--all", "--timeout=120s"],
      {
        timeoutMs: 130_000,
      },
    );
  const jsonpath = (kind: string, name: string, path: string, ns = "default") =>
    h.kubectlOk(["get", kind, name, "-n", ns, "-o", `jsonpath={${path}}`]);
  const ips = {
    web: await jsonpath("service", "web", ".spec.clusterIP"),
    db: await jsonpath("service", "db", ".spec.clusterIP", "other"),
    peer0: await jsonpath("pod", "peer-0", ".status.podIP"),
    peer1: await jsonpath("pod", "peer-1", ".status.podIP"),
  };
  // The headless Service's endpoints follow the pods' readiness: wait for both.
  await waitFor(
    "the headless Service's two endpoints",
    async () => {
      const r = await pods.exec("client", ["nslookup", "peers.default.svc.cluster.local"]);
      return r.output.includes(ips.peer0) && r.output.includes(ips.peer1) ? true : undefined;
    },
    60_000,
  );
  return ips;
}

/** `nslookup ARGS` in the client pod; its output, which must match `want`. */
async function nslookup(pods: PodExec, args: string[], want: RegExp): Promise<string> {
  const { output } = await pods.exec("client", ["nslookup", ...args]);
  assert.match(output, want, `nslookup ${args.join(" ")}`);
  return output;
}

async function byName(pods: PodExec, ips: Ips): Promise<void> {
  // getaddrinfo with the search list: every spelling reaches the web pod through its ClusterIP.
  for (const name of ["web", "web.default", "web.default.svc", "web.default.svc.cluster.local"]) {
    assert.equal(await fetched(pods, "client", `http://${name}/`), "hello-from-web", name);
  }
  const fqdn = new RegExp(
    `Name:\\s+web\\.default\\.svc\\.cluster\\.local\\s+Address:\\s+${esc(ips.web)}`,
  );
  await nslookup(pods, ["web"], fqdn);
  await nslookup(pods, ["web.default.svc.cluster.local"], fqdn);
  await nslookup(
    pods,
    ["-type=a", "kube-dns.kube-system.svc.cluster.local"],
    new RegExp(esc(KUBE_DNS_IP)),
  );
}

/** What `wget -q -O- URL` in the pod fetched (its exit code must be 0). */
async function fetched(pods: PodExec, pod: string, url: string, ns = "default"): Promise<string> {
  return (await pods.execOk(pod, ["timeout", "5", "wget", "-q", "-O-", url], ns)).trim();
}

async function otherNamespace(pods: PodExec, ips: Ips): Promise<void> {
  await nslookup(pods, ["db.other.svc.cluster.local"], new RegExp(`Address:\\s+${esc(ips.db)}`));
  assert.equal(await fetched(pods, "client", "http://db.other/"), "hello-from-db");
  // From the other namespace: its own Services by short name, default's by <svc>.<ns>.
  assert.equal(await fetched(pods, "elsewhere", "http://db/", "other"), "hello-from-db");
  assert.equal(await fetched(pods, "elsewhere", "http://web.default/", "other"), "hello-from-web");
  const short = await pods.exec(
    "elsewhere",
    ["timeout", "3", "wget", "-q", "-O-", "http://web/"],
    "other",
  );
  assert.notEqual(short.code, 0, "web is default's: no web in other's search domains");
}

async function headless(pods: PodExec, ips: Ips): Promise<void> {
  const out = await nslookup(pods, ["peers.default.svc.cluster.local"], new RegExp(esc(ips.peer0)));
  assert.match(out, new RegExp(esc(ips.peer1)));
  await nslookup(
    pods,
    ["peer-0.peers.default.svc.cluster.local"],
    new RegExp(`peer-0\\.peers\\.default\\.svc\\.cluster\\.local\\s+Address:\\s+${esc(ips.peer0)}`),
  );
  await nslookup(
    pods,
    ["peer-1.peers.default.svc.cluster.local"],
    new RegExp(`Address:\\s+${esc(ips.peer1)}`),
  );
  // Through the search list, the pod itself (the headless name's A is its address).
  assert.equal(await fetched(pods, "client", "http://peer-0.peers/"), "i-am-peer-0");
  assert.equal(await fetched(pods, "client", "http://peer-1.peers.default/"), "i-am-peer-1");
}

async function recordTypes(pods: PodExec, ips: Ips): Promise<void> {
  await nslookup(
    pods,
    ["-type=srv", "_http._tcp.web.default.svc.cluster.local"],
    /0 100 80 web\.default\.svc\.cluster\.local/,
  );
  const srv = await nslookup(
    pods,
    ["-type=srv", "_pg._tcp.peers.default.svc.cluster.local"],
    /0 \d+ 5432 peer-0\.peers\.default\.svc\.cluster\.local/,
  );
  assert.match(srv, /0 \d+ 5432 peer-1\.peers\.default\.svc\.cluster\.local/);
  await nslookup(pods, [ips.web], /name = web\.default\.svc\.cluster\.local/);
  await nslookup(pods, [ips.peer0], /name = peer-0\.peers\.default\.svc\.cluster\.local/);
  const nx = await pods.exec("client", ["nslookup", "nope.default.svc.cluster.local"]);
  assert.notEqual(nx.code, 0);
  assert.match(nx.output, /NXDOMAIN/);
  const noPort = await pods.exec("client", [
    "nslookup",
    "-type=srv",
    "_nope._tcp.web.default.svc.cluster.local",
  ]);
  assert.notEqual(noPort.code, 0, noPort.output);
}

async function outside(pods: PodExec): Promise<void> {
  await nslookup(pods, ["upstream.example"], /Address:\s+192\.0\.2\.53/);
  for (const [name, rcode] of [
    ["nosuch.example", /NXDOMAIN/],
    ["broken.example", /SERVFAIL/],
  ] as const) {
    const started = Date.now();
    const r = await pods.exec("client", ["nslookup", name]);
    assert.notEqual(r.code, 0, name);
    assert.match(r.output, rcode, name);
    assert.ok(Date.now() - started < 3_000, `${name} answered in ${Date.now() - started} ms`);
  }
}

async function podFiles(pods: PodExec, ips: Ips): Promise<void> {
  const resolv = (pod: string, ns = "default") => pods.execOk(pod, ["cat", "/etc/resolv.conf"], ns);
  const client = await resolv("client");
  assert.match(client, new RegExp(`^nameserver ${esc(KUBE_DNS_IP)}$`, "m"));
  assert.match(
    client,
    /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local corp\.example$/m,
  );
  assert.match(client, /^options ndots:5$/m);
  const other = await resolv("elsewhere", "other");
  assert.match(
    other,
    /^search other\.svc\.cluster\.local svc\.cluster\.local cluster\.local corp\.example$/m,
  );
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
    new RegExp(
      `^${esc(ips.peer0)}\\tpeer-0\\.peers\\.default\\.svc\\.cluster\\.local\\tpeer-0$`,
      "m",
    ),
  );
  assert.equal((await pods.execOk("peer-0", ["hostname"])).trim(), "peer-0");
  assert.equal(
    (await pods.execOk("peer-1", ["hostname"])).trim(),
    "peer-1.peers.default.svc.cluster.local",
  );
}

async function keptByPlatform(h: Hearth, pods: PodExec, ips: Ips): Promise<void> {
  // Only the platform (and the cluster's admin) writes kube-system: not a tenant's
  // super-admins, nor its service accounts.
  const admin = await h.kubectl(["auth", "can-i", "patch", "services", "-n", "kube-system"]);
  assert.equal(admin.stdout.trim(), "yes", "the question is one the admin gets yes to");
  for (const who of [
    ["--as=alice", "--as-group=tenant-root-super-admin"],
    ["--as=system:serviceaccount:tenant-root:default"],
  ])
    for (const verb of ["update", "patch", "delete"])
      for (const what of ["services", "endpointslices.discovery.k8s.io"]) {
        const r = await h.kubectl(["auth", "can-i", verb, what, "-n", "kube-system", ...who]);
        assert.equal(
          r.stdout.trim(),
          "no",
          `${who.join(" ")} may not ${verb} ${what} in kube-system`,
        );
      }
  const sliceAddress = () =>
    h.kubectl([
      "get",
      "endpointslice",
      "-n",
      "kube-system",
      "kube-dns-hearth",
      "-o",
      "jsonpath={.endpoints[0].addresses[0]}",
    ]);
  const gateway = (await sliceAddress()).stdout;
  assert.equal(gateway, "10.235.0.1", "the endpoint is the pod bridge's gateway");
  await h.kubectlOk([
    "patch",
    "endpointslice",
    "-n",
    "kube-system",
    "kube-dns-hearth",
    "--type=json",
    "-p",
    '[{"op":"replace","path":"/endpoints/0/addresses/0","value":"10.235.0.250"}]',
  ]);
  await waitFor(
    "the slice's address put back",
    async () => (await sliceAddress()).stdout === gateway,
    30_000,
  );
  await h.kubectlOk(["delete", "service", "-n", "kube-system", "kube-dns"]);
  await waitFor(
    "kube-dns made again at its address",
    async () => (await kubeDns(h, "{.spec.clusterIP}")) === KUBE_DNS_IP,
    30_000,
  );
  await waitFor(
    "pods resolve again",
    async () => {
      const r = await pods.exec("client", ["nslookup", "web.default.svc.cluster.local"]);
      return r.output.includes(ips.web);
    },
    30_000,
  );
}
