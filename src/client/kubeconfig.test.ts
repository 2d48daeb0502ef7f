/** Kubeconfig reading and writing, including that kubectl accepts what we write. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { parse } from "yaml";
import { kubeconfigYaml, loadKubeconfig, parseKubeconfig, writeKubeconfig } from "./kubeconfig.js";

const CA = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
const b64 = (s: string) => Buffer.from(s).toString("base64");

async function hasKubectl(): Promise<boolean> {
  try {
    await promisify(execFile)("kubectl", ["version", "--client"]);
    return true;
  } catch {
    return false;
  }
}

describe("kubeconfig", () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "hearth-kubeconfig-"));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips server, CA and token through a file only its owner can read", async () => {
    const path = join(dir, "admin.kubeconfig");
    await writeKubeconfig(path, { server: "https://127.0.0.1:6443", caPem: CA, token: "t0k" });
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(await loadKubeconfig(path), {
      server: "https://127.0.0.1:6443",
      caPem: CA,
      token: "t0k",
    });
  });

  it("writes the layout kubectl expects", () => {
    const doc = parse(
      kubeconfigYaml({ server: "https://h:1", caPem: CA, token: "t", contextName: "dev" }),
    );
    assert.deepEqual(doc, {
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        { name: "dev", cluster: { server: "https://h:1", "certificate-authority-data": b64(CA) } },
      ],
      users: [{ name: "admin", user: { token: "t" } }],
      contexts: [{ name: "dev", context: { cluster: "dev", user: "admin" } }],
      "current-context": "dev",
      preferences: {},
    });
  });

  it("reads files relative to the kubeconfig's directory, and a named context", async () => {
    await writeFile(join(dir, "ca.crt"), CA);
    await writeFile(join(dir, "client.crt"), "CERT");
    await writeFile(join(dir, "client.key"), "KEY");
    await writeFile(join(dir, "token"), "from-file\n");
    const text = `
apiVersion: v1
kind: Config
current-context: inline
clusters:
- name: files
  cluster: { server: "https://files:6443", certificate-authority: ca.crt }
- name: inline
  cluster: { server: "https://inline:6443", insecure-skip-tls-verify: true }
users:
- name: cert-user
  user: { client-certificate: client.crt, client-key: ${join(dir, "client.key")} }
- name: data-user
  user: { client-certificate-data: ${b64("CERT2")}, client-key-data: ${b64("KEY2")}, tokenFile: token }
contexts:
- name: files
  context: { cluster: files, user: cert-user }
- name: inline
  context: { cluster: inline, user: data-user }
`;
    const path = join(dir, "multi.kubeconfig");
    await writeFile(path, text);
    assert.deepEqual(await loadKubeconfig(path), {
      server: "https://inline:6443",
      certPem: "CERT2",
      keyPem: "KEY2",
      token: "from-file",
      insecure: true,
    });
    assert.deepEqual(await loadKubeconfig(path, "files"), {
      server: "https://files:6443",
      caPem: CA,
      certPem: "CERT",
      keyPem: "KEY",
    });
  });

  it("says what is missing", async () => {
    await assert.rejects(parseKubeconfig("apiVersion: v1\n"), /no current-context is set/);
    await assert.rejects(parseKubeconfig("- a\n"), /not a YAML mapping/);
    await assert.rejects(
      parseKubeconfig("current-context: x\ncontexts: []\n"),
      /context "x" is not in contexts/,
    );
    const noServer = `current-context: c
contexts: [{ name: c, context: { cluster: k } }]
clusters: [{ name: k, cluster: {} }]
`;
    await assert.rejects(parseKubeconfig(noServer), /cluster "k" has no server/);
  });

  it("is accepted by kubectl", async (t) => {
    if (!(await hasKubectl())) {
      t.skip("kubectl is not installed");
      return;
    }
    const path = join(dir, "kubectl.kubeconfig");
    await writeKubeconfig(path, { server: "https://127.0.0.1:6443", caPem: CA, token: "tk" });
    const { stdout } = await promisify(execFile)("kubectl", [
      "config",
      "view",
      "--raw",
      "-o",
      "json",
      "--kubeconfig",
      path,
    ]);
    const view = JSON.parse(stdout);
    assert.equal(view["current-context"], "hearth");
    assert.equal(view.clusters[0].cluster.server, "https://127.0.0.1:6443");
    assert.equal(view.clusters[0].cluster["certificate-authority-data"], b64(CA));
    assert.equal(view.users[0].user.token, "tk");
  });
});
