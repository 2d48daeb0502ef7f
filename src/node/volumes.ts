/**
 * A pod's volumes on the host, and each container's binds of them. emptyDir is
 * a directory under `DIR/pods/<uid>/volumes/`; secret, configMap and
 * downwardAPI are directories of files written from the objects (refreshed on
 * every sync, files that went away removed); persistentVolumeClaim is the bound
 * PV's host directory (`spec.hostPath.path` or `spec.local.path`); hostPath is
 * the path itself. A volume that cannot be set up yet (claim not bound, secret
 * missing) is a `VolumeNotReady`: the pod waits, as kube's FailedMount does. So
 * is one whose file names would leave its directory (a key or path kubelet
 * refuses): nothing of it is written (see `volume-files.ts`).
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { Container, KubeObject, Pod, Volume } from "../api/index.js";
import { configMapKey } from "../api/index.js";
import { errorText } from "../client/index.js";
import { objectData } from "./env.js";
import {
  type NodeAllocatable,
  type PodRuntimeFields,
  podFieldValue,
  resourceFieldValue,
} from "./field-ref.js";
import type { Mount } from "./mount.js";
import type { PodDirs } from "./pod-state.js";
import { type ProjectedFile, projectedPathError, syncFiles } from "./volume-files.js";

export class VolumeNotReady extends Error {
  override readonly name = "VolumeNotReady";
  constructor(
    readonly volume: string,
    readonly reason: "FailedMount" | "Unbound",
    message: string,
  ) {
    super(message);
  }
}

export type VolumeReader = (
  kind: "ConfigMap" | "Secret" | "PersistentVolumeClaim" | "PersistentVolume",
  name: string,
) => Promise<KubeObject | undefined>;

export interface VolumeContext {
  pod: Pod;
  dirs: PodDirs;
  read: VolumeReader;
  runtime: PodRuntimeFields;
  node: NodeAllocatable;
}

export interface PreparedVolume {
  path: string;
  /** Mounted read-only whatever the mount says (projected content, read-only claims). */
  readOnly: boolean;
}

function setUpFailed(v: Volume, why: string): VolumeNotReady {
  return new VolumeNotReady(
    v.name,
    "FailedMount",
    `MountVolume.SetUp failed for volume "${v.name}" : ${why}`,
  );
}

/** Adds one file, refusing a name kubelet would refuse (absolute, `..`, too long). */
function addFile(v: Volume, files: Map<string, ProjectedFile>, path: string, f: ProjectedFile) {
  const why = projectedPathError(path);
  if (why) throw setUpFailed(v, why);
  files.set(path, f);
}

async function projected(ctx: VolumeContext, v: Volume): Promise<Map<string, ProjectedFile>> {
  const files = new Map<string, ProjectedFile>();
  const src = v.secret ?? v.configMap;
  if (src) {
    const kind = v.secret ? "Secret" : "ConfigMap";
    const name = v.secret ? (v.secret.secretName ?? "") : (v.configMap?.name ?? "");
    const obj = await ctx.read(kind, name);
    if (!obj) {
      if (src.optional) return files;
      throw new VolumeNotReady(
        v.name,
        "FailedMount",
        `MountVolume.SetUp failed for volume "${v.name}" : ${kind === "Secret" ? "secret" : "configmap"} "${name}" not found`,
      );
    }
    const data = objectData(kind, obj);
    const mode = src.defaultMode ?? 0o644;
    if (!src.items)
      for (const [k, d] of data) {
        // The API refuses such keys; an object stored before that rule is refused here.
        const bad = configMapKey(k);
        if (bad.length > 0) throw setUpFailed(v, `invalid key ${JSON.stringify(k)}: ${bad[0]}`);
        addFile(v, files, k, { data: d, mode });
      }
    for (const item of src.items ?? []) {
      const d = data.get(item.key);
      if (d === undefined) {
        if (src.optional) continue;
        throw new VolumeNotReady(
          v.name,
          "FailedMount",
          `MountVolume.SetUp failed for volume "${v.name}" : configmap references non-existent config key: ${item.key}`,
        );
      }
      addFile(v, files, item.path, { data: d, mode: item.mode ?? mode });
    }
  }
  for (const item of v.downwardAPI?.items ?? []) {
    const mode = item.mode ?? v.downwardAPI?.defaultMode ?? 0o644;
    const text = item.fieldRef
      ? podFieldValue(ctx.pod, item.fieldRef, ctx.runtime)
      : resourceFieldValue(ctx.pod, item.resourceFieldRef!, undefined, ctx.node);
    addFile(v, files, item.path, { data: Buffer.from(text), mode });
  }
  return files;
}

