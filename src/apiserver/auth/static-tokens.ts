/**
 * Bearer tokens from a fixed table (the admin token of `hearth up`, and kube's
 * static token file format later): constant-time comparison, one user each.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { AUTHENTICATED_GROUP, type Authenticator, type UserInfo } from "./types.js";

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization ?? "";
  if (!header.startsWith("Bearer ")) return undefined;
  const token = header.slice(7).trim();
  return token === "" ? undefined : token;
}

export class StaticTokenAuthenticator implements Authenticator {
  /** Each token's bytes, a buffer of the same length to copy a presented token into, its user. */
  private readonly entries: { token: Buffer; presented: Buffer; user: UserInfo }[];

  constructor(tokens: Map<string, UserInfo>) {
    this.entries = [...tokens].map(([token, user]) => ({
      token: Buffer.from(token),
      presented: Buffer.alloc(Buffer.byteLength(token)),
      user: { ...user, groups: [...new Set([...user.groups, AUTHENTICATED_GROUP])] },
    }));
  }

  authenticate(req: IncomingMessage): UserInfo | undefined {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const length = Buffer.byteLength(token);
    for (const e of this.entries) {
      if (e.token.length !== length) continue;
      e.presented.write(token);
      if (timingSafeEqual(e.token, e.presented)) return e.user;
    }
    return undefined;
  }
}

/** Tests and benchmarks without credentials: everyone is an administrator. */
export const ANONYMOUS_ADMIN: Authenticator = {
  authenticate: () => ({
    username: "system:admin",
    groups: ["system:masters", AUTHENTICATED_GROUP],
  }),
};
