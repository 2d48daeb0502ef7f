/**
 * Routes one HTTP request: health and version, discovery, OpenAPI, then resource
 * requests to their verb's handler. Every failure becomes a Status response.
 * The path is read as sent and decoded once (never dot-resolved), and a name or
 * namespace taken from it must be a valid path segment before any handler runs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ApiError,
  BadRequestError,
  MethodNotAllowedError,
  NotFoundError,
  pathSegmentName,
} from "../api/index.js";
import { forbiddenMessage } from "./auth/forbidden.js";
import { impersonate, requestsImpersonation } from "./auth/impersonation.js";
import {
  type Authenticator,
  type AuthorizationAttributes,
  isPromiseLike,
  type UserInfo,
} from "./auth/types.js";
import {
  AGGREGATED_V2_CONTENT_TYPE,
  aggregated,
  coreVersions,
  groupDocument,
  groupList,
  resourceList,
  VERSION_INFO,
  wantsAggregated,
} from "./discovery.js";
import { handleComputedRead } from "./handlers/computed-read.js";
import type { RequestContext, ServerContext } from "./handlers/context.js";
import { handleDelete, handleDeleteCollection } from "./handlers/delete.js";
import { handlePatch } from "./handlers/patch.js";
import { handleGet, handleList } from "./handlers/read.js";
import { handleWatch } from "./handlers/watch.js";
import { handleCreate, handleUpdate } from "./handlers/write.js";
import { parseRequestInfo, type RequestInfo } from "./http/request-info.js";
import {
  type DecodedPath,
  decodePath,
  parseRequestTarget,
  type RequestTarget,
} from "./http/request-target.js";
import { sendError, sendJson } from "./http/respond.js";
import { requestDeadlineMs, timeoutError, withDeadline } from "./http/timeout.js";
import { observeRequest, serveMetrics } from "./metrics.js";
import { serveSwagger } from "./openapi/index.js";
import type { OpenApiDocuments } from "./openapi-documents.js";
import { type HealthEndpoints, isHealthCheckPath, serveHealth } from "./readiness.js";

export interface RouterDeps {
  server: ServerContext;
  openapi: OpenApiDocuments;
  authenticator: Authenticator;
  /** The named checks behind `/healthz`, `/livez` and `/readyz`. */
  health: HealthEndpoints;
  /** kube's `--request-timeout`: the longest any request that is not long-running may take. */
  requestTimeoutMs: number;
}

/** Answered before authentication, as kube's system:public-info-viewer allows anyone. */
const PUBLIC_PATHS = new Set(["/healthz", "/livez", "/readyz", "/version"]);

export async function route(
  deps: RouterDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  try {
    const target = parseRequestTarget(req.url ?? "/");
    const decoded = decodePath(target.pathname);
    const method = req.method ?? "GET";
    const info = parseRequestInfo(method, decoded, target.query);
    // As kube's WithRequestDeadline: before authentication, for every request not long-running.
    const deadlineMs = requestDeadlineMs(info, target.query, deps.requestTimeoutMs);
    const request: Request = { req, res, target, decoded, method, info, started };
    if (deadlineMs === undefined) return await serve(deps, request);
    const left = deadlineMs - (performance.now() - started);
    await withDeadline(
      res,
      left,
      () => timeoutError(method, info),
      () => serve(deps, request),
    );
  } catch (e) {
    sendError(res, e);
  }
}

/** One request as parsed before its deadline starts. */
interface Request {
  req: IncomingMessage;
  res: ServerResponse;
  target: RequestTarget;
  decoded: DecodedPath;
  method: string;
  info: RequestInfo | undefined;
  started: number;
}

