/**
 * A private image registry for tests: Debian's `docker-registry` (the CNCF
 * distribution registry) on 127.0.0.1 and a free port, plain HTTP, with
 * htpasswd (basic) authentication for one user; its config, htpasswd file
 * and storage under a directory of the test's own. Pods name it `host`: the
 * machine's host name when that resolves to a loopback address, so that
 * containerd needs `--insecure-registry` to reach it (it tries plain HTTP by
 * itself only for `localhost` and loopback IPs), else 127.0.0.1. `pushImage` copies an
 * image from Hearth's image cache to any registry with skopeo (with
 * credentials when given); `stop()` ends the registry by its pid (SIGTERM,
 * SIGKILL after 5 s) and removes its directory.
 *
 * distribution accepts only bcrypt in htpasswd. The entry is made by perl's
 * `crypt()`, which is the C library's (libxcrypt on Debian, which knows
 * `$2b$`): no npm package and no apache2-utils for `htpasswd`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { freePort, type ImageSpec, imageCache, layoutRef, run } from "../../src/images/index.js";
import { stopChild, waitFor } from "./hearth-process.js";

export interface PrivateRegistry {
  /** `127.0.0.1:PORT`, where it listens. */
  address: string;
  /** `NAME:PORT`, the same registry as image references name it. */
  host: string;
  username: string;
  password: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

const BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A bcrypt hash of `password` (cost 5: the registry checks it on every request). */
export function bcryptHash(password: string): string {
  const bytes = randomBytes(22);
  const salt = [...bytes].map((b) => BCRYPT_ALPHABET[b & 63]);
  // 22 characters carry 132 bits for a 128-bit salt: the last one keeps only its top 2.
  salt[21] = BCRYPT_ALPHABET[(bytes[21]! & 3) << 4];
  const setting = `$2b$05$${salt.join("")}`;
  const hash = execFileSync("perl", ["-e", "print crypt($ARGV[0], $ARGV[1])", password, setting], {
    encoding: "utf8",
  });
  if (!hash.startsWith(setting))
    throw new Error(`this C library's crypt() has no bcrypt: got ${JSON.stringify(hash)}`);
  return hash;
}

/** Pushes `spec` from the image cache to `registry`/`repository`; resolves with the reference. */
export async function pushImage(
  spec: ImageSpec,
  registry: string,
  repository: string,
  creds?: { username: string; password: string },
): Promise<string> {
  const ref = `${registry}/${repository}`;
  await run([
    "skopeo",
    "copy",
    "--quiet",
    "--dest-tls-verify=false",
    ...(creds ? ["--dest-creds", `${creds.username}:${creds.password}`] : []),
    `oci:${imageCache().layout}:${layoutRef(spec)}`,
    `docker://${ref}`,
  ]);
  return ref;
}

/** The host name if it resolves to a loopback address, else 127.0.0.1. */
async function loopbackName(): Promise<string> {
  const name = hostname().toLowerCase();
  const address = await lookup(name, { family: 4 }).then(
    (a) => a.address,
    () => "",
  );
  return address.startsWith("127.") ? name : "127.0.0.1";
}

async function v2Status(address: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`http://${address}/v2/`, { headers, signal: AbortSignal.timeout(5000) });
  await res.arrayBuffer();
  return res.status;
}

export async function startPrivateRegistry(
  dir: string,
  username: string,
  password: string,
): Promise<PrivateRegistry> {
  mkdirSync(join(dir, "storage"), { recursive: true });
  const port = await freePort("127.0.0.1");
  const address = `127.0.0.1:${port}`;
  const htpasswd = join(dir, "htpasswd");
  writeFileSync(htpasswd, `${username}:${bcryptHash(password)}\n`);
  const config = join(dir, "config.yml");
  writeFileSync(
    config,
    stringify({
      version: 0.1,
      log: { level: "warn", accesslog: { disabled: true } },
      storage: { filesystem: { rootdirectory: join(dir, "storage") } },
      http: { addr: address },
      auth: { htpasswd: { realm: "hearth-test", path: htpasswd } },
    }),
  );
  const child = spawn("docker-registry", ["serve", config], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const stop = async () => {
    await stopChild(child, 5000);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Up once `/v2/` asks for credentials, and lets the user in.
    await waitFor(`docker-registry on ${address}`, async () => {
      if (child.exitCode !== null) throw new Error(`docker-registry exited: ${stderr}`);
      const basic = Buffer.from(`${username}:${password}`).toString("base64");
      const [anonymous, user] = await Promise.all([
        v2Status(address),
        v2Status(address, { authorization: `Basic ${basic}` }),
      ]);
      return anonymous === 401 && user === 200;
    });
  } catch (e) {
    await stop();
    throw e;
  }
  const host = `${await loopbackName()}:${port}`;
  return { address, host, username, password, process: child, stop };
}
