/**
 * Port-forward as kubectl ≥ 1.31 asks for it: a WebSocket of subprotocol
 * `SPDY/3.1+portforward.k8s.io` whose binary messages carry, unframed, the
 * bytes of a SPDY session (client-go's TunnelingConnection). As
 * kube-apiserver's TunnelingHandler, the relay upgrades a connection to the
 * runtime's port-forward server to SPDY (`portforward.k8s.io`) and copies the
 * bytes both ways: the client's SPDY streams (a data and an error stream per
 * forwarded connection, headers `port` and `requestid`) reach the runtime
 * as they are. Either side closing closes the other.
 */
import type { WebSocket } from "ws";
import { upgradeToRuntime } from "./runtime-upgrade.js";
import { whenWsEnds } from "./ws-lifetime.js";

export const TUNNELING_PROTOCOL = "SPDY/3.1+portforward.k8s.io";

export async function relayPortForward(
  ws: WebSocket,
  runtimeUrl: string,
  signal: AbortSignal,
): Promise<void> {
  const early: Buffer[] = [];
  const onEarly = (m: Buffer) => early.push(m);
  ws.on("message", onEarly);
  let socket: Awaited<ReturnType<typeof upgradeToRuntime>>["socket"];
  try {
    ({ socket } = await upgradeToRuntime(runtimeUrl, ["portforward.k8s.io"], signal));
  } catch {
    ws.close(1011);
    return;
  }
  ws.off("message", onEarly);
  for (const m of early) socket.write(m);
  ws.on("message", (m: Buffer) => socket.write(m));
  socket.on("data", (d: Buffer) => {
    if (ws.readyState === ws.OPEN) ws.send(d);
  });
  await new Promise<void>((resolve) => {
    const finish = () => {
      socket.destroy();
      if (ws.readyState === ws.OPEN) ws.close(1000);
      resolve();
    };
    socket.on("close", finish);
    socket.on("error", finish);
    whenWsEnds(ws, signal, finish);
  });
}
