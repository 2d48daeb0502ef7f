/**
 * Starts a server under test in a worker thread (see server-worker.ts) and stops
 * it: `stop()` asks the worker to close the server and its database and waits for
 * the thread to exit, terminating it if it has not within a deadline. Calling
 * `stop()` again returns the same promise.
 */
import { Worker } from "node:worker_threads";
import type { WorkerConfig, WorkerMessage } from "./server-worker.js";

export interface ServerThread {
  /** `https://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

const STOP_DEADLINE_MS = 10_000;

export async function startServerThread(cfg: WorkerConfig): Promise<ServerThread> {
  const worker = new Worker(new URL("./server-worker.js", import.meta.url), { workerData: cfg });
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const next = () =>
    new Promise<WorkerMessage>((resolve, reject) => {
      const onError = (e: Error) => reject(e);
      worker.once("error", onError);
      worker.once("message", (m: WorkerMessage) => {
        worker.off("error", onError);
        resolve(m);
      });
    });
  const first = await next().catch(async (e: unknown) => {
    await worker.terminate();
    throw e;
  });
  if (first.type !== "listening") {
    await worker.terminate();
    throw new Error(`cannot start the ${cfg.kind} server: ${JSON.stringify(first)}`);
  }
  const stop = async () => {
    const reply = next();
    worker.postMessage("stop");
    const timer = setTimeout(() => void worker.terminate(), STOP_DEADLINE_MS);
    try {
      // The worker may die without replying; its exit ends the wait either way.
      const m = await Promise.race([reply, exited.then(() => undefined)]).catch(String);
      if (m === undefined || typeof m === "string" || m.type !== "stopped")
        console.error(`bench: ${cfg.kind} server did not stop cleanly: ${JSON.stringify(m)}`);
      await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  let stopping: Promise<void> | undefined;
  return {
    url: `https://127.0.0.1:${first.port}`,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
