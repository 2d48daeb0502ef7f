/**
 * Writing responses: JSON bodies, Status errors, and the Accept negotiation that
 * chooses between plain objects and `meta.k8s.io/v1` Tables.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, InternalError, NotAcceptableError } from "../../api/index.js";

export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  extraHeaders: Record<string, string | string[]> = {},
): void {
  // Encode once: the byte length and the bytes sent come from the same Buffer.
  const bytes = Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  res.writeHead(code, {
    "Content-Type": "application/json",
    "Content-Length": bytes.length,
    "Cache-Control": "no-cache, private",
    ...extraHeaders,
  });
  res.end(bytes);
}

/** 201 with a Success Status: what a create that stores nothing of its own answers (binding, eviction). */
export function sendCreatedStatus(res: ServerResponse): void {
  sendJson(res, 201, {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    code: 201,
  });
}

export function sendError(res: ServerResponse, err: unknown): void {
  const apiError =
    err instanceof ApiError
      ? err
      : new InternalError(err instanceof Error ? err.message : String(err), { cause: err });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // As kube-apiserver's ErrorNegotiated: a Status that says when to retry says it in Retry-After too.
  const retry = apiError.details.retryAfterSeconds;
  sendJson(
    res,
    apiError.code,
    apiError.toStatus(),
    retry !== undefined && retry > 0 ? { "Retry-After": String(retry) } : {},
  );
}

export type Rendering = "object" | "table";

/**
 * Reads Accept: a Table when the client asks for `as=Table;g=meta.k8s.io` first.
 * `query` is the request's parsed query (the router's, never a re-parse of `req.url`).
 */
export function negotiate(
  req: IncomingMessage,
  query: URLSearchParams,
): {
  rendering: Rendering;
  includeObject: "None" | "Metadata" | "Object";
} {
  const accept = req.headers.accept ?? "";
  const includeParam = query.get("includeObject");
  const includeObject =
    includeParam === "None" || includeParam === "Object" ? includeParam : "Metadata";
  if (accept === "") return { rendering: "object", includeObject };
  let jsonOk = false;
  for (const part of accept.split(",")) {
    const [type, ...params] = part.split(";").map((s) => s.trim());
    const p = new Map(params.map((kv) => kv.split("=") as [string, string]));
    if (
      type === "application/json" &&
      p.get("as") === "Table" &&
      p.get("g") === "meta.k8s.io" &&
      (p.get("v") === "v1" || p.get("v") === "v1beta1")
    ) {
      return { rendering: "table", includeObject };
    }
    if ((type === "application/json" || type === "*/*" || type === "application/*") && !p.has("as"))
      jsonOk = true;
  }
  if (!jsonOk)
    throw new NotAcceptableError(
      `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io`,
    );
  return { rendering: "object", includeObject };
}