async function serve(deps: RouterDeps, request: Request): Promise<void> {
  const { req, res, target, decoded, method, info, started } = request;
  try {
    const path = decoded.path;
    if (path === "/version") return sendJson(res, 200, VERSION_INFO);
    if (PUBLIC_PATHS.has(path)) return await serveHealth(deps.health, path, target.query, res);
    // Awaited only when pending: most authenticators and authorizers answer at once.
    const authenticating = deps.authenticator.authenticate(req);
    const authenticated = isPromiseLike(authenticating) ? await authenticating : authenticating;
    if (authenticated === undefined) throw new ApiError(401, "Unauthorized", "Unauthorized");
    const user = requestsImpersonation(req.headers)
      ? await impersonate(deps.server.authorizer, authenticated, req.headersDistinct)
      : authenticated;
    observeRequest(
      info,
      { method, contentType: req.headers["content-type"], query: target.query },
      res,
      started,
    );
    const attrs = authorizationAttributes(user, method, path, info);
    const deciding = deps.server.authorizer.authorize(attrs);
    const decision = isPromiseLike(deciding) ? await deciding : deciding;
    if (!decision.allowed) throw forbidden(attrs, decision.reason, info);
    if (info) checkPathSegments(info);
    if (!info) {
      // Only paths that are not resource paths are discovery, OpenAPI or metrics.
      if (path === "/metrics") return await serveMetrics(res);
      if (isHealthCheckPath(path)) return await serveHealth(deps.health, path, target.query, res);
      if (nonResource(deps, req, res, decoded)) return;
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    }
    const type = deps.server.registry.lookup(info.group, info.version, info.resource);
    if (!type)
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    if (info.namespace !== undefined && !type.namespaced && info.resource !== "namespaces")
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    const custom = info.subresource ? type.subresourceHandlers?.[info.subresource] : undefined;
    if (info.subresource && !custom && !(info.subresource === "status" && type.status)) {
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    }
    const ctx: RequestContext = {
      server: deps.server,
      req,
      res,
      info,
      query: target.query,
      type,
      user,
      warnings: [],
    };
    if (custom) await custom(ctx);
    else await dispatch(ctx);
  } catch (e) {
    sendError(res, e);
  }
}

/**
 * A name or namespace from the path must be a valid path segment (not `.` or
 * `..`, no `/` or `%` once decoded), as kube-apiserver's storage key functions
 * require (`Name parameter invalid: "..": may not be '..'`), checked after
 * authorization as there. A namespace gets the same rule: decoded from `%2F` it
 * could otherwise name keys outside its own.
 */
function checkPathSegments(info: RequestInfo): void {
  if (info.name !== undefined) {
    const errs = pathSegmentName(info.name);
    if (errs.length > 0)
      throw new BadRequestError(
        `Name parameter invalid: ${JSON.stringify(info.name)}: ${errs.join(";")}`,
      );
  }
  if (info.namespace !== undefined && info.namespace !== info.name) {
    const errs = pathSegmentName(info.namespace);
    if (errs.length > 0)
      throw new BadRequestError(
        `Namespace parameter invalid: ${JSON.stringify(info.namespace)}: ${errs.join(";")}`,
      );
  }
}

/** What the authorizer decides on, as kube-apiserver's request attributes. */
function authorizationAttributes(
  user: UserInfo,
  method: string,
  path: string,
  info: RequestInfo | undefined,
): AuthorizationAttributes {
  return info
    ? {
        user,
        verb: connectVerb(info),
        isResourceRequest: true,
        path,
        apiGroup: info.group,
        apiVersion: info.version,
        resource: info.resource,
        subresource: info.subresource ?? "",
        namespace: info.namespace ?? "",
        name: info.name ?? "",
      }
    : {
        user,
        verb: method.toLowerCase(),
        isResourceRequest: false,
        path,
        apiGroup: "",
        apiVersion: "",
        resource: "",
        subresource: "",
        namespace: "",
        name: "",
      };
}

/** Pods' connect subresources whose GET (a WebSocket upgrade) authorizes as `create`, as their POST. */
const CONNECT_CREATE = new Set(["exec", "attach", "portforward"]);

/**
 * kube ≥ 1.30 (AuthorizePodWebsocketUpgradeCreatePermission): opening an
 * exec, attach or port-forward stream is a `create` whichever the method, so
 * that read-only roles cannot get one by GET.
 */
function connectVerb(info: RequestInfo): string {
  return info.resource === "pods" && info.group === "" && CONNECT_CREATE.has(info.subresource ?? "")
    ? "create"
    : info.verb;
}

