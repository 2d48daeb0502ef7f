/**
 * Authenticators tried in order, as kube-apiserver's union: the first that
 * recognises the request's credentials names the user; one that fails (a bad
 * certificate, an expired token) does not stop the others. Every user found
 * gets `system:authenticated`, as kube's AuthenticatedGroupAdder adds it.
 * While the authenticators answer synchronously, so does the union.
 */
import type { IncomingMessage } from "node:http";
import { AUTHENTICATED_GROUP, type Authenticator, isPromiseLike, type UserInfo } from "./types.js";

type Answer = ReturnType<Authenticator["authenticate"]>;

export function unionAuthenticator(
  authenticators: Authenticator[],
  log: (msg: string, err?: unknown) => void = () => {},
): Authenticator {
  /** Asks authenticators `from`, `from + 1`, … in turn. */
  const tryFrom = (req: IncomingMessage, from: number): Answer => {
    for (let i = from; i < authenticators.length; i++) {
      let answer: Answer;
      try {
        answer = authenticators[i]!.authenticate(req);
      } catch (e) {
        log("authentication failed", e);
        continue;
      }
      if (isPromiseLike(answer))
        return Promise.resolve(answer).then(
          (user) => (user ? withAuthenticatedGroup(user) : tryFrom(req, i + 1)),
          (e: unknown) => {
            log("authentication failed", e);
            return tryFrom(req, i + 1);
          },
        );
      if (answer) return withAuthenticatedGroup(answer);
    }
    return undefined;
  };
  return { authenticate: (req) => tryFrom(req, 0) };
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(AUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}
