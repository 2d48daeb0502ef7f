/**
 * Controller tests on the envtest apiserver (test/support/envtest.ts) that stop
 * a Manager mid-way and start another: `runManager` runs controllers on a
 * Manager of their own, which a test stops (a crash) and replaces on the same
 * apiserver; `intercept` wraps a client so a test can act around a reconciler's
 * calls — change the object concurrently just before a write (a 409), or crash
 * right after one (nothing more reaches the API from that Manager).
 */
import { hasCode } from "../../src/api/index.js";
import type { Client, RawResponse } from "../../src/client/index.js";
import {
  Manager,
  type ManagerOptions,
  type Request,
  reconcileTotal,
  requestKey,
  type TypedReconciler,
} from "../../src/runtime/index.js";
import { waitFor } from "./hearth-process.js";

/** A Manager running until `stop()`, which resolves once it has stopped. */
export interface ManagerRun<T> {
  manager: Manager;
  /** What `register` returned (controller handles). */
  handles: T;
  stop(): Promise<void>;
}

/** Short back-off, so retries after a provoked 409 or error come quickly. */
const TEST_BACKOFF = { baseMs: 5, maxMs: 200 };

/** Builds controllers with `register` on a new Manager, starts it and waits until it is ready. */
export async function runManager<T>(
  client: Client,
  register: (manager: Manager) => T,
  opts: ManagerOptions = {},
): Promise<ManagerRun<T>> {
  const manager = new Manager(client, { backoff: TEST_BACKOFF, ...opts });
  const handles = register(manager);
  const running = new AbortController();
  const done = manager.start(running.signal);
  // A failure is the test's to see through stop(); do not crash the runner meanwhile.
  done.catch(() => {});
  await waitFor("the Manager ready", () => manager.readyz());
  return {
    manager,
    handles,
    async stop() {
      running.abort();
      await done;
    },
  };
}

/** One call a reconciler makes on its client. */
export interface Call {
  method: string;
  args: unknown[];
}

/** The kind a call addresses (the object's, the ref's or the type's); the path of a raw request. */
export function callTarget(call: Call): string {
  const first = call.args[0];
  if (call.method === "request") return `${String(first)} ${String(call.args[1])}`;
  return (first as { kind?: string } | undefined)?.kind ?? "";
}

/** Writes, as opposed to reads and watches. */
export const WRITES = new Set([
  "create",
  "update",
  "patch",
  "apply",
  "delete",
  "deleteCollection",
  "updateStatus",
  "patchStatus",
]);

/** True for a write of `kind` by `method` (any write method when omitted). */
export function isWrite(call: Call, kind: string, method?: string): boolean {
  return (method ? call.method === method : WRITES.has(call.method)) && callTarget(call) === kind;
}

/** True for a raw `request` of `verb` whose path ends with `suffix` (`/finalize`, `/binding`). */
export function isRequest(call: Call, verb: string, suffix: string): boolean {
  const [method, path] = call.args as [string, string];
  return call.method === "request" && method === verb && path.split("?")[0]!.endsWith(suffix);
}

export interface Hooks {
  /** Runs before the call reaches the API; throwing fails the call. */
  before?(call: Call): Promise<void> | void;
  /** Runs after the call succeeded, with its result; throwing fails the call. */
  after?(call: Call, result: unknown): Promise<void> | void;
  /** Told about every failed call. */
  failed?(call: Call, err: unknown): void;
}

/** `client` with `hooks` around every method except `mapper`. */
export function intercept(client: Client, hooks: Hooks): Client {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function" || prop === "watch") return value;
      return async (...args: unknown[]) => {
        const call = { method: String(prop), args };
        let result: unknown;
        try {
          await hooks.before?.(call);
          result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          await hooks.after?.(call, result);
        } catch (e) {
          hooks.failed?.(call, e);
          throw e;
        }
        return result;
      };
    },
  });
}

export class CrashError extends Error {
  constructor(call: Call) {
    super(`crashed (test) at ${call.method} ${callTarget(call)}`);
  }
}

/**
 * A client that "crashes" right after the first call `at` matches has
 * succeeded: that call and every later one fail, and `crashed` resolves, so the
 * test can stop the Manager knowing nothing after that write reached the API.
 */
export function crashAfter(client: Client, at: (call: Call) => boolean) {
  let crash: () => void = () => {};
  const crashed = new Promise<void>((resolve) => {
    crash = resolve;
  });
  let down = false;
  const wrapped = intercept(client, {
    before(call) {
      if (down) throw new CrashError(call);
    },
    after(call) {
      if (down || !at(call)) return;
      down = true;
      crash();
      throw new CrashError(call);
    },
  });
  return { client: wrapped, crashed };
}

/**
 * A client that lets `interfere` (another writer, on the real client) change
 * things just before the first `times` calls `at` matches, and counts the 409
 * Conflicts those calls then get.
 */
export function conflictBefore(
  client: Client,
  at: (call: Call) => boolean,
  interfere: (call: Call) => Promise<unknown>,
  times = 1,
) {
  const seen = { interfered: 0, conflicts: 0 };
  const wrapped = intercept(client, {
    async before(call) {
      if (seen.interfered >= times || !at(call)) return;
      seen.interfered++;
      await interfere(call);
    },
    after(call, result) {
      // A raw request does not throw: read its status.
      if (call.method === "request" && at(call) && (result as RawResponse).status === 409)
        seen.conflicts++;
    },
    failed(call, err) {
      if (at(call) && hasCode(err, 409)) seen.conflicts++;
    },
  });
  return { client: wrapped, seen };
}

/**
 * `reconciler` counting its finished passes per request key, so a test can wait
 * until an event has been handled before asserting that nothing changed.
 */
export function counted(reconciler: TypedReconciler) {
  const passes = new Map<string, number>();
  const wrapped: TypedReconciler = {
    async reconcile(req: Request, ctx) {
      try {
        return await reconciler.reconcile(req, ctx);
      } finally {
        passes.set(requestKey(req), (passes.get(requestKey(req)) ?? 0) + 1);
      }
    },
  };
  return { reconciler: wrapped, passes: (key: string) => passes.get(key) ?? 0 };
}

/** Reconciles `controller` has finished in this process, as the runtime's metric counts them. */
async function reconcilesOf(controller: string): Promise<number> {
  const { values } = await reconcileTotal.get();
  return values
    .filter((v) => v.labels.controller === controller)
    .reduce((sum, v) => sum + v.value, 0);
}

/**
 * Runs `poke` (which enqueues a key) and waits until `controller` has finished
 * a reconcile since, and has nothing queued: a test can then assert that the
 * pass changed nothing.
 */
export async function pokeAndSettle(
  controller: string,
  queue: { readonly length: number },
  poke: () => void,
): Promise<void> {
  const before = await reconcilesOf(controller);
  poke();
  await waitFor(`a ${controller} reconcile`, async () =>
    (await reconcilesOf(controller)) > before && queue.length === 0 ? true : undefined,
  );
}
