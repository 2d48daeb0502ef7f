/**
 * The channel protocol of kube's WebSocket streams (`v4.channel.k8s.io`,
 * `v5.channel.k8s.io`): each binary message is one channel byte then data.
 * Channels 0–4 are stdin, stdout, stderr, error (a `Status` as JSON) and
 * resize (a `{"Width","Height"}` JSON); v5 adds 255, whose one data byte
 * names a channel the sender closes (stdin's half-close).
 */
export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
export const RESIZE = 4;
export const CLOSE = 255;

/** The subprotocols a server speaks, preferred first. */
export const CHANNEL_PROTOCOLS = ["v5.channel.k8s.io", "v4.channel.k8s.io"] as const;

export type ChannelMessage =
  | { channel: number; data: Buffer }
  | { channel: typeof CLOSE; closes: number };

/** One received message; undefined if empty (kube's clients send none, but a ping-like empty is harmless). */
export function parseChannelMessage(message: Buffer, v5: boolean): ChannelMessage | undefined {
  if (message.length === 0) return undefined;
  const channel = message[0]!;
  if (channel === CLOSE && v5) {
    if (message.length < 2) return undefined;
    return { channel: CLOSE, closes: message[1]! };
  }
  return { channel, data: message.subarray(1) };
}

export function channelMessage(channel: number, data: Buffer): Buffer {
  const out = Buffer.allocUnsafe(data.length + 1);
  out[0] = channel;
  data.copy(out, 1);
  return out;
}