async function claimPath(ctx: VolumeContext, v: Volume): Promise<string> {
  const claimName = v.persistentVolumeClaim!.claimName;
  const pvc = await ctx.read("PersistentVolumeClaim", claimName);
  if (!pvc)
    throw new VolumeNotReady(v.name, "Unbound", `persistentvolumeclaim "${claimName}" not found`);
  const volumeName = (pvc.spec as { volumeName?: string } | undefined)?.volumeName;
  const phase = (pvc.status as { phase?: string } | undefined)?.phase;
  if (!volumeName || (phase !== undefined && phase !== "Bound"))
    throw new VolumeNotReady(
      v.name,
      "Unbound",
      `persistentvolumeclaim "${claimName}" is not bound`,
    );
  const pv = await ctx.read("PersistentVolume", volumeName);
  const spec = pv?.spec as { hostPath?: { path?: string }; local?: { path?: string } } | undefined;
  const path = spec?.hostPath?.path ?? spec?.local?.path;
  if (!path)
    throw new VolumeNotReady(
      v.name,
      "FailedMount",
      `persistentvolume "${volumeName}" of claim "${claimName}" has no hostPath or local path on this node`,
    );
  if (!existsSync(path))
    throw new VolumeNotReady(
      v.name,
      "FailedMount",
      `MountVolume.SetUp failed for volume "${volumeName}" : host path ${path} does not exist`,
    );
  return path;
}

function hostPath(v: Volume): string {
  const { path, type } = v.hostPath!;
  if (type === "DirectoryOrCreate") mkdirSync(path, { recursive: true });
  else if (type === "FileOrCreate" && !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
  } else if (type && !existsSync(path))
    throw new VolumeNotReady(
      v.name,
      "FailedMount",
      `MountVolume.SetUp failed for volume "${v.name}" : hostPath type check failed: ${path} is not a ${type}`,
    );
  return path;
}

/** Sets up every volume; returns name → host path. Throws VolumeNotReady for the first that cannot be. */
export async function prepareVolumes(ctx: VolumeContext): Promise<Map<string, PreparedVolume>> {
  const out = new Map<string, PreparedVolume>();
  const uid = ctx.pod.metadata.uid!;
  for (const v of ctx.pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) {
      out.set(v.name, {
        path: await claimPath(ctx, v),
        readOnly: v.persistentVolumeClaim.readOnly === true,
      });
    } else if (v.hostPath) {
      out.set(v.name, { path: hostPath(v), readOnly: false });
    } else {
      const dir = ctx.dirs.volume(uid, v.name);
      if (v.emptyDir) mkdirSync(dir, { recursive: true });
      else {
        const files = await projected(ctx, v);
        try {
          syncFiles(dir, files);
        } catch (e) {
          throw setUpFailed(v, errorText(e));
        }
      }
      out.set(v.name, { path: dir, readOnly: !v.emptyDir });
    }
  }
  return out;
}

/** True when `path` is `root` or below it. */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("../") && rel !== ".." && !rel.startsWith("/"));
}

/**
 * The real directory a subPath names, made if missing. Each component is
 * resolved (symlinks followed) and checked to be inside the volume before the
 * next is looked at or made, so nothing is created outside it either.
 */
export function subPathSource(root: string, subPath: string): string {
  const realRoot = realpathSync(root);
  let current = realRoot;
  for (const part of subPath.split("/")) {
    if (part === "" || part === ".") continue;
    const next = join(current, part);
    if (part === ".." || !within(realRoot, next))
      throw new Error(`subPath ${subPath} leaves the volume`);
    if (!existsSync(next)) mkdirSync(next);
    current = realpathSync(next);
    if (!within(realRoot, current)) throw new Error(`subPath ${subPath} leaves the volume`);
  }
  return current;
}

/**
 * The binds of one container's volumeMounts (a subPath is created inside the
 * volume if missing). The bind source is the subPath with every symlink
 * resolved, and it must still be inside the volume: a container could plant a
 * symlink in a writable volume, and a bind mount follows it on the host.
 */
export function containerMounts(c: Container, volumes: Map<string, PreparedVolume>): Mount[] {
  return (c.volumeMounts ?? []).map((m) => {
    const v = volumes.get(m.name)!;
    let source = v.path;
    if (m.subPath) source = subPathSource(v.path, m.subPath);
    return { source, target: m.mountPath, readOnly: v.readOnly || m.readOnly === true };
  });
}
