/**
 * What a floor of pod start-up shares (ctr-floor.ts runs the image by hand
 * with `ctr`): its result, and the readiness signal of a pod with a port — the
 * port accepting TCP connections, tried every few milliseconds.
 */
import { connect } from "node:net";

/** How often the floor tries the port: finer than any probe period. */
export const PORT_POLL_MS = 5;

export interface FloorRun {
  /** ms from just before spawn to the readiness signal. */
  readyMs: number;
  /** Ends the process group and waits for the process to exit. */
  stop(): Promise<void>;
}

export function tcpAccepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}
