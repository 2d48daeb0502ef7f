/**
 * Helpers for controller tests on the envtest tier: run a fresh Manager on a
 * client (so a test can stop one mid-way and start another on the same
 * apiserver, as a crash and restart would), a client whose every call first
 * passes through a hook (to crash a reconciler between two writes, or make a
 * competing write just before one), and small readers for end states.
 */
import type { KubeObject } from "../../src/api/types.js";
import { type Client, getOptional } from "../../src/client/index.js";
import { Manager, type ManagerOptions } from "../../src/runtime/index.js";
import { waitFor } from "./hearth-process.js";

export interface RunningManager {
  manager: Manager;
  /** Stops the Manager and waits until everything it ran has ended. */
  stop(): Promise<void>;
}

/** A new Manager on `client`, with `register` adding its controllers, started and synced. */
export async function runManager(
  client: Client,
  register: (m: Manager) => void,
  opts: ManagerOptions = {},
): Promise<RunningManager> {
  const manager = new Manager(client, { log: () => {}, ...opts });
  register(manager);
  const running = new AbortController();
  const done = manager.start(running.signal);
  done.catch(() => {});
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    running.abort();
    await done.catch(() => {});
  };
  if (!opts.leaderElection) {
    await waitFor("the Manager ready", () => manager.readyz()).catch(async (e) => {
      await stop();
      throw e;
    });
  }
  return { manager, stop };
}

/** One call of a client: its method name and arguments. */
export interface Call {
  method: string;
  args: unknown[];
}

/**
 * `client` with `hook` run before every call (watches included) and `after`
 * once a call other than a watch has succeeded; a hook that throws fails the
 * call. Properties that are not methods (the mapper) pass through.
 */
export function hookClient<C extends Client>(
  client: C,
  hook: (call: Call) => Promise<void> | void,
  after: (call: Call) => void = () => {},
): C {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const real: unknown = Reflect.get(target, prop, receiver);
      if (typeof real !== "function" || prop === "close") return real;
      const method = String(prop);
      return (...args: unknown[]) => {
        if (method === "watch") {
          // A watch is an async iterable, not a promise: the hook runs when it is opened.
          const inner = (real as (...a: unknown[]) => AsyncIterable<unknown>).apply(target, args);
          return {
            async *[Symbol.asyncIterator]() {
              await hook({ method, args });
              yield* inner;
            },
          };
        }
        const call = { method, args };
        return Promise.resolve(hook(call))
          .then(() => (real as (...a: unknown[]) => unknown).apply(target, args))
          .then((result) => {
            after(call);
            return result;
          });
      };
    },
  });
}

/** The kind written by a create/update/patch/updateStatus/patchStatus/delete call, if any. */
export function writtenKind(call: Call): string | undefined {
  if (!/^(create|update|patch|updateStatus|patchStatus|delete)$/.test(call.method))
    return undefined;
  return (call.args[0] as { kind?: string } | undefined)?.kind;
}

/**
 * A client that "crashes" right after the first call `isStep` picks has
 * completed: every later call fails, as if the process had died there.
 * `crashed` resolves when that happened.
 */
export function crashAfter<C extends Client>(
  client: C,
  isStep: (call: Call) => boolean,
): { client: C; crashed: Promise<void> } {
  let dead = false;
  let onCrash: () => void = () => {};
  const crashed = new Promise<void>((resolve) => {
    onCrash = resolve;
  });
  const hooked = hookClient(
    client,
    () => {
      if (dead) throw new Error("crashed: the process is gone");
    },
    (call) => {
      if (dead || !isStep(call)) return;
      dead = true;
      onCrash();
    },
  );
  return { client: hooked, crashed };
}

/** The object, or undefined once it is gone. */
export function read<T extends KubeObject = KubeObject>(
  client: Client,
  apiVersion: string,
  kind: string,
  name: string,
  namespace?: string,
): Promise<T | undefined> {
  return getOptional<T>(client, { apiVersion, kind, name, namespace });
}

/** Creates namespace `name` (a fresh one per test keeps tests apart on one apiserver). */
export async function namespace(client: Client, name: string): Promise<string> {
  await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
  return name;
}

/** Waits until `get` returns an object for which `ok` holds; returns it. */
export function waitForObject<T extends KubeObject>(
  what: string,
  get: () => Promise<T | undefined>,
  ok: (o: T) => boolean,
  timeoutMs?: number,
): Promise<T> {
  return waitFor(
    what,
    async () => {
      const o = await get();
      return o && ok(o) ? o : undefined;
    },
    timeoutMs,
  );
}

/** Waits until `get` returns undefined (the object is gone). */
export function waitGone(
  what: string,
  get: () => Promise<KubeObject | undefined>,
  timeoutMs?: number,
): Promise<true> {
  return waitFor(what, async () => ((await get()) === undefined ? true : undefined), timeoutMs);
}
