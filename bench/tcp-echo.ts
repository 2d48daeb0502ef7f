/**
 * TCP clients of an echo server for the streaming group: one connection
 * (TCP_NODELAY, as Hearth's relays set it), a timed echo of a payload on it —
 * written whole, timed until as many bytes came back and checked equal — and
 * a timed stream of many chunks written under back-pressure while the echo is
 * read, as MiB/s of bytes that made the round trip.
 */
import { connect, type Socket } from "node:net";

/** Connects to host:port with TCP_NODELAY; rejects after `timeoutMs`. */
export function openEcho(host: string, port: number, timeoutMs = 10_000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host, port, noDelay: true });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`connect ${host}:${port}: no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    sock.once("connect", () => {
      clearTimeout(timer);
      sock.off("error", reject);
      resolve(sock);
    });
    sock.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * Reads from `sock` until `bytes` arrived, calling `onData` with each chunk;
 * rejects on an error, an early close or `timeoutMs` without the whole.
 */
function readBytes(
  sock: Socket,
  bytes: number,
  timeoutMs: number,
  onData: (d: Buffer) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let got = 0;
    const done = (e?: Error) => {
      clearTimeout(timer);
      sock.off("data", data);
      sock.off("error", done);
      sock.off("close", closed);
      if (e) reject(e);
      else resolve();
    };
    const data = (d: Buffer) => {
      got += d.length;
      onData(d);
      if (got >= bytes) done();
    };
    const closed = () => done(new Error(`echo closed after ${got} of ${bytes} bytes`));
    const timer = setTimeout(
      () => done(new Error(`echo: ${got} of ${bytes} bytes back in ${timeoutMs} ms`)),
      timeoutMs,
    );
    sock.on("data", data);
    sock.once("error", done);
    sock.once("close", closed);
  });
}

/** Writes `payload`, waits for it back; milliseconds from the write to the last byte. */
export async function echoOnce(sock: Socket, payload: Buffer, timeoutMs = 10_000): Promise<number> {
  const chunks: Buffer[] = [];
  const start = performance.now();
  const back = readBytes(sock, payload.length, timeoutMs, (d) => chunks.push(d));
  sock.write(payload);
  await back;
  const ms = performance.now() - start;
  if (!Buffer.concat(chunks).equals(payload)) throw new Error("echo: bytes came back changed");
  return ms;
}

/** Streams `totalBytes` in chunks of `chunk` through the echo; MiB/s of the round trip. */
export async function streamThrough(
  sock: Socket,
  totalBytes: number,
  chunk: Buffer,
  timeoutMs = 120_000,
): Promise<number> {
  const start = performance.now();
  const back = readBytes(sock, totalBytes, timeoutMs, () => {});
  // A failure while a write waits for drain is thrown by the await below.
  back.catch(() => {});
  for (let sent = 0; sent < totalBytes; sent += chunk.length) {
    const piece = sent + chunk.length <= totalBytes ? chunk : chunk.subarray(0, totalBytes - sent);
    if (!sock.write(piece))
      await new Promise<void>((resolve, reject) => {
        const ok = () => {
          sock.off("close", gone);
          resolve();
        };
        const gone = () => {
          sock.off("drain", ok);
          reject(new Error("echo closed while streaming"));
        };
        sock.once("drain", ok);
        sock.once("close", gone);
      });
  }
  await back;
  const seconds = (performance.now() - start) / 1000;
  return totalBytes / 2 ** 20 / seconds;
}
