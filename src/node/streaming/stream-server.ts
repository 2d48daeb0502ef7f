/**
 * The node API's streaming routes, served on upgraded connections as the
 * kubelet serves them: `/exec/<ns>/<pod>/<container>?command=…&input=1&output=1…`,
 * `/attach/<ns>/<pod>/<container>` and `/portForward/<ns>/<pod>`. Each asks
 * the runtime (CRI `Exec`, `Attach`, `PortForward`) for a URL on its
 * streaming server (loopback only), then:
 * - a WebSocket of `v5.channel.k8s.io` or `v4.channel.k8s.io` (exec, attach)
 *   is translated to SPDY (exec-relay.ts);
 * - a WebSocket of `SPDY/3.1+portforward.k8s.io` is unwrapped to the
 *   runtime's SPDY port-forward (port-forward-relay.ts);
 * - a SPDY/3.1 upgrade (older clients) is passed to the runtime unchanged.
 * What cannot be served is answered before any upgrade, as a plain HTTP error.
 * Who may connect is the caller's (log-server.ts) business.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer } from "ws";
import { CHANNEL_PROTOCOLS } from "./channels.js";
import { type ContainerProcesses, ExecReaper } from "./exec-reaper.js";
import { relayExec, type StreamOptions } from "./exec-relay.js";
import { relayPortForward, TUNNELING_PROTOCOL } from "./port-forward-relay.js";
import { refuseUpgrade } from "./refuse-upgrade.js";
import { passThroughSpdy } from "./spdy-pass-through.js";

export type StreamTarget =
  | { ok: true; containerId: string; sandboxId: string }
  | { ok: false; code: number; message: string };

/** The running container (or, with no container, the pod's sandbox) a request names. */
export type StreamLookup = (namespace: string, pod: string, container?: string) => StreamTarget;

/** The runtime's streaming calls (CriClient's). */
export interface StreamingRuntime {
  exec(id: string, req: StreamOptions & { cmd: string[] }, o: object): Promise<string>;
  attach(id: string, req: StreamOptions, o: object): Promise<string>;
  portForward(sandboxId: string, ports: number[], o: object): Promise<string>;
}

/**
 * kube's port-forward subprotocol `SPDY/3.1+portforward.k8s.io` is not an
 * RFC 6455 token ("/" is a separator), which `ws` refuses in a handshake
 * (400 "Invalid Sec-WebSocket-Protocol header"); gorilla/websocket, kube's
 * library, takes it. So the request's header names it by a token-safe
 * stand-in, and the answer's header is put back to the real name, which the
 * client checks.
 */
const TUNNELING_TOKEN = "hearth-spdy-3.1-portforward-tunnel";

function tunnelingAware(wss: WebSocketServer): WebSocketServer {
  wss.on("headers", (headers) => {
    for (let i = 0; i < headers.length; i++)
      if (headers[i] === `Sec-WebSocket-Protocol: ${TUNNELING_TOKEN}`)
        headers[i] = `Sec-WebSocket-Protocol: ${TUNNELING_PROTOCOL}`;
  });
  return wss;
}

/** The request's offered subprotocols with kube's tunneling one under its stand-in. */
function standIn(req: IncomingMessage): void {
  const offered = req.headers["sec-websocket-protocol"];
  if (offered?.includes(TUNNELING_PROTOCOL))
    req.headers["sec-websocket-protocol"] = offered.split(TUNNELING_PROTOCOL).join(TUNNELING_TOKEN);
}

function flag(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === "true" || v === "1";
}

export class StreamServer {
  private readonly wss = tunnelingAware(
    new WebSocketServer({
      noServer: true,
      handleProtocols: (offered) =>
        [...CHANNEL_PROTOCOLS, TUNNELING_TOKEN].find((p) => offered.has(p)) ?? false,
    }),
  );

  constructor(
    private readonly lookup: StreamLookup,
    private readonly runtime: StreamingRuntime,
    private readonly signal: AbortSignal,
    /** Lists a container's processes, so that an exec's process can be ended with its session. */
    private readonly containerProcesses?: ContainerProcesses,
  ) {}

  /** Whether `path` is one of the streaming routes. */
  static handles(path: string): boolean {
    return /^\/(exec|attach|portForward)\//.test(path);
  }

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on("error", () => socket.destroy());
    const url = new URL(req.url ?? "/", "http://node");
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const [route, namespace, pod, container] = parts as [string, string, string, string?];
    const want = route === "portForward" ? 3 : 4;
    if (parts.length !== want) return refuseUpgrade(socket, 404, "404 page not found");
    const target = this.lookup(namespace, pod, container);
    if (!target.ok) return refuseUpgrade(socket, target.code, target.message);
    const q = url.searchParams;
    // The kubelet's names (`input`, `output`, `error`: what kube-apiserver sends), or PodExecOptions'.
    const o: StreamOptions = {
      stdin: flag(q, "input") || flag(q, "stdin"),
      stdout: flag(q, "output") || flag(q, "stdout"),
      stderr: flag(q, "error") || flag(q, "stderr"),
      tty: flag(q, "tty"),
    };
    if (o.tty) o.stderr = false;
    let runtimeUrl: string;
    const cmd = q.getAll("command");
    const reaper =
      route === "exec" && this.containerProcesses
        ? new ExecReaper(this.containerProcesses, target.containerId, cmd)
        : undefined;
    try {
      if (route === "portForward") {
        const ports = q.getAll("port").map(Number);
        runtimeUrl = await this.runtime.portForward(target.sandboxId, ports, {});
      } else if (!o.stdin && !o.stdout && !o.stderr)
        return refuseUpgrade(socket, 400, "you must specify at least 1 of stdin, stdout, stderr");
      else if (route === "exec") {
        if (cmd.length === 0) return refuseUpgrade(socket, 400, "you must specify a command");
        runtimeUrl = await this.runtime.exec(target.containerId, { ...o, cmd }, {});
      } else runtimeUrl = await this.runtime.attach(target.containerId, o, {});
    } catch (e) {
      return refuseUpgrade(socket, 500, (e as Error).message);
    }
    const upgrade = (req.headers.upgrade ?? "").toLowerCase();
    if (upgrade !== "websocket")
      return passThroughSpdy(req, socket, head, runtimeUrl, this.signal, reaper);
    standIn(req);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (ws.protocol === TUNNELING_TOKEN) {
        if (route !== "portForward") return ws.close(1002);
        void relayPortForward(ws, runtimeUrl, this.signal);
      } else if (route === "portForward") ws.close(1002);
      else void relayExec(ws, runtimeUrl, o, this.signal, reaper);
    });
  }
}
