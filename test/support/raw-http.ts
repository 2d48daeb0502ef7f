/**
 * Plain HTTP against an in-process apiserver (see envtest.ts), for handler
 * tests that assert status codes, Status bodies and watch streams exactly as
 * a client sees them, without the typed client in between.
 */
import type { KubeObject, Status } from "../../src/api/index.js";
import { type Env, startEnv } from "./envtest.js";

export interface RawReply {
  status: number;
  body: unknown;
  text: string;
}

export interface WatchLine {
  type: string;
  object: KubeObject & Partial<Status>;
}

const CONTENT_TYPES: Record<string, string> = {
  PATCH: "application/merge-patch+json",
  APPLY: "application/apply-patch+yaml",
};

export interface RawApi {
  /** Sends `body` as JSON (a merge patch for PATCH); "APPLY" is a PATCH with the apply type. */
  call(method: string, path: string, body?: unknown): Promise<RawReply>;
  /** The object of a 2xx reply; fails with the Status text otherwise. */
  ok<T = KubeObject>(method: string, path: string, body?: unknown): Promise<T>;
  /** Reads a watch until `until` says so (or the server ends it), then closes it. */
  watch(
    path: string,
    until?: (seen: WatchLine[]) => boolean,
    timeoutMs?: number,
  ): Promise<WatchLine[]>;
}

export function rawApi(url: string): RawApi {
  const call = async (method: string, path: string, body?: unknown): Promise<RawReply> => {
    const res = await fetch(url + path, {
      method: method === "APPLY" ? "PATCH" : method,
      headers: { "content-type": CONTENT_TYPES[method] ?? "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A watch stream or plain text: the caller reads `text`.
    }
    return { status: res.status, body: parsed, text };
  };
  return {
    call,
    async ok<T>(method: string, path: string, body?: unknown): Promise<T> {
      const r = await call(method, path, body);
      if (r.status < 200 || r.status > 299)
        throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
      return r.body as T;
    },
    async watch(path, until = () => false, timeoutMs = 5000) {
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), timeoutMs);
      const seen: WatchLine[] = [];
      try {
        const res = await fetch(url + path, { signal: stop.signal });
        if (res.status !== 200) throw new Error(`watch ${path}: ${res.status} ${await res.text()}`);
        const decoder = new TextDecoder();
        let buffered = "";
        for await (const chunk of res.body!) {
          buffered += decoder.decode(chunk as Uint8Array, { stream: true });
          for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
            const line = buffered.slice(0, nl);
            buffered = buffered.slice(nl + 1);
            if (line.trim() !== "") seen.push(JSON.parse(line) as WatchLine);
          }
          if (until(seen)) break;
        }
      } catch (e) {
        if (!stop.signal.aborted) throw e;
      } finally {
        clearTimeout(timer);
        stop.abort();
      }
      return seen;
    },
  };
}

/** An in-process apiserver (envtest.ts) with `namespace` created, and plain HTTP on it. */
export async function startRawEnv(namespace: string): Promise<{ env: Env; api: RawApi }> {
  const env = await startEnv();
  const api = rawApi(env.url);
  try {
    await api.ok("POST", "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: namespace },
    });
  } catch (e) {
    await env.stop();
    throw e;
  }
  return { env, api };
}
