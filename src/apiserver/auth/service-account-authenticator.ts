/**
 * Authenticates bearer tokens issued by TokenRequest: a valid signature and
 * claims are not enough — the ServiceAccount (and the object the token is
 * bound to) must still exist with the uid in the token and not be on its way
 * out, so deleting a ServiceAccount revokes every token issued for it.
 */
import type { IncomingMessage } from "node:http";
import type { KubeObject } from "../../api/index.js";
import { looksLikeJwt } from "./jwt.js";
import {
  type ServiceAccountTokens,
  serviceAccountGroups,
  serviceAccountUsername,
} from "./service-account-tokens.js";
import { bearerToken } from "./static-tokens.js";
import type { Authenticator, UserInfo } from "./types.js";

/** Reads one core/v1 object: `serviceaccounts`, `secrets`, `pods` (namespaced) or `nodes`. */
export type CoreObjectGetter = (
  plural: string,
  namespace: string | undefined,
  name: string,
) => Promise<KubeObject | undefined>;

const BOUND_PLURALS = { pod: "pods", secret: "secrets", node: "nodes" } as const;

export class ServiceAccountTokenAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: ServiceAccountTokens,
    private readonly get: CoreObjectGetter,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    if (token === undefined || !looksLikeJwt(token)) return undefined;
    const claims = this.tokens.validate(token);
    if ("error" in claims) return this.refuse(claims.error);
    const { namespace, serviceAccount, bound } = claims;
    const sa = await this.get("serviceaccounts", namespace, serviceAccount.name);
    if (!sa || sa.metadata.deletionTimestamp)
      return this.refuse(`ServiceAccount ${namespace}/${serviceAccount.name} has been deleted`);
    if (sa.metadata.uid !== serviceAccount.uid)
      return this.refuse(
        `ServiceAccount UID (${sa.metadata.uid}) does not match claim (${serviceAccount.uid})`,
      );
    const extra: Record<string, string[]> = {
      "authentication.kubernetes.io/credential-id": [`JTI=${claims.jti}`],
    };
    if (bound) {
      const ns = bound.kind === "node" ? undefined : namespace;
      const obj = await this.get(BOUND_PLURALS[bound.kind], ns, bound.ref.name);
      if (!obj || obj.metadata.deletionTimestamp || obj.metadata.uid !== bound.ref.uid)
        return this.refuse(`the ${bound.kind} the token is bound to no longer exists`);
      extra[`authentication.kubernetes.io/${bound.kind}-name`] = [bound.ref.name];
      extra[`authentication.kubernetes.io/${bound.kind}-uid`] = [bound.ref.uid];
    }
    return {
      username: serviceAccountUsername(namespace, serviceAccount.name),
      uid: serviceAccount.uid,
      groups: serviceAccountGroups(namespace),
      extra,
    };
  }

  private refuse(why: string): undefined {
    this.log(`service account token refused: ${why}`);
    return undefined;
  }
}
