/** How a relay's WebSocket ends: when it closes, or (without a close handshake) when the agent stops. */
import type { WebSocket } from "ws";

export function whenWsEnds(ws: WebSocket, signal: AbortSignal, finish: () => void): void {
  ws.on("close", finish);
  const onAbort = () => {
    ws.terminate();
    finish();
  };
  signal.addEventListener("abort", onAbort, { once: true });
  ws.once("close", () => signal.removeEventListener("abort", onAbort));
}
