/**
 * An apiserver in this process on a temporary SQLite file, over plain HTTP, for
 * tests that need to reach into storage (compaction, revision counts). Stops and
 * removes everything in `stop()`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AdmissionPlugin } from "../../src/apiserver/admission/types.js";
import { ApiServer } from "../../src/apiserver/index.js";
import type { Backend } from "../../src/storage/index.js";
import { openSqliteBackend } from "../../src/storage/index.js";

export interface InProcessServer {
  url: string;
  backend: Backend;
  server: ApiServer;
  /** Sends a request; the body is parsed as JSON when it is JSON. */
  request(
    method: string,
    path: string,
    body?: string | Buffer,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: unknown; text: string; headers: Headers }>;
  /** The status of `/healthz`. */
  health(): Promise<number>;
  stop(): Promise<void>;
}

export async function startInProcess(
  opts: {
    bookmarkIntervalMs?: number;
    admission?: AdmissionPlugin[];
    /** Serve this backend (closed by `stop()`) instead of a SQLite file of its own. */
    backend?: Backend;
  } = {},
): Promise<InProcessServer> {
  const dir = mkdtempSync(join(tmpdir(), "hearth-inproc-"));
  const backend = opts.backend ?? (await openSqliteBackend(join(dir, "state.db")));
  const server = new ApiServer({
    backend,
    tokens: new Map(),
    port: 0,
    bookmarkIntervalMs: opts.bookmarkIntervalMs,
    ...(opts.admission ? { admission: opts.admission } : {}),
  });
  const controller = new AbortController();
  try {
    await server.start(controller.signal);
  } catch (e) {
    // A server that never came up leaves nothing behind either.
    controller.abort();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    backend,
    server,
    async request(method, path, body, headers = {}) {
      const res = await fetch(`${url}${path}`, {
        method,
        ...(body !== undefined ? { body } : {}),
        headers: { "Content-Type": "application/json", ...headers },
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed, text, headers: res.headers };
    },
    async health() {
      return (await fetch(`${url}/healthz`)).status;
    },
    async stop() {
      controller.abort();
      await server.closed();
      await backend.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
