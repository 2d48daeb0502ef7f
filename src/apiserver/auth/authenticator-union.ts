/**
 * Authenticators tried in order, as kube-apiserver's union: the first that
 * recognises the request's credentials names the user; one that fails (a bad
 * certificate, an expired token) does not stop the others. Every user found
 * gets `system:authenticated`, as kube's AuthenticatedGroupAdder adds it.
 */
import type { IncomingMessage } from "node:http";
import { AUTHENTICATED_GROUP, type Authenticator, type UserInfo } from "./types.js";

export function unionAuthenticator(
  authenticators: Authenticator[],
  log: (msg: string, err?: unknown) => void = () => {},
): Authenticator {
  return {
    async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
      for (const a of authenticators) {
        let user: UserInfo | undefined;
        try {
          user = await a.authenticate(req);
        } catch (e) {
          log("authentication failed", e);
          continue;
        }
        if (!user) continue;
        if (user.groups.includes(AUTHENTICATED_GROUP)) return user;
        return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
      }
      return undefined;
    },
  };
}
