/**
 * A client's SPDY/3.1 upgrade (kubectl before 1.30/1.31, client-go programs
 * asking for SPDY) passed to the runtime's streaming server as it is: the
 * runtime chooses among the protocols the client offered, its 101 goes back
 * to the client, then bytes are copied both ways until either side closes.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { ExecReaper } from "./exec-reaper.js";
import { refuseUpgrade } from "./refuse-upgrade.js";
import { RuntimeRefusal, upgradeToRuntime } from "./runtime-upgrade.js";

export async function passThroughSpdy(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  runtimeUrl: string,
  signal: AbortSignal,
  reaper?: ExecReaper,
): Promise<void> {
  const offered = req.headersDistinct["x-stream-protocol-version"] ?? [];
  let upstream: Awaited<ReturnType<typeof upgradeToRuntime>>;
  try {
    await reaper?.prepare();
    upstream = await upgradeToRuntime(
      runtimeUrl,
      offered.flatMap((v) => v.split(",").map((p) => p.trim())),
      signal,
    );
  } catch (e) {
    const code = e instanceof RuntimeRefusal ? e.statusCode : 500;
    return refuseUpgrade(socket, code, (e as Error).message);
  }
  socket.write(
    "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n" +
      `X-Stream-Protocol-Version: ${upstream.protocol}\r\n\r\n`,
  );
  if (head.length > 0) upstream.socket.write(head);
  socket.pipe(upstream.socket);
  upstream.socket.pipe(socket);
  const running = new AbortController();
  reaper?.watch(running.signal);
  // The runtime closes the connection once the process has ended; a client closing first leaves it running.
  const close = (early: boolean) => {
    if (running.signal.aborted) return;
    running.abort();
    void reaper?.end(early);
    socket.destroy();
    upstream.socket.destroy();
  };
  socket.on("close", () => close(true));
  upstream.socket.on("close", () => close(false));
  upstream.socket.on("error", () => close(false));
  const onAbort = () => close(true);
  signal.addEventListener("abort", onAbort, { once: true });
  socket.once("close", () => signal.removeEventListener("abort", onAbort));
}
