/**
 * Controller tests on the envtest apiserver (test/support/envtest.ts) that stop
 * a Manager mid-way and start another: `runManager` runs controllers on a
 * Manager of their own, which a test stops (a crash) and replaces on the same
 * apiserver; `useEnv` gives a describe block one apiserver and stops the
 * Manager a test ran; `intercept` wraps a client so a test can act around a
 * reconciler's calls — change the object concurrently just before a write (a
 * 409), or crash right after one (nothing more reaches the API from that
 * Manager).
 */
import { after, afterEach, before } from "node:test";
import { hasCode } from "../../src/api/index.js";
import type { Client, HttpClient, RawResponse } from "../../src/client/index.js";
import {
  Manager,
  type ManagerOptions,
  type Request,
  reconcileTotal,
  requestKey,
  type TypedReconciler,
} from "../../src/runtime/index.js";
import { type Env, startEnv } from "./envtest.js";
import { waitFor } from "./hearth-process.js";

/** A Manager running until `stop()`, which resolves once it has stopped. */
export interface ManagerRun<T> {
  manager: Manager;
  /** What `register` returned (controller handles). */
  handles: T;
  /** Stops the Manager (once; later calls wait for the same end) and rejects if it failed. */
  stop(): Promise<void>;
}

/** Short back-off, so retries after a provoked 409 or error come quickly. */
const TEST_BACKOFF = { baseMs: 5, maxMs: 200 };

/**
 * Builds controllers with `register` on a new Manager (silent, with a short
 * back-off) and starts it; without leader election, waits until it is ready
 * (and stops it if it never is). With leader election a candidate that does
 * not lead is never ready: the test waits for what it needs.
 */
export async function runManager<T>(
  client: Client,
  register: (manager: Manager) => T,
  opts: ManagerOptions = {},
): Promise<ManagerRun<T>> {
  const manager = new Manager(client, { log: () => {}, backoff: TEST_BACKOFF, ...opts });
  const handles = register(manager);
  const running = new AbortController();
  const done = manager.start(running.signal);
  // A failure is the test's to see through stop(); do not crash the runner meanwhile.
  done.catch(() => {});
  const stop = () => {
    running.abort();
    return done;
  };
  if (!opts.leaderElection) {
    await waitFor("the Manager ready", () => manager.readyz()).catch(async (e) => {
      await stop().catch(() => {});
      throw e;
    });
  }
  return { manager, handles, stop };
}

/** How `useEnv`'s `start` runs a Manager: on `client` (default: the suite's), with these options. */
export interface StartOptions extends ManagerOptions {
  client?: Client;
}

/** What `useEnv` gives a describe block. */
export interface EnvSuite<T> {
  /** The suite's envtest client (from its `before` hook on). */
  readonly client: HttpClient;
  /** The Manager the running test started last, if any; stopped after the test. */
  readonly run: ManagerRun<T> | undefined;
  /** Stops `run` if there is one, then `runManager`s anew; the new run becomes `run`. */
  start(register: (manager: Manager) => T, opts?: StartOptions): Promise<ManagerRun<T>>;
}

/**
 * One envtest apiserver for the calling describe block (started before its
 * tests, stopped after them) and, after each test, the Manager it last
 * started stopped. Hooks the block adds later run after these.
 */
export function useEnv<T = void>(): EnvSuite<T> {
  let env: Env | undefined;
  let run: ManagerRun<T> | undefined;
  const started = () => {
    if (!env) throw new Error("useEnv: the env is started by the describe block's before hook");
    return env;
  };
  const stopRun = async () => {
    const last = run;
    run = undefined;
    await last?.stop();
  };
  before(async () => {
    env = await startEnv();
  });
  after(() => env?.stop());
  afterEach(stopRun);
  return {
    get client() {
      return started().client;
    },
    get run() {
      return run;
    },
    async start(register, { client, ...opts } = {}) {
      await stopRun();
      run = await runManager(client ?? started().client, register, opts);
      return run;
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

/**
 * `client` with `hooks` around every method (`mapper` and `close` pass
 * through). A watch is an iterable, not a promise: `before` runs when it is
 * opened (throwing fails the watch), and `after`/`failed` are not told of it.
 */
export function intercept<C extends Client>(client: C, hooks: Hooks): C {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function" || prop === "close") return value;
      const method = String(prop);
      if (method === "watch") {
        return (...args: unknown[]) => {
          const inner = (value as (...a: unknown[]) => AsyncIterable<unknown>).apply(target, args);
          return {
            async *[Symbol.asyncIterator]() {
              await hooks.before?.({ method, args });
              yield* inner;
            },
          };
        };
      }
      return async (...args: unknown[]) => {
        const call = { method, args };
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

/** What `crashAfter` gives: the crashing client, and what its crash did. */
export interface Crash<C> {
  client: C;
  /** Resolves once the crash has happened. */
  crashed: Promise<void>;
  /**
   * How many calls the crash has failed: the one it crashed after (its result
   * lost) and every later one. A test asserts it to show the crash cut a
   * Manager off — a crash that never happened would leave it 0.
   */
  refused(): number;
}

/**
 * A client that "crashes" right after the first call `at` matches has
 * succeeded: that call and every later one fail, and `crashed` resolves, so the
 * test can stop the Manager knowing nothing after that write reached the API.
 */
export function crashAfter<C extends Client>(client: C, at: (call: Call) => boolean): Crash<C> {
  let crash: () => void = () => {};
  const crashed = new Promise<void>((resolve) => {
    crash = resolve;
  });
  let down = false;
  let refused = 0;
  const wrapped = intercept(client, {
    before(call) {
      if (!down) return;
      refused++;
      throw new CrashError(call);
    },
    after(call) {
      if (down || !at(call)) return;
      down = true;
      refused++;
      crash();
      throw new CrashError(call);
    },
  });
  return { client: wrapped, crashed, refused: () => refused };
}

/**
 * A client that lets `interfere` (another writer, on the real client) change
 * things just before the first `times` calls `at` matches (`nth` counts them
 * from 1), and counts the 409 Conflicts those calls then get.
 */
export function conflictBefore<C extends Client>(
  client: C,
  at: (call: Call) => boolean,
  interfere: (call: Call, nth: number) => Promise<unknown>,
  times = 1,
): { client: C; seen: { interfered: number; conflicts: number } } {
  const seen = { interfered: 0, conflicts: 0 };
  const wrapped = intercept(client, {
    async before(call) {
      if (seen.interfered >= times || !at(call)) return;
      await interfere(call, ++seen.interfered);
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
