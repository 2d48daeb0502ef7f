/**
 * POST `/api/v1/namespaces/<ns>/serviceaccounts/<name>/token`: an
 * authentication.k8s.io/v1 TokenRequest in, the same with `status.token` and
 * `status.expirationTimestamp` out (201). `spec.expirationSeconds` defaults to
 * one hour and must be at least ten minutes; `spec.audiences` defaults to the
 * API's own; `spec.boundObjectRef` may bind the token to a Pod, Secret or Node.
 */

import {
  ApiError,
  BadRequestError,
  ConflictError,
  InvalidError,
  invalidValue,
  isObject,
  type KubeObject,
  MethodNotAllowedError,
  rfc3339,
} from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";
import { decodeBody, readBodyBytes } from "../http/body.js";
import { sendJson } from "../http/respond.js";
import type { TokenSubject } from "./service-account-tokens.js";

const API_VERSION = "authentication.k8s.io/v1";
const DEFAULT_EXPIRATION_S = 3600;
const MIN_EXPIRATION_S = 600;
const MAX_EXPIRATION_S = 2 ** 32;
const BINDABLE: Record<string, { plural: string; claim: "pod" | "secret" | "node" }> = {
  Pod: { plural: "pods", claim: "pod" },
  Secret: { plural: "secrets", claim: "secret" },
  Node: { plural: "nodes", claim: "node" },
};

interface TokenRequestSpec {
  audiences?: string[] | null;
  expirationSeconds?: number | null;
  boundObjectRef?: { kind?: string; apiVersion?: string; name?: string; uid?: string } | null;
}

function invalid(field: string, value: unknown, why: string): InvalidError {
  return new InvalidError({ group: "authentication.k8s.io", kind: "TokenRequest", name: "" }, [
    invalidValue(field, value, why),
  ]);
}

/** Resolves the bound object; kube's errors for a wrong kind, a missing object or a stale uid. */
async function bindTo(
  ctx: RequestContext,
  ref: NonNullable<TokenRequestSpec["boundObjectRef"]>,
): Promise<TokenSubject["bound"]> {
  const kind = BINDABLE[ref.kind ?? ""];
  const type = kind && ctx.server.registry.lookup("", "v1", kind.plural);
  if (!kind || !type)
    throw new BadRequestError(
      `cannot bind token for object of kind ${JSON.stringify(ref.kind ?? "")}`,
    );
  const obj = await ctx.server.store.get(
    type,
    type.namespaced ? ctx.info.namespace : undefined,
    ref.name ?? "",
  );
  if (ref.uid && ref.uid !== obj.metadata.uid) {
    throw new ConflictError(
      { group: "", resource: kind.plural, name: ref.name },
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return { kind: kind.claim, ref: { name: ref.name ?? "", uid: obj.metadata.uid ?? "" } };
}

export async function handleTokenRequest(ctx: RequestContext): Promise<void> {
  const tokens = ctx.server.serviceAccountTokens;
  if (!tokens)
    throw new ApiError(404, "NotFound", "the server could not find the requested resource");
  if (ctx.info.verb !== "create")
    throw new MethodNotAllowedError(
      "the server does not allow this method on the requested resource",
    );
  const body = decodeBody(await readBodyBytes(ctx.req), ctx.req.headers["content-type"]);
  if (!isObject(body) || body.kind !== "TokenRequest" || body.apiVersion !== API_VERSION)
    throw new BadRequestError(`expected ${API_VERSION} TokenRequest in the request body`);
  const saType = ctx.server.registry.lookup("", "v1", "serviceaccounts")!;
  const sa = await ctx.server.store.get(saType, ctx.info.namespace, ctx.info.name!);
  const spec = (isObject(body.spec) ? body.spec : {}) as TokenRequestSpec;
  const expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_S;
  if (!Number.isInteger(expirationSeconds) || expirationSeconds < MIN_EXPIRATION_S)
    throw invalid(
      "spec.expirationSeconds",
      expirationSeconds,
      "may not specify a duration less than 10 minutes",
    );
  if (expirationSeconds > MAX_EXPIRATION_S)
    throw invalid(
      "spec.expirationSeconds",
      expirationSeconds,
      "may not specify a duration larger than 2^32 seconds",
    );
  const audiences = spec.audiences?.length ? spec.audiences : tokens.apiAudiences;
  const bound = spec.boundObjectRef ? await bindTo(ctx, spec.boundObjectRef) : undefined;
  const subject: TokenSubject = {
    namespace: ctx.info.namespace ?? "",
    serviceAccount: { name: sa.metadata.name ?? "", uid: sa.metadata.uid ?? "" },
    ...(bound ? { bound } : {}),
  };
  const { token, expiration } = tokens.issue(subject, audiences, expirationSeconds);
  const metadata = isObject(body.metadata) ? (body.metadata as KubeObject["metadata"]) : {};
  sendJson(ctx.res, 201, {
    kind: "TokenRequest",
    apiVersion: API_VERSION,
    metadata: {
      ...metadata,
      name: sa.metadata.name,
      namespace: ctx.info.namespace,
      creationTimestamp: rfc3339(),
    },
    spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
    status: { token, expirationTimestamp: rfc3339(expiration) },
  });
}
