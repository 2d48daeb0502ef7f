/**
 * `GET /openapi/v2` as kube-openapi's handler answers it: the encoding chosen
 * from `Accept` in the client's order (JSON for `application/json`, `*` + `/*`
 * or no header; gnostic protobuf for the media type client-go sends), `406`
 * when nothing offered is served, and a strong ETag with `If-None-Match` → 304.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { NotAcceptableError } from "../../api/index.js";
import { OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_LEGACY } from "./v2-protobuf.js";

export type SwaggerEncoding = "json" | "protobuf";
type Encoding = SwaggerEncoding;

/** The encoded document per encoding, with its strong (quoted) ETag. */
export interface SwaggerSource {
  swagger(encoding: SwaggerEncoding): { body: Buffer; etag: string };
}

const MEDIA_TYPES: Record<string, Encoding> = {
  "application/json": "json",
  "application/*": "json",
  "*/*": "json",
  [OPENAPI_V2_PROTOBUF]: "protobuf",
  [OPENAPI_V2_PROTOBUF_LEGACY]: "protobuf",
};

const CONTENT_TYPES: Record<Encoding, string> = {
  json: "application/json",
  // client-go asks with the `@` spelling but cannot parse it back (`@` is not
  // a MIME token), so kube labels the reply with the dotted one.
  protobuf: OPENAPI_V2_PROTOBUF_LEGACY,
};

/**
 * The served encoding of the most preferred `Accept` clause (by `q`, then
 * order, as goautoneg ranks them); undefined when none is served.
 */
export function negotiateSwagger(accept: string | undefined): Encoding | undefined {
  if (accept === undefined || accept.trim() === "") return "json";
  const clauses = accept.split(",").map((clause, order) => {
    const [type = "", ...params] = clause.split(";").map((p) => p.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return { type, q: Number.isFinite(q) ? q : 0, order };
  });
  clauses.sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { type, q } of clauses) {
    const encoding = MEDIA_TYPES[type];
    if (q > 0 && encoding) return encoding;
  }
  return undefined;
}

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export function serveSwagger(docs: SwaggerSource, req: IncomingMessage, res: ServerResponse): void {
  const encoding = negotiateSwagger(req.headers.accept);
  if (!encoding) {
    throw new NotAcceptableError(`only application/json and ${OPENAPI_V2_PROTOBUF} are served`);
  }
  const doc = docs.swagger(encoding);
  const headers = {
    ETag: doc.etag,
    Vary: "Accept",
    "Cache-Control": "no-cache, private",
  };
  if (matchesEtag(req.headers["if-none-match"], doc.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, {
    ...headers,
    "Content-Type": CONTENT_TYPES[encoding],
    "Content-Length": doc.body.length,
  });
  res.end(req.method === "HEAD" ? undefined : doc.body);
}
