/**
 * Hearth's images end to end, with the real tools: build busybox, pause and
 * etcd (from the cache after the first time), serve them from a real
 * docker-registry on a temp data dir, publish them with skopeo, read the
 * config back over the registry API, pull etcd back, unpack it with umoci and
 * run its etcd under chroot; a rebuild changes nothing; a missing image is the
 * registry's 404; a killed registry comes back; on abort nothing is left.
 * Needs root (debootstrap, chroot, umoci unpack).
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import {
  type BuildResult,
  buildImages,
  findSpec,
  imageCache,
  type Registry,
  startRegistry,
} from "../../src/images/index.js";
import { waitFor } from "../support/hearth-process.js";

const exec = promisify(execFile);
const specs = ["busybox", "pause", "etcd"].map((n) => findSpec(n)!);
const cache = imageCache();

async function inspectConfig(ref: string): Promise<{ config: Record<string, unknown> }> {
  const { stdout } = await exec("skopeo", [
    "inspect",
    "--config",
    "--tls-verify=false",
    `docker://${ref}`,
  ]);
  return JSON.parse(stdout);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("images: build, serve, pull, run", {
  skip: process.getuid?.() !== 0 && "needs root",
}, () => {
  let dir: string;
  let built: BuildResult[];
  let registry: Registry;
  const controller = new AbortController();

  before(async () => {
    built = await buildImages({ specs, log: (l) => console.log(`# ${l}`) });
    dir = mkdtempSync(join(tmpdir(), "hearth-images-"));
    registry = await startRegistry({ dataDir: dir, signal: controller.signal });
    for (const spec of specs) await registry.publish(spec, cache);
  });

  after(async () => {
    const pid = registry?.pid();
    controller.abort();
    await registry?.stopped;
    if (pid !== undefined) assert.equal(alive(pid), false, "the registry process is gone");
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves each image under library/<name>:<tag> with the manifest the cache holds", async () => {
    for (const { spec, record } of built) {
      const { stdout } = await exec("skopeo", [
        "inspect",
        "--tls-verify=false",
        `docker://${registry.address}/library/${spec.name}:${spec.tag}`,
      ]);
      assert.equal(JSON.parse(stdout).Digest, record.digest, spec.name);
    }
  });

  it("keeps the config set at build: etcd's cmd, env and ports, pause's entrypoint and user", async () => {
    const etcd = await inspectConfig(`${registry.address}/library/etcd:3.4`);
    assert.deepEqual(etcd.config.Cmd, ["/usr/local/bin/etcd"]);
    assert.deepEqual(etcd.config.Env, [
      "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    ]);
    assert.deepEqual(Object.keys(etcd.config.ExposedPorts as object).sort(), [
      "2379/tcp",
      "2380/tcp",
    ]);
    const labels = etcd.config.Labels as Record<string, string>;
    assert.equal(labels["org.opencontainers.image.version"], "3.4.23");
    const pause = await inspectConfig(`${registry.address}/library/pause:3.9`);
    assert.deepEqual(pause.config.Entrypoint, ["/pause"]);
    assert.equal(pause.config.User, "65535:65535");
    const busybox = await inspectConfig(`${registry.address}/library/busybox:1.35`);
    assert.deepEqual(busybox.config.Cmd, ["sh"]);
  });

  it("pulls etcd back, unpacks it, and its etcd runs under chroot", async () => {
    const layout = join(dir, "pulled");
    await exec("skopeo", [
      "copy",
      "--quiet",
      "--src-tls-verify=false",
      `docker://${registry.address}/library/etcd:3.4`,
      `oci:${layout}:etcd`,
    ]);
    const bundle = join(dir, "bundle");
    await exec("umoci", ["unpack", "--image", `${layout}:etcd`, bundle]);
    const rootfs = join(bundle, "rootfs");
    assert.ok(existsSync(join(rootfs, "usr/bin/etcd")));
    assert.equal(existsSync(join(rootfs, "var/lib/apt/lists/partial")), true);
    assert.deepEqual(
      readdirSync(join(rootfs, "var/lib/apt/lists")).filter((f) => f !== "partial"),
      [],
      "no apt lists in the image",
    );
    const files = async (sub: string) =>
      (await exec("find", [join(rootfs, sub), "-type", "f"])).stdout.split("\n").filter(Boolean);
    assert.deepEqual(await files("usr/share/man"), [], "no man pages");
    const docs = await files("usr/share/doc");
    assert.ok(docs.length > 0);
    assert.deepEqual(
      docs.filter((f) => !f.endsWith("/copyright")),
      [],
      "only copyright files",
    );
    const { stdout } = await exec("chroot", [rootfs, "/usr/local/bin/etcd", "--version"]);
    assert.match(stdout, /^etcd Version: 3\.4\.\d+/m);
    const sh = await exec("chroot", [join(dir, "bundle", "rootfs"), "/bin/sh", "-c", "echo ok"]);
    assert.equal(sh.stdout, "ok\n");
  });

  it("a second build with the same versions changes nothing", async () => {
    const again = await buildImages({ specs });
    for (const [i, r] of again.entries()) {
      assert.equal(r.cached, true, r.spec.name);
      assert.equal(r.record.digest, built[i]!.record.digest, r.spec.name);
    }
    assert.deepEqual(
      existsSync(cache.work) ? readdirSync(cache.work) : [],
      [],
      "no build leftovers",
    );
  });

  it("answers an image it does not hold with the registry's 404 MANIFEST_UNKNOWN", async () => {
    const res = await fetch(`http://${registry.address}/v2/library/etcd/manifests/9.9`, {
      headers: { Accept: "application/vnd.oci.image.manifest.v1+json" },
    });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { errors: { code: string; message: string }[] };
    assert.equal(body.errors[0]!.code, "MANIFEST_UNKNOWN");
    assert.equal(body.errors[0]!.message, "manifest unknown");
    await assert.rejects(inspectConfig(`${registry.address}/library/etcd:9.9`), /manifest unknown/);
  });

  it("starts the registry again when it dies, on the same address, with the same images", async () => {
    const pid = registry.pid()!;
    process.kill(pid, "SIGKILL");
    await waitFor("a new registry process", () => {
      const now = registry.pid();
      return now !== undefined && now !== pid && alive(now);
    });
    const etcd = await waitFor("etcd served again", () =>
      inspectConfig(`${registry.address}/library/etcd:3.4`),
    );
    assert.deepEqual(etcd.config.Cmd, ["/usr/local/bin/etcd"]);
  });
});
