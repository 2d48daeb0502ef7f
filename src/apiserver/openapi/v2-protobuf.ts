/**
 * `/openapi/v2` in the encoding client-go's discovery `OpenAPISchema()` asks
 * for first: gnostic's `openapi.v2.Document` message (google/gnostic
 * openapiv2/OpenAPIv2.proto; the field numbers below are that file's). Values
 * gnostic keeps as `Any` (defaults, enums, vendor extensions) carry their JSON
 * text in `Any.yaml`, which is valid YAML, as kube-openapi's readers expect.
 */
import type { Schema } from "../../api/index.js";
import { MessageWriter } from "../protobuf/wire-writer.js";
import type {
  SwaggerDocument,
  SwaggerOperation,
  SwaggerParameter,
  SwaggerPathItem,
} from "./v2-types.js";

/** The media type client-go's `OpenAPISchema()` sends in `Accept`. */
export const OPENAPI_V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
/** The spelling kube also accepts, and labels its protobuf replies with. */
export const OPENAPI_V2_PROTOBUF_LEGACY =
  "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

function any(value: unknown): MessageWriter {
  return new MessageWriter().string(2, JSON.stringify(value));
}

function named(name: string, field: number, value: MessageWriter): MessageWriter {
  return new MessageWriter().string(1, name).message(field, value);
}

function vendorExtensions(w: MessageWriter, field: number, obj: object): void {
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith("x-") && v !== undefined) w.message(field, named(k, 2, any(v)));
  }
}

function schema(s: Schema): MessageWriter {
  const w = new MessageWriter().string(1, s.$ref).string(2, s.format).string(4, s.description);
  if (s.default !== undefined) w.message(5, any(s.default));
  w.double(7, s.maximum)
    .bool(8, s.exclusiveMaximum)
    .double(9, s.minimum)
    .bool(10, s.exclusiveMinimum)
    .uint(11, s.maxLength)
    .uint(12, s.minLength)
    .string(13, s.pattern)
    .uint(14, s.maxItems)
    .uint(15, s.minItems)
    .bool(16, s.uniqueItems)
    .uint(17, s.maxProperties)
    .uint(18, s.minProperties)
    .strings(19, s.required);
  for (const e of s.enum ?? []) w.message(20, any(e));
  if (typeof s.additionalProperties === "object") {
    w.message(21, new MessageWriter().message(1, schema(s.additionalProperties)));
  } else if (s.additionalProperties === true) {
    w.message(21, new MessageWriter().bool(2, true));
  }
  if (s.type !== undefined) w.message(22, new MessageWriter().string(1, s.type));
  if (s.items !== undefined) w.message(23, new MessageWriter().message(1, schema(s.items)));
  for (const a of s.allOf ?? []) w.message(24, schema(a));
  if (s.properties !== undefined) {
    const props = new MessageWriter();
    for (const [k, v] of Object.entries(s.properties)) props.message(1, named(k, 2, schema(v)));
    w.message(25, props);
  }
  vendorExtensions(w, 31, s);
  return w;
}

function parameter(p: SwaggerParameter): MessageWriter {
  let param: MessageWriter;
  if (p.in === "body") {
    const body = new MessageWriter()
      .string(1, p.description)
      .string(2, p.name)
      .string(3, p.in)
      .bool(4, p.required)
      .message(5, p.schema ? schema(p.schema) : undefined);
    param = new MessageWriter().message(1, body);
  } else {
    // QueryParameterSubSchema (3) and PathParameterSubSchema (4) differ in the
    // numbers after `name`: query has allow_empty_value at 5.
    const query = p.in === "query";
    const sub = new MessageWriter()
      .bool(1, p.required)
      .string(2, p.in)
      .string(3, p.description)
      .string(4, p.name)
      .string(query ? 6 : 5, p.type)
      .bool(query ? 20 : 19, p.uniqueItems);
    param = new MessageWriter().message(2, new MessageWriter().message(query ? 3 : 4, sub));
  }
  return new MessageWriter().message(1, param);
}

function operation(op: SwaggerOperation): MessageWriter {
  const w = new MessageWriter()
    .strings(1, op.tags)
    .string(3, op.description)
    .string(5, op.operationId)
    .strings(6, op.produces)
    .strings(7, op.consumes);
  for (const p of op.parameters ?? []) w.message(8, parameter(p));
  const responses = new MessageWriter();
  for (const [code, r] of Object.entries(op.responses)) {
    const response = new MessageWriter()
      .string(1, r.description)
      .message(2, r.schema ? new MessageWriter().message(1, schema(r.schema)) : undefined);
    responses.message(1, named(code, 2, new MessageWriter().message(1, response)));
  }
  w.message(9, responses).strings(10, op.schemes);
  vendorExtensions(w, 13, op);
  return w;
}

const PATH_ITEM_FIELDS = { get: 2, put: 3, post: 4, delete: 5, patch: 8 } as const;

function pathItem(item: SwaggerPathItem): MessageWriter {
  const w = new MessageWriter();
  for (const [method, field] of Object.entries(PATH_ITEM_FIELDS)) {
    const op = item[method as keyof typeof PATH_ITEM_FIELDS];
    if (op) w.message(field, operation(op));
  }
  for (const p of item.parameters ?? []) w.message(9, parameter(p));
  return w;
}

export function encodeSwaggerDocument(doc: SwaggerDocument): Uint8Array {
  const info = new MessageWriter().string(1, doc.info.title).string(2, doc.info.version);
  const paths = new MessageWriter();
  for (const [p, item] of Object.entries(doc.paths)) paths.message(2, named(p, 2, pathItem(item)));
  const definitions = new MessageWriter();
  for (const [name, s] of Object.entries(doc.definitions)) {
    definitions.message(1, named(name, 2, schema(s)));
  }
  const security = doc.security.map((req) => {
    const w = new MessageWriter();
    for (const [name, scopes] of Object.entries(req)) {
      w.message(1, named(name, 2, new MessageWriter().strings(1, scopes)));
    }
    return w;
  });
  const securityDefinitions = new MessageWriter();
  for (const [name, d] of Object.entries(doc.securityDefinitions)) {
    const apiKey = new MessageWriter().string(1, d.type).string(2, d.name).string(3, d.in);
    securityDefinitions.message(1, named(name, 2, new MessageWriter().message(2, apiKey)));
  }
  const w = new MessageWriter()
    .string(1, doc.swagger)
    .message(2, info)
    .message(8, paths)
    .message(9, definitions);
  for (const s of security) w.message(12, s);
  return w.message(13, securityDefinitions).finish();
}
