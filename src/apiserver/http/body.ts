/**
 * Reading and decoding request bodies: a size limit checked while reading (3 MiB,
 * as kube-apiserver), JSON or YAML by Content-Type, errors as BadRequest / 413 / 415.
 * Every decoder here bounds nesting (`assertBodyDepth`) and YAML aliases, so
 * nothing recursive downstream ever sees an over-deep or cyclic value.
 */
import type { IncomingMessage } from "node:http";
import { type Document, type Node, Parser, parseDocument, visit } from "yaml";
import {
  BadRequestError,
  RequestEntityTooLargeError,
  UnsupportedMediaTypeError,
} from "../../api/index.js";
import {
  decodeKubeProtobuf,
  PROTOBUF_CONTENT_TYPE,
  ProtobufDecodeError,
} from "../protobuf/index.js";
import { assertBodyDepth, assertYamlDepth } from "./body-depth.js";

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit)).toString("utf8");
}

/** The body's bytes: the one chunk itself when it came in one. */
export function readBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const length = req.headers["content-length"];
  if (Number(length ?? "0") > limit) {
    req.resume();
    return Promise.reject(tooLarge(limit));
  }
  // The parser delivers exactly the declared length (within the limit here): nothing to count.
  if (length !== undefined && !req.readableEnded && !req.destroyed) return readDeclared(req, limit);
  return readCounted(req, limit);
}

/** Collects the chunks from events, which costs less than an async iterator. */
function readDeclared(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      resolve(joined(chunks, size));
    });
    req.on("error", (err) => {
      if (done) return;
      done = true;
      reject(err);
    });
    // Closed before its end: the stream iterator gives the error the request failed with.
    req.on("close", () => {
      if (done) return;
      done = true;
      resolve(readCounted(req, limit));
    });
  });
}

/**
 * Reads a body of undeclared length (chunked), stopping at the limit: the rest
 * is discarded and, as leaving the loop does, the request destroyed.
 */
async function readCounted(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return joined(chunks, size);
}

function joined(chunks: Buffer[], size: number): Buffer {
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

function tooLarge(limit: number): RequestEntityTooLargeError {
  return new RequestEntityTooLargeError(`Request entity too large: limit is ${limit}`);
}

export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return "";
  const semicolon = contentType.indexOf(";");
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * Decodes a create/update body: JSON, YAML (as kube-apiserver accepts), or kube's
 * protobuf, which kubectl's typed clients send for built-in kinds.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined): unknown {
  const type = mediaType(contentType);
  if (type === PROTOBUF_CONTENT_TYPE) {
    let object: unknown;
    try {
      object = decodeKubeProtobuf(bytes).object;
    } catch (cause) {
      if (cause instanceof ProtobufDecodeError && cause.code === "unsupported-kind") {
        throw new UnsupportedMediaTypeError("application/json, application/yaml", { cause });
      }
      throw new BadRequestError((cause as Error).message, { cause });
    }
    // Embedded JSON (RawExtension) can nest; each level costs at least two bytes here too.
    assertBodyDepth(object, bytes.length);
    return object;
  }
  const text = bytes.toString("utf8");
  if (type === "" || type === "application/json" || type === "*/*") return parseJson(text);
  // Only the serializers' media types: apply-patch+yaml is a patch type, a 415
  // for create and update as in kube's NegotiateInputSerializer.
  if (type === "application/yaml") return parseYaml(text);
  throw new UnsupportedMediaTypeError("application/json, application/yaml");
}

/** JSON.parse (iterative in V8, so any depth parses), then the depth limit. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    // No JSON text is all white space, so the empty check waits for a failure.
    if (isBlank(text)) throw new BadRequestError("the body of the request was empty");
    throw new BadRequestError(
      `the body of the request could not be decoded: ${(cause as Error).message}`,
      { cause },
    );
  }
  assertBodyDepth(value, text.length);
  return value;
}

/** `text.trim() === ""` without the copy: `\s` is the white space `trim` removes. */
function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

/** Aliases one document may expand to, as the `yaml` library counts them (a billion laughs stops here). */
const MAX_YAML_ALIAS_COUNT = 100;

/**
 * YAML to a JSON value. JSON (what kubectl sends as apply-patch+yaml) is read by
 * JSON.parse, with the JSON depth limit. Other text is first tokenized by the
 * `yaml` library's iterative Parser and refused if it nests too deep, because
 * composing a document recurses — and a stack overflow there can take the
 * process down, not just the request. Aliases must name an anchor set before
 * them and not sit inside it.
 */
export function parseYaml(text: string): unknown {
  if (isBlank(text)) throw new BadRequestError("the body of the request was empty");
  const json = jsonValue(text);
  if (json !== NOT_JSON) {
    assertBodyDepth(json, text.length);
    return json;
  }
  assertYamlDepth(new Parser().parse(text));
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new BadRequestError(`error converting YAML to JSON: ${doc.errors[0]!.message}`, {
      cause: doc.errors[0],
    });
  }
  let value: unknown;
  try {
    checkAliases(doc);
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (cause) {
    if (cause instanceof BadRequestError) throw cause;
    // Only the input can make converting a parsed document fail (an alias bomb, a stack overflow).
    throw new BadRequestError(`error converting YAML to JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
  // Aliases can build depth (or, had one escaped the check, a cycle) the text does not show.
  assertBodyDepth(value);
  return value;
}

const NOT_JSON = Symbol("not JSON");

/** The text as JSON when it is JSON (a YAML document that is JSON means the same). */
function jsonValue(text: string): unknown {
  const first = text.trimStart().charCodeAt(0);
  // Only an object or array can be a body; anything else goes to the YAML parser.
  if (first !== 0x7b && first !== 0x5b) return NOT_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** Refuses an alias with no anchor before it, or one inside the node its anchor names (a cycle). */
function checkAliases(doc: Document): void {
  visit(doc, {
    Alias(_key, alias, path) {
      const target = alias.resolve(doc);
      if (!target)
        throw new BadRequestError(
          `error converting YAML to JSON: yaml: unknown anchor '${alias.source}' referenced`,
        );
      if (path.includes(target as Node))
        throw new BadRequestError(
          `error converting YAML to JSON: yaml: anchor '${alias.source}' value contains itself`,
        );
    },
  });
}
