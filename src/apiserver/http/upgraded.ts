/**
 * Requests whose connection a handler has taken over (an exec, attach or
 * port-forward upgraded to WebSocket or SPDY): the server must not end their
 * socket when the handler's response finishes.
 */
import type { IncomingMessage } from "node:http";

const upgraded = new WeakSet<IncomingMessage>();

export function markUpgraded(req: IncomingMessage): void {
  upgraded.add(req);
}

export function isUpgraded(req: IncomingMessage): boolean {
  return upgraded.has(req);
}
