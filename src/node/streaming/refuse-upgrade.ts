/** An upgrade request answered with a plain HTTP error (the kubelet's way), then closed. */
import type { Duplex } from "node:stream";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  500: "Internal Server Error",
};

/** Answers an upgrade request with a plain error and closes the connection. */
export function refuseUpgrade(socket: Duplex, code: number, message: string): void {
  const body = Buffer.from(message);
  socket.end(
    `HTTP/1.1 ${code} ${REASONS[code] ?? "Error"}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${message}`,
  );
}
