/**
 * Wires who-may-do-what for one ApiServer from its options: the union of
 * authenticators (client certificates, static tokens, ServiceAccount tokens),
 * the authorizer (system:masters, then RBAC — or an explicit one, or allow-all),
 * and the RBAC machinery started with the server: the policy cache, the
 * bootstrap policy (only with RBAC on) and ClusterRole aggregation.
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import type { KubeObject } from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import type { AdmissionPlugin } from "../admission/types.js";
import {
  ClusterRoleAggregator,
  EscalationCheck,
  ensureBootstrapPolicy,
  PolicyCache,
  RBAC_GROUP,
  RBACAuthorizer,
} from "../rbac/index.js";
import type { ResourceRegistry } from "../resources/registry.js";
import type { ObjectStore } from "../store/object-store.js";
import { unionAuthenticator } from "./authenticator-union.js";
import { privilegedGroups, unionAuthorizer } from "./authorizer-union.js";
import { ClientCertificateAuthenticator } from "./client-certificate.js";
import { ServiceAccountTokenAuthenticator } from "./service-account-authenticator.js";
import { ServiceAccountTokens } from "./service-account-tokens.js";
import { ANONYMOUS_ADMIN, StaticTokenAuthenticator } from "./static-tokens.js";
import {
  ALLOW_ALL,
  type Authenticator,
  type Authorizer,
  MASTERS_GROUP,
  type UserInfo,
} from "./types.js";

export interface AccessOptions {
  /** Bearer token → user name, in system:masters. */
  tokens?: Map<string, string>;
  /** Bearer token → user (`--token-auth-file`). */
  tokenUsers?: Map<string, UserInfo>;
  /** CA certificates (PEM) client certificates must chain to; HTTPS only. */
  clientCAs?: string[];
  /** ServiceAccount tokens: the signing key (PEM), older public keys still accepted, issuer, API audiences. */
  serviceAccountSigning?: {
    keyPem: string;
    publicKeyPems?: string[];
    issuer?: string;
    audiences?: string[];
  };
  /** Authorize with RBAC (system:masters allowed everything) and write the bootstrap policy. */
  rbac?: boolean;
  /** Replace the authenticator / authorizer built from the options above. */
  authenticator?: Authenticator;
  authorizer?: Authorizer;
}

export interface Access {
  authenticator: Authenticator;
  authorizer: Authorizer;
  /** Admission plugins access control adds: RBAC's escalation check when RBAC is on. */
  admission: AdmissionPlugin[];
  serviceAccountTokens?: ServiceAccountTokens;
  /** The RBAC policy cache (writes under its prefix wait for its progress). */
  policy: PolicyCache;
  /** Loads policy, writes the bootstrap policy, starts aggregation; all stop with `signal`. */
  start(signal: AbortSignal, store: ObjectStore, registry: ResourceRegistry): Promise<void>;
}

export function setUpAccess(
  opts: AccessOptions,
  backend: Backend,
  log: (msg: string, err?: unknown) => void = () => {},
): Access {
  const policy = new PolicyCache(backend, log);
  const signing = opts.serviceAccountSigning;
  const saTokens = signing
    ? new ServiceAccountTokens(
        createPrivateKey(signing.keyPem),
        signing.issuer,
        signing.audiences,
        (signing.publicKeyPems ?? []).map((pem) => createPublicKey(pem)),
      )
    : undefined;
  let store: ObjectStore | undefined;
  let registry: ResourceRegistry | undefined;
  const getCore = async (plural: string, namespace: string | undefined, name: string) => {
    const t = registry?.lookup("", "v1", plural);
    return t && store
      ? ((await store.tryGet(t, namespace, name)) as KubeObject | undefined)
      : undefined;
  };

  const authenticators: Authenticator[] = [];
  if (opts.clientCAs?.length)
    authenticators.push(new ClientCertificateAuthenticator(opts.clientCAs));
  const tokenUsers = new Map(opts.tokenUsers ?? []);
  for (const [token, username] of opts.tokens ?? [])
    tokenUsers.set(token, { username, groups: [MASTERS_GROUP] });
  if (tokenUsers.size > 0) authenticators.push(new StaticTokenAuthenticator(tokenUsers));
  if (saTokens) authenticators.push(new ServiceAccountTokenAuthenticator(saTokens, getCore));

  const authorizer =
    opts.authorizer ??
    (opts.rbac ? unionAuthorizer([privilegedGroups(), new RBACAuthorizer(policy)]) : ALLOW_ALL);
  return {
    authenticator:
      opts.authenticator ??
      (authenticators.length > 0 ? unionAuthenticator(authenticators, log) : ANONYMOUS_ADMIN),
    authorizer,
    admission: opts.rbac ? [new EscalationCheck(policy, authorizer)] : [],
    policy,
    ...(saTokens ? { serviceAccountTokens: saTokens } : {}),
    async start(signal, objectStore, objectRegistry) {
      store = objectStore;
      registry = objectRegistry;
      await policy.start(signal);
      if (opts.rbac) await ensureBootstrapPolicy(objectStore, objectRegistry);
      const clusterRoles = objectRegistry.lookup(RBAC_GROUP, "v1", "clusterroles")!;
      const aggregator = new ClusterRoleAggregator(policy, objectStore, clusterRoles, log);
      aggregator.start(signal);
      await aggregator.idle();
    },
  };
}
