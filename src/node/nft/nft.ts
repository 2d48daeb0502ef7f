/**
 * The `nft` command, run with arguments (never a shell): apply a script from
 * stdin as one transaction, list what a table holds, delete a table. A failure
 * is an `NftError` carrying nft's stderr; "no such table" is told apart by
 * errno text at this one boundary, so callers never match messages.
 */
import { spawn } from "node:child_process";
import type { TableContents } from "./types.js";
import { validTableName } from "./validate.js";

export class NftError extends Error {
  constructor(
    readonly args: string[],
    readonly stderr: string,
    readonly code: number | null,
    options?: { cause?: unknown },
  ) {
    super(`nft ${args.join(" ")} failed (exit ${code}): ${stderr.trim() || "no message"}`, options);
    this.name = "NftError";
  }

  /** The table (or another object named) does not exist: nft's ENOENT. */
  get notFound(): boolean {
    return /No such file or directory/.test(this.stderr);
  }
}

export interface NftOptions {
  /** The nft binary; default `nft` on PATH. */
  nft?: string;
  signal?: AbortSignal;
}

function run(args: string[], input: string | undefined, opts: NftOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(opts.nft ?? "nft", args, {
      stdio: ["pipe", "pipe", "pipe"],
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.stdin.on("error", () => {}); // nft exiting early: its status says why
    child.once("error", (e) => reject(new NftError(args, e.message, null, { cause: e })));
    child.once("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString());
      else reject(new NftError(args, Buffer.concat(err).toString(), code));
    });
    child.stdin.end(input ?? "");
  });
}

function checkName(table: string): void {
  if (!validTableName(table))
    throw new Error(`invalid nftables table name ${JSON.stringify(table)}`);
}

/** Applies `script` as one transaction (`nft -f -`); with `check`, only validates it (`-c`). */
export async function applyScript(
  script: string,
  opts: NftOptions & { check?: boolean } = {},
): Promise<void> {
  await run(opts.check ? ["-c", "-f", "-"] : ["-f", "-"], script, opts);
}

export async function tableExists(table: string, opts: NftOptions = {}): Promise<boolean> {
  checkName(table);
  try {
    await run(["list", "table", "ip", table], undefined, opts);
    return true;
  } catch (e) {
    if (e instanceof NftError && e.notFound) return false;
    throw e;
  }
}

/** Deletes `ip <table>`; a table that is not there is no error. */
export async function deleteTable(table: string, opts: NftOptions = {}): Promise<void> {
  checkName(table);
  try {
    await run(["delete", "table", "ip", table], undefined, opts);
  } catch (e) {
    if (!(e instanceof NftError && e.notFound)) throw e;
  }
}

interface NftJson {
  nftables?: { chain?: { name?: unknown }; set?: { name?: unknown }; map?: { name?: unknown } }[];
}

/** The chains, sets and maps of `ip <table>` (all empty when there is no such table). */
export async function tableContents(table: string, opts: NftOptions = {}): Promise<TableContents> {
  checkName(table);
  let text: string;
  try {
    text = await run(["-j", "list", "table", "ip", table], undefined, opts);
  } catch (e) {
    if (e instanceof NftError && e.notFound) return { chains: [], sets: [], maps: [] };
    throw e;
  }
  const names = (xs: unknown[]) =>
    xs.filter((n): n is string => typeof n === "string" && /^[A-Za-z][A-Za-z0-9_.-]*$/.test(n));
  const items = (JSON.parse(text) as NftJson).nftables ?? [];
  return {
    chains: names(items.map((i) => i.chain?.name)),
    sets: names(items.map((i) => i.set?.name)),
    maps: names(items.map((i) => i.map?.name)),
  };
}
