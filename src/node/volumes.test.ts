import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { KubeObject, Pod, Volume } from "../api/index.js";
import { PodDirs } from "./pod-state.js";
import { containerMounts, prepareVolumes, VolumeNotReady } from "./volumes.js";

function configMap(data: Record<string, string>): KubeObject {
  return { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cfg" }, data };
}

function pod(volumes: Volume[]): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "default", uid: "uid-1" },
    spec: { containers: [{ name: "c", image: "sh" }], volumes },
  } as Pod;
}

describe("pod volumes stay inside their directory", () => {
  let base: string;
  let outside: string;
  let dirs: PodDirs;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "hearth-volumes-"));
    outside = join(base, "outside");
    mkdirSync(outside);
    dirs = new PodDirs(join(base, "node"));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  function prepare(volumes: Volume[], stored: KubeObject) {
    return prepareVolumes({
      pod: pod(volumes),
      dirs,
      read: async () => stored,
      runtime: { podIP: "10.0.0.2", hostIP: "10.0.0.1" },
      node: { cpu: "2", memory: "1Gi" },
    });
  }

  async function refused(volumes: Volume[], stored: KubeObject, why: RegExp) {
    await assert.rejects(prepare(volumes, stored), (e: unknown) => {
      assert.ok(e instanceof VolumeNotReady, String(e));
      assert.equal(e.reason, "FailedMount");
      assert.match(e.message, /^MountVolume\.SetUp failed for volume "v" : /);
      assert.match(e.message, why);
      return true;
    });
    assert.deepEqual(readdirSync(outside), [], "nothing is written outside the volume");
  }

  it("refuses a stored key that would leave the volume, writing nothing", async () => {
    const volumes = [{ name: "v", configMap: { name: "cfg" } }];
    await refused(volumes, configMap({ ok: "1", "../../../../../outside/x": "2" }), /invalid key/);
    assert.equal(existsSync(join(dirs.volume("uid-1", "v"), "ok")), false);
  });

  it("refuses items[].path and downwardAPI paths kubelet refuses", async () => {
    const stored = configMap({ a: "1" });
    await refused(
      [{ name: "v", configMap: { name: "cfg", items: [{ key: "a", path: "../../x" }] } }],
      stored,
      /must not contain '\.\.'/,
    );
    await refused(
      [{ name: "v", configMap: { name: "cfg", items: [{ key: "a", path: `${outside}/x` }] } }],
      stored,
      /must be relative path/,
    );
    await refused(
      [
        {
          name: "v",
          downwardAPI: {
            items: [{ path: "a/../../../x", fieldRef: { fieldPath: "metadata.name" } }],
          },
        },
      ],
      stored,
      /must not contain '\.\.'/,
    );
  });

  it("writes valid keys as files and never through a symlink planted in the volume", async () => {
    const dir = dirs.volume("uid-1", "v");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(outside, "victim"), "keep me");
    symlinkSync(join(outside, "victim"), join(dir, "app.conf"));
    symlinkSync(outside, join(dir, "nested"));
    const volumes = [
      {
        name: "v",
        configMap: {
          name: "cfg",
          items: [
            { key: "app.conf", path: "app.conf" },
            { key: "app.conf", path: "nested/app.conf" },
          ],
        },
      },
    ];
    const out = await prepare(volumes, configMap({ "app.conf": "x=1" }));
    assert.equal(out.get("v")?.path, dir);
    assert.equal(readFileSync(join(dir, "app.conf"), "utf8"), "x=1");
    assert.equal(readFileSync(join(dir, "nested/app.conf"), "utf8"), "x=1");
    assert.equal(readFileSync(join(outside, "victim"), "utf8"), "keep me");
    assert.deepEqual(readdirSync(outside), ["victim"]);
  });

  it("refuses a subPath that a symlink in the volume points outside, making nothing there", async () => {
    const out = await prepare([{ name: "v", emptyDir: {} }], configMap({}));
    const dir = out.get("v")!.path;
    symlinkSync(outside, join(dir, "escape"));
    const mount = (subPath: string) =>
      containerMounts(
        { name: "c", image: "sh", volumeMounts: [{ name: "v", mountPath: "/m", subPath }] },
        out,
      );
    assert.throws(() => mount("escape"), /leaves the volume/);
    assert.throws(() => mount("escape/made"), /leaves the volume/);
    assert.throws(() => mount("../../.."), /leaves the volume/);
    assert.deepEqual(readdirSync(outside), []);
    const inside = mount("sub/dir");
    assert.equal(inside[0]?.source, join(dir, "sub/dir"));
  });
});