/** A refusal in kube-apiserver's Forbidden wording. */
function forbidden(
  attrs: AuthorizationAttributes,
  reason: string,
  info: RequestInfo | undefined,
): ApiError {
  return new ApiError(
    403,
    "Forbidden",
    forbiddenMessage(attrs, reason),
    info ? { name: info.name, group: info.group, kind: info.resource } : {},
  );
}

async function dispatch(ctx: RequestContext): Promise<void> {
  const { verb, name, subresource } = ctx.info;
  if (ctx.type.computedRead) return handleComputedRead(ctx, ctx.type.computedRead);
  if (!subresource && !ctx.type.verbs.includes(verb)) {
    throw new MethodNotAllowedError(
      "the server does not allow this method on the requested resource",
    );
  }
  if (subresource && !["get", "update", "patch"].includes(verb)) {
    throw new MethodNotAllowedError(
      `${verb} is not supported on ${ctx.type.plural}/${subresource}`,
    );
  }
  switch (verb) {
    case "get":
      return handleGet(ctx);
    case "list":
      return handleList(ctx);
    case "watch":
      return handleWatch(ctx);
    case "create":
      if (name)
        throw new MethodNotAllowedError(
          `the server does not allow this method on the requested resource`,
        );
      return handleCreate(ctx);
    case "update":
      if (!name)
        throw new MethodNotAllowedError(
          `the server does not allow this method on the requested resource`,
        );
      return handleUpdate(ctx);
    case "patch":
      if (!name)
        throw new MethodNotAllowedError(
          `the server does not allow this method on the requested resource`,
        );
      return handlePatch(ctx);
    case "delete":
      return handleDelete(ctx);
    case "deletecollection":
      // kube registers only LIST and WATCH on a namespaced kind's all-namespaces
      // path (endpoints/installer.go): a DELETE there matches no route, a 405.
      if (ctx.type.namespaced && ctx.info.namespace === undefined)
        throw new MethodNotAllowedError(
          `the server does not allow this method on the requested resource`,
        );
      return handleDeleteCollection(ctx);
    default:
      throw new MethodNotAllowedError(
        `the server does not allow this method on the requested resource`,
      );
  }
}

/** Discovery and OpenAPI; true when handled. */
function nonResource(
  deps: RouterDeps,
  req: IncomingMessage,
  res: ServerResponse,
  decoded: DecodedPath,
): boolean {
  const registry = deps.server.registry;
  const { path, segments: parts } = decoded;
  // An empty segment (`//`) names nothing here either.
  if (parts.includes("")) return false;
  if (path === "/api" || path === "/apis") {
    if (wantsAggregated(req)) {
      const body = JSON.stringify(aggregated(registry, path === "/api"));
      res.writeHead(200, {
        "Content-Type": AGGREGATED_V2_CONTENT_TYPE,
        "Content-Length": Buffer.byteLength(body),
        Vary: "Accept",
      });
      res.end(body);
    } else {
      sendJson(res, 200, path === "/api" ? coreVersions() : groupList(registry), {
        Vary: "Accept",
      });
    }
    return true;
  }
  if (path === "/api/v1") {
    sendJson(res, 200, resourceList(registry, "", "v1"));
    return true;
  }
  if (parts[0] === "apis" && parts.length === 2) {
    const doc = groupDocument(registry, parts[1]!);
    if (!doc) throw new NotFoundError({ group: "", resource: "", name: parts[1] });
    sendJson(res, 200, doc);
    return true;
  }
  if (parts[0] === "apis" && parts.length === 3) {
    const doc = resourceList(registry, parts[1]!, parts[2]!);
    if (!doc)
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    sendJson(res, 200, doc);
    return true;
  }
  if (path === "/openapi/v2") {
    serveSwagger(deps.openapi, req, res);
    return true;
  }
  if (parts[0] === "openapi") {
    const body = parts[1] === "v3" ? deps.openapi.document(parts.slice(2).join("/")) : undefined;
    if (body === undefined)
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-cache, private",
    });
    res.end(body);
    return true;
  }
  return false;
}
