/**
 * What every resource handler gets: the parsed request, the resource type, the
 * store, and the per-request options kube-apiserver reads from the query string.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { KubeObject } from "../../api/index.js";
import type { Backend } from "../../storage/index.js";
import type { NamespaceLifecycle } from "../admission/namespace-lifecycle.js";
import type { AdmissionChain, AdmissionOperation } from "../admission/types.js";
import type { ServiceAccountTokens } from "../auth/service-account-tokens.js";
import type { Authorizer, UserInfo } from "../auth/types.js";
import type { RequestInfo } from "../http/request-info.js";
import { warningHeaderValues } from "../http/warning-header.js";
import type { ResourceUsage } from "../metrics-api/resource-usage.js";
import type { NodeClientTls } from "../node-connection.js";
import type { ResourceRegistry } from "../resources/registry.js";
import type { ResourceType } from "../resources/resource-type.js";
import type { ObjectStore } from "../store/object-store.js";

export interface ServerContext {
  backend: Backend;
  store: ObjectStore;
  registry: ResourceRegistry;
  /** Bookmark interval for watches, ms. */
  bookmarkIntervalMs: number;
  /** Ends long-running requests (watches) when the server stops. */
  signal: AbortSignal;
  admission: AdmissionChain;
  /** Whether a namespace exists and takes new content (from a watch-fed cache). */
  namespaces: NamespaceLifecycle;
  authorizer: Authorizer;
  /** The client certificate the apiserver shows node agents, and the CA their serving certificates chain to. */
  nodeClient?: NodeClientTls;
  /** Issues ServiceAccount tokens (the `token` subresource); absent when no signing key is set. */
  serviceAccountTokens?: ServiceAccountTokens;
  /** The node agents' figures behind metrics.k8s.io; without it the metrics lists are empty. */
  resourceUsage?: ResourceUsage;
}

export interface RequestContext {
  server: ServerContext;
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  query: URLSearchParams;
  type: ResourceType;
  /** The authenticated user. */
  user: UserInfo;
  /** Warnings to send as `Warning: 299 - "…"` headers. */
  warnings: string[];
}

/** The request's warnings as kube's recorder sends them (deduplicated, sanitized, size-capped). */
export function warningHeaders(ctx: RequestContext): Record<string, string[]> {
  const values = warningHeaderValues(ctx.warnings);
  return values.length === 0 ? {} : { Warning: values };
}

/** `fieldValidation`: Strict, Warn (the default) or Ignore. */
export function fieldValidation(query: URLSearchParams): "Strict" | "Warn" | "Ignore" {
  const v = query.get("fieldValidation");
  return v === "Strict" || v === "Ignore" ? v : "Warn";
}

/**
 * Runs admission for this request; warnings go to the response, a refusal throws.
 * `dryRun` defaults to the query's (checked options); a DELETE passes its DeleteOptions'.
 */
export async function admit(
  ctx: RequestContext,
  operation: AdmissionOperation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  dryRun = ctx.query.getAll("dryRun").length > 0,
): Promise<void> {
  const warnings = await ctx.server.admission.validate({
    operation,
    type: ctx.type,
    subresource: ctx.info.subresource ?? "",
    namespace:
      ctx.info.namespace ?? object?.metadata.namespace ?? oldObject?.metadata.namespace ?? "",
    name: object?.metadata.name ?? oldObject?.metadata.name ?? ctx.info.name ?? "",
    object,
    oldObject,
    user: ctx.user,
    dryRun,
  });
  if (warnings.length > 0) ctx.warnings.push(...warnings);
}
