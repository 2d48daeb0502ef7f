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
  private readonly entries: { token: Buffer; user: UserInfo }[];

  constructor(tokens: Map<string, UserInfo>) {
    this.entries = [...tokens].map(([token, user]) => ({
      token: Buffer.from(token),
      user: { ...user, groups: [...new Set([...user.groups, AUTHENTICATED_GROUP])] },
    }));
  }

  authenticate(req: IncomingMessage): UserInfo | undefined {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const presented = Buffer.from(token);
    for (const e of this.entries) {
      if (e.token.length === presented.length && timingSafeEqual(e.token, presented)) return e.user;
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
