/**
 * The host side of the local-path provisioner: one directory per volume,
 * `DIR/volumes/<pv-name>`, and the only code that creates or removes them. A
 * volume is freed exactly when its directory is gone.
 *
 * Creating a volume leaves a marker (`.<pv-name>.provisioning`) beside the
 * directory until the PersistentVolume object exists (`commit`). A crash
 * between the two leaves a marked directory no PV names; `sweep` removes those
 * and only those — an unmarked directory without a PV is one the admin kept
 * (reclaim policy Retain, PV deleted) and stays. Provisioning, freeing and
 * sweeping run one at a time under `locked`, so the sweep never sees a
 * half-made volume and capacity checks never race each other.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

const MARKER_SUFFIX = ".provisioning";
/** PV names are DNS subdomains: no `/`, no `..`, nothing that leaves the pool. */
const VOLUME_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export class VolumePool {
  private tail: Promise<unknown> = Promise.resolve();

  /** `dir` is `DIR/volumes`; `capacityBytes` is what the pool may hand out in total. */
  constructor(
    readonly dir: string,
    readonly capacityBytes: bigint,
  ) {}

  /** The directory of volume `name`. */
  path(name: string): string {
    if (!VOLUME_NAME.test(name) || name.includes(".."))
      throw new Error(`invalid volume name ${JSON.stringify(name)}`);
    return join(this.dir, name);
  }

  private marker(name: string): string {
    return join(this.dir, `.${name}${MARKER_SUFFIX}`);
  }

  /** Runs `fn` alone: pool operations never interleave. */
  locked<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  exists(name: string): boolean {
    return existsSync(this.path(name));
  }

  /** Creates the volume's directory, marked provisional until `commit`. Idempotent. */
  async create(name: string): Promise<string> {
    const path = this.path(name);
    await mkdir(this.dir, { recursive: true });
    if (!existsSync(path)) await writeFile(this.marker(name), "");
    await mkdir(path, { recursive: true });
    return path;
  }

  /** The volume's PersistentVolume exists: the directory is no longer provisional. */
  async commit(name: string): Promise<void> {
    await rm(this.marker(name), { force: true });
  }

  /** Frees the volume: removes its directory and everything in it, then its marker. */
  async remove(name: string): Promise<void> {
    await rm(this.path(name), { recursive: true, force: true, maxRetries: 2 });
    await rm(this.marker(name), { force: true });
  }

  /** Names of the volume directories present (markers and other dot-files aside). */
  async list(): Promise<string[]> {
    const entries = await readdir(this.dir, { withFileTypes: true }).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw e;
    });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith(".")).map((e) => e.name);
  }

  /**
   * Removes provisional volumes whose PV never appeared (`known` names every PV
   * that exists); a marker whose PV exists is committed. Call under `locked`.
   * Returns the names removed.
   */
  async sweep(known: ReadonlySet<string>): Promise<string[]> {
    const entries = await readdir(this.dir).catch(() => [] as string[]);
    const removed: string[] = [];
    for (const entry of entries) {
      if (!entry.startsWith(".") || !entry.endsWith(MARKER_SUFFIX)) continue;
      const name = entry.slice(1, -MARKER_SUFFIX.length);
      if (!VOLUME_NAME.test(name)) continue;
      if (known.has(name)) await this.commit(name);
      else {
        await this.remove(name);
        removed.push(name);
      }
    }
    return removed;
  }
}
