/**
 * Relays one exec or attach session between a client's WebSocket (channel
 * protocol v5 or v4) and the runtime's streaming server over SPDY (remote
 * command protocol v4), as kube-apiserver's StreamTranslatorProxy does: the
 * client's stdin and resize messages go to the SPDY streams of those names,
 * the stdout, stderr and error streams come back on their channels. v5's close
 * of channel 0 half-closes stdin (`echo hi | kubectl exec -i … cat` ends).
 * The error stream's `Status` (exit code as a `NonZeroExitCode` cause) is
 * passed through, then the WebSocket closes. When either side goes away the
 * other is closed: the runtime ends the exec'd process with its connection.
 */
import type { WebSocket } from "ws";
import {
  channelMessage,
  ERROR,
  parseChannelMessage,
  RESIZE,
  STDERR,
  STDIN,
  STDOUT,
} from "./channels.js";
import type { ExecReaper } from "./exec-reaper.js";
import { upgradeToRuntime } from "./runtime-upgrade.js";
import { SpdySession, type SpdyStream } from "./spdy-session.js";
import { whenWsEnds } from "./ws-lifetime.js";

export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export async function relayExec(
  ws: WebSocket,
  runtimeUrl: string,
  o: StreamOptions,
  signal: AbortSignal,
  reaper?: ExecReaper,
): Promise<void> {
  const v5 = ws.protocol === "v5.channel.k8s.io";
  // Messages that arrive while the runtime connection is being made wait here.
  const early: Buffer[] = [];
  const onEarly = (m: Buffer) => early.push(m);
  ws.on("message", onEarly);
  let upgrade: Awaited<ReturnType<typeof upgradeToRuntime>>;
  try {
    await reaper?.prepare();
    upgrade = await upgradeToRuntime(runtimeUrl, ["v4.channel.k8s.io"], signal);
  } catch (e) {
    const status = {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `error dialing the container runtime: ${(e as Error).message}`,
      reason: "InternalError",
      code: 500,
    };
    ws.send(channelMessage(ERROR, Buffer.from(JSON.stringify(status))));
    ws.close(1000);
    return;
  }
  const session = new SpdySession(upgrade.socket);
  // kube's client opens the error stream first: the server answers on it last.
  const error = session.open({ streamtype: "error" });
  const stdin = o.stdin ? session.open({ streamtype: "stdin" }) : undefined;
  const stdout = o.stdout ? session.open({ streamtype: "stdout" }) : undefined;
  const stderr = o.stderr && !o.tty ? session.open({ streamtype: "stderr" }) : undefined;
  const resize = o.tty ? session.open({ streamtype: "resize" }) : undefined;
  const forward = (stream: SpdyStream | undefined, channel: number) =>
    stream?.on("data", (d) => {
      if (ws.readyState === ws.OPEN) ws.send(channelMessage(channel, d));
    });
  forward(stdout, STDOUT);
  forward(stderr, STDERR);
  forward(error, ERROR);
  const fromClient = (m: Buffer) => {
    const msg = parseChannelMessage(m, v5);
    if (!msg) return;
    if ("closes" in msg) {
      if (msg.closes === STDIN) stdin?.end();
    } else if (msg.channel === STDIN) stdin?.write(msg.data);
    else if (msg.channel === RESIZE) resize?.write(msg.data);
  };
  ws.off("message", onEarly);
  for (const m of early) fromClient(m);
  ws.on("message", fromClient);
  const running = new AbortController();
  reaper?.watch(running.signal);
  let exited = false;
  error.on("end", () => {
    exited = true;
  });
  await new Promise<void>((resolve) => {
    const finish = () => {
      if (running.signal.aborted) return;
      running.abort();
      // The process had not ended when the client (or the server) went away: it must not outlive the session.
      void reaper?.end(!exited);
      session.close();
      if (ws.readyState === ws.OPEN) ws.close(1000);
      resolve();
    };
    // The error stream ends once the process has and its status is written.
    error.on("end", finish);
    session.on("close", finish);
    whenWsEnds(ws, signal, finish);
  });
}
