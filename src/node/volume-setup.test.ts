/**
 * prepareVolumes as a table: what each volume source becomes on the host (the
 * files of a ConfigMap, Secret or downwardAPI volume, an emptyDir, a claim's
 * PV directory, a hostPath by its type) and why one that cannot be set up yet
 * holds the pod (VolumeNotReady with its reason and kubelet's message); and the
 * layout of a pod's directory.
 */
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { KubeObject, Pod, Volume } from "../api/index.js";
import { PodDirs } from "./pod-state.js";
import { prepareVolumes, VolumeNotReady, type VolumeReader } from "./volumes.js";

type Objects = Record<string, KubeObject>;

const obj = (kind: string, name: string, rest: Record<string, unknown>): KubeObject =>
  ({ apiVersion: "v1", kind, metadata: { name }, ...rest }) as KubeObject;

function pod(volumes: Volume[]): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns", uid: "uid-v", labels: { app: "web" } },
    spec: {
      containers: [{ name: "c", image: "sh", resources: { limits: { cpu: "2" } } }],
      volumes,
    },
  } as Pod;
}

describe("prepareVolumes", () => {
  let base: string;
  let dirs: PodDirs;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "hearth-volume-setup-"));
    dirs = new PodDirs(join(base, "node"));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const reader =
    (objects: Objects): VolumeReader =>
    async (kind, name) =>
      objects[`${kind}/${name}`];

  const prepare = (volumes: Volume[], objects: Objects = {}) =>
    prepareVolumes({
      pod: pod(volumes),
      dirs,
      read: reader(objects),
      runtime: { podIP: "127.1.0.9", hostIP: "127.0.0.1" },
      node: { cpu: "4", memory: "8Gi" },
    });

  /** The files of volume `name` on the host: path → content. */
  const filesOf = (name: string, paths: string[]) =>
    Object.fromEntries(
      paths.map((p) => [p, readFileSync(join(dirs.volume("uid-v", name), p), "utf8")]),
    );

  const cm = obj("ConfigMap", "cfg", { data: { a: "1", b: "2" } });
  const secret = obj("Secret", "s", { data: { token: Buffer.from("t0k").toString("base64") } });

  const notReady: {
    what: string;
    volume: Volume;
    objects?: Objects;
    reason: "FailedMount" | "Unbound";
    message: RegExp;
  }[] = [
    {
      what: "a missing ConfigMap",
      volume: { name: "v", configMap: { name: "cfg" } },
      reason: "FailedMount",
      message: /^MountVolume\.SetUp failed for volume "v" : configmap "cfg" not found$/,
    },
    {
      what: "a missing Secret",
      volume: { name: "v", secret: { secretName: "s" } },
      reason: "FailedMount",
      message: /: secret "s" not found$/,
    },
    {
      what: "an item naming a key the ConfigMap lacks",
      volume: { name: "v", configMap: { name: "cfg", items: [{ key: "zz", path: "z" }] } },
      objects: { "ConfigMap/cfg": cm },
      reason: "FailedMount",
      message: /configmap references non-existent config key: zz$/,
    },
    {
      what: "a claim that does not exist",
      volume: { name: "v", persistentVolumeClaim: { claimName: "data" } },
      reason: "Unbound",
      message: /^persistentvolumeclaim "data" not found$/,
    },
    {
      what: "a claim without a volume",
      volume: { name: "v", persistentVolumeClaim: { claimName: "data" } },
      objects: { "PersistentVolumeClaim/data": obj("PersistentVolumeClaim", "data", { spec: {} }) },
      reason: "Unbound",
      message: /^persistentvolumeclaim "data" is not bound$/,
    },
    {
      what: "a claim naming a volume but still Pending",
      volume: { name: "v", persistentVolumeClaim: { claimName: "data" } },
      objects: {
        "PersistentVolumeClaim/data": obj("PersistentVolumeClaim", "data", {
          spec: { volumeName: "pv1" },
          status: { phase: "Pending" },
        }),
      },
      reason: "Unbound",
      message: /is not bound$/,
    },
    {
      what: "a bound claim whose PV has no path here",
      volume: { name: "v", persistentVolumeClaim: { claimName: "data" } },
      objects: {
        "PersistentVolumeClaim/data": obj("PersistentVolumeClaim", "data", {
          spec: { volumeName: "pv1" },
          status: { phase: "Bound" },
        }),
        "PersistentVolume/pv1": obj("PersistentVolume", "pv1", { spec: { nfs: {} } }),
      },
      reason: "FailedMount",
      message:
        /^persistentvolume "pv1" of claim "data" has no hostPath or local path on this node$/,
    },
    {
      what: "a bound claim whose PV directory is missing",
      volume: { name: "v", persistentVolumeClaim: { claimName: "data" } },
      objects: {
        "PersistentVolumeClaim/data": obj("PersistentVolumeClaim", "data", {
          spec: { volumeName: "pv1" },
          status: { phase: "Bound" },
        }),
        "PersistentVolume/pv1": obj("PersistentVolume", "pv1", {
          spec: { local: { path: "/nonexistent/hearth-pv" } },
        }),
      },
      reason: "FailedMount",
      message: /volume "pv1" : host path \/nonexistent\/hearth-pv does not exist$/,
    },
    {
      what: "a hostPath of type Directory that is missing",
      volume: { name: "v", hostPath: { path: "/nonexistent/hearth-dir", type: "Directory" } },
      reason: "FailedMount",
      message: /hostPath type check failed: \/nonexistent\/hearth-dir is not a Directory$/,
    },
  ];
  for (const t of notReady)
    it(`holds the pod on ${t.what} (${t.reason})`, async () => {
      const err = await prepare([t.volume], t.objects).then(
        () => assert.fail("prepared"),
        (e: unknown) => e,
      );
      assert.ok(err instanceof VolumeNotReady, String(err));
      assert.equal(err.volume, "v");
      assert.equal(err.reason, t.reason);
      assert.match(err.message, t.message);
    });

  it("an optional source that is missing, or an optional missing key, is an empty volume", async () => {
    const out = await prepare(
      [
        { name: "gone", configMap: { name: "nope", optional: true } },
        {
          name: "some",
          configMap: {
            name: "cfg",
            optional: true,
            items: [
              { key: "zz", path: "z" },
              { key: "a", path: "x/a" },
            ],
          },
        },
      ],
      { "ConfigMap/cfg": cm },
    );
    assert.equal(out.get("gone")?.readOnly, true);
    assert.equal(existsSync(join(dirs.volume("uid-v", "gone"), "z")), false);
    assert.deepEqual(filesOf("some", ["x/a"]), { "x/a": "1" });
    assert.equal(existsSync(join(dirs.volume("uid-v", "some"), "z")), false);
  });

  it("writes ConfigMap and Secret keys with their modes, items at their paths", async () => {
    const out = await prepare(
      [
        { name: "all", configMap: { name: "cfg", defaultMode: 0o600 } },
        {
          name: "one",
          configMap: { name: "cfg", items: [{ key: "b", path: "sub/bee", mode: 0o400 }] },
        },
        { name: "sec", secret: { secretName: "s" } },
      ],
      { "ConfigMap/cfg": cm, "Secret/s": secret },
    );
    assert.deepEqual(filesOf("all", ["a", "b"]), { a: "1", b: "2" });
    assert.equal(statSync(join(dirs.volume("uid-v", "all"), "a")).mode & 0o777, 0o600);
    assert.deepEqual(filesOf("one", ["sub/bee"]), { "sub/bee": "2" });
    assert.equal(statSync(join(dirs.volume("uid-v", "one"), "sub/bee")).mode & 0o777, 0o400);
    assert.equal(existsSync(join(dirs.volume("uid-v", "one"), "a")), false);
    assert.deepEqual(filesOf("sec", ["token"]), { token: "t0k" });
    for (const name of ["all", "one", "sec"]) assert.equal(out.get(name)?.readOnly, true);
  });

  it("drops files of keys that went away on the next setup", async () => {
    const volume: Volume = { name: "all", configMap: { name: "cfg" } };
    await prepare([volume], { "ConfigMap/cfg": cm });
    await prepare([volume], { "ConfigMap/cfg": obj("ConfigMap", "cfg", { data: { b: "3" } }) });
    assert.deepEqual(filesOf("all", ["b"]), { b: "3" });
    assert.equal(existsSync(join(dirs.volume("uid-v", "all"), "a")), false);
  });

  it("writes downwardAPI fields and resources", async () => {
    await prepare([
      {
        name: "info",
        downwardAPI: {
          items: [
            { path: "name", fieldRef: { fieldPath: "metadata.name" } },
            { path: "labels", fieldRef: { fieldPath: "metadata.labels" } },
            { path: "ip", fieldRef: { fieldPath: "status.podIP" } },
            { path: "cpu", resourceFieldRef: { containerName: "c", resource: "limits.cpu" } },
          ],
        },
      },
    ]);
    assert.deepEqual(filesOf("info", ["name", "labels", "ip", "cpu"]), {
      name: "p",
      labels: 'app="web"',
      ip: "127.1.0.9",
      cpu: "2",
    });
  });

  it("makes an emptyDir writable, a claim's PV directory and hostPaths by their type", async () => {
    const pvDir = join(base, "pv");
    mkdirSync(pvDir);
    const made = join(base, "made/dir");
    const file = join(base, "made-file/f");
    const out = await prepare(
      [
        { name: "scratch", emptyDir: {} },
        { name: "data", persistentVolumeClaim: { claimName: "data", readOnly: true } },
        { name: "dir", hostPath: { path: made, type: "DirectoryOrCreate" } },
        { name: "file", hostPath: { path: file, type: "FileOrCreate" } },
        { name: "any", hostPath: { path: "/nonexistent/untyped" } },
      ],
      {
        "PersistentVolumeClaim/data": obj("PersistentVolumeClaim", "data", {
          spec: { volumeName: "pv1" },
        }),
        "PersistentVolume/pv1": obj("PersistentVolume", "pv1", {
          spec: { hostPath: { path: pvDir } },
        }),
      },
    );
    assert.deepEqual(Object.fromEntries(out), {
      scratch: { path: dirs.volume("uid-v", "scratch"), readOnly: false },
      data: { path: pvDir, readOnly: true },
      dir: { path: made, readOnly: false },
      file: { path: file, readOnly: false },
      any: { path: "/nonexistent/untyped", readOnly: false },
    });
    assert.ok(statSync(dirs.volume("uid-v", "scratch")).isDirectory());
    assert.ok(statSync(made).isDirectory());
    assert.equal(readFileSync(file, "utf8"), "");
    // An existing file is left as it is.
    writeFileSync(file, "kept");
    await prepare([{ name: "file", hostPath: { path: file, type: "FileOrCreate" } }]);
    assert.equal(readFileSync(file, "utf8"), "kept");
  });
});

describe("pod directories", () => {
  it("lays out logs, volumes and etc files under the pod's directory", () => {
    const dirs = new PodDirs("/data");
    assert.deepEqual(
      [dirs.pod("u"), dirs.log("u", "c", 2), dirs.volume("u", "v"), dirs.etc("u", "hosts")],
      [
        "/data/pods/u",
        "/data/pods/u/logs/c/2.log",
        "/data/pods/u/volumes/v",
        "/data/pods/u/etc/hosts",
      ],
    );
  });
});
