/**
 * Writing projected files (secret, configMap, downwardAPI) into a pod's volume
 * directory so that nothing lands outside it. The node runs as root, and the
 * file names come from API objects a tenant writes, so every name is checked
 * again here with kubelet's rules (`validatePath` of its atomic writer), and the
 * writes never follow a symlink: each parent directory is checked with lstat
 * (a symlink there is removed, never entered), and each file is written to a
 * fresh temporary file (O_EXCL | O_NOFOLLOW) and renamed over the name — a
 * rename replaces a planted symlink itself, not what it points to.
 *
 * The volume is bound read-only into containers, so only the host could race
 * these checks; they are not meant to hold against a concurrent root writer.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { isAbsolute, join } from "node:path";

export interface ProjectedFile {
  data: Buffer;
  mode: number;
}

const MAX_PATH_LENGTH = 4096;
const MAX_FILE_NAME_LENGTH = 255;

/** Why kubelet would refuse `path` as a file of a projected volume, or undefined. */
export function projectedPathError(path: string): string | undefined {
  if (path === "") return `invalid path: must not be empty: ${JSON.stringify(path)}`;
  if (isAbsolute(path)) return `invalid path: must be relative path: ${path}`;
  if (path.length > MAX_PATH_LENGTH)
    return `invalid path: must be less than or equal to ${MAX_PATH_LENGTH} characters`;
  const items = path.split("/");
  for (const item of items) {
    if (item === "..") return `invalid path: must not contain '..': ${path}`;
    if (item.length > MAX_FILE_NAME_LENGTH)
      return `invalid path: filenames must be less than or equal to ${MAX_FILE_NAME_LENGTH} characters`;
  }
  if (items[0]!.startsWith("..") && items[0]!.length > 2)
    return `invalid path: must not start with '..': ${path}`;
  if (path.includes("\0")) return `invalid path: must not contain NUL: ${path}`;
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** Makes `path` a real directory: a symlink or file there is removed first, never followed. */
function ensureRealDir(path: string): void {
  const st = lstatOrUndefined(path);
  if (st?.isDirectory()) return;
  if (st) rmSync(path, { force: true });
  mkdirSync(path, { mode: 0o755 });
}

/** True when `file` is a regular file (not a symlink) holding `f` with f's mode already. */
function unchanged(file: string, f: ProjectedFile): boolean {
  const st = lstatOrUndefined(file);
  if (!st?.isFile() || (st.mode & 0o7777) !== f.mode) return false;
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return readFileSync(fd).equals(f.data);
  } finally {
    closeSync(fd);
  }
}

/** Writes one file atomically in a parent that was checked to be a real directory. */
function writeFile(parent: string, name: string, f: ProjectedFile): void {
  const target = join(parent, name);
  if (unchanged(target, f)) return;
  const tmp = join(parent, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const fd = openSync(tmp, flags, 0o600);
  try {
    writeSync(fd, f.data);
    fchmodSync(fd, f.mode);
  } finally {
    closeSync(fd);
  }
  const st = lstatOrUndefined(target);
  // A directory cannot be renamed over; it is the volume's own (a stale layout), so it goes.
  if (st?.isDirectory()) rmSync(target, { recursive: true, force: true });
  try {
    renameSync(tmp, target);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}

/**
 * Writes `files` (relative path → content) under `dir` and removes every other
 * entry; touches only files whose content or mode changed. Throws when a path
 * is one kubelet refuses; then nothing is written.
 */
export function syncFiles(dir: string, files: Map<string, ProjectedFile>): void {
  const planned = new Map<string[], ProjectedFile>();
  for (const [path, f] of files) {
    const why = projectedPathError(path);
    if (why) throw new Error(why);
    const parts = path.split("/").filter((p) => p !== "" && p !== ".");
    if (parts.length === 0) throw new Error(`invalid path: must name a file: ${path}`);
    planned.set(parts, f);
  }
  mkdirSync(dir, { recursive: true });
  const root = lstatSync(dir);
  if (!root.isDirectory()) throw new Error(`volume directory ${dir} is not a directory`);
  for (const [parts, f] of planned) {
    let parent = dir;
    for (const part of parts.slice(0, -1)) {
      parent = join(parent, part);
      ensureRealDir(parent);
    }
    writeFile(parent, parts[parts.length - 1]!, f);
  }
  const keep = new Set([...planned.keys()].map((parts) => join(dir, ...parts)));
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      // Dirent types come from readdir, so a symlink to a directory is not entered.
      if (e.isDirectory()) {
        walk(p);
        if (![...keep].some((k) => k.startsWith(`${p}/`)))
          rmSync(p, { recursive: true, force: true });
      } else if (!keep.has(p)) rmSync(p, { force: true });
    }
  };
  walk(dir);
}
