/**
 * Upgrades a connection to the runtime's streaming server (the URL CRI
 * `Exec`/`Attach`/`PortForward` returned, on loopback) to SPDY/3.1 with one
 * of the stream protocols kube's remotecommand and portforward speak; resolves
 * with the raw socket, or rejects with the server's refusal.
 */
import http from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

export interface RuntimeUpgrade {
  socket: Duplex;
  /** The protocol the server chose (`X-Stream-Protocol-Version`). */
  protocol: string;
}

export class RuntimeRefusal extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export function upgradeToRuntime(
  url: string,
  protocols: string[],
  signal?: AbortSignal,
): Promise<RuntimeUpgrade> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: {
        Connection: "Upgrade",
        Upgrade: "SPDY/3.1",
        "X-Stream-Protocol-Version": protocols,
      },
      ...(signal ? { signal } : {}),
    });
    req.on("upgrade", (res, socket, head) => {
      if (head.length > 0) socket.unshift(head);
      (socket as Socket).setNoDelay?.(true);
      const chosen = res.headers["x-stream-protocol-version"];
      resolve({ socket, protocol: Array.isArray(chosen) ? (chosen[0] ?? "") : (chosen ?? "") });
    });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () => reject(new RuntimeRefusal(res.statusCode ?? 500, body.trim())));
    });
    req.on("error", reject);
    req.end();
  });
}
