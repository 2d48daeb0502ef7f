/**
 * Reading and decoding request bodies: a size limit checked while reading (3 MiB,
 * as kube-apiserver), JSON or YAML by Content-Type, errors as BadRequest / 413 / 415.
 */
import type { IncomingMessage } from "node:http";
import { parseDocument } from "yaml";
import {
  BadRequestError,
  RequestEntityTooLargeError,
  UnsupportedMediaTypeError,
} from "../../api/errors.js";
import {
  decodeKubeProtobuf,
  PROTOBUF_CONTENT_TYPE,
  ProtobufDecodeError,
} from "../protobuf/index.js";

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
    try {
      return decodeKubeProtobuf(bytes).object;
    } catch (cause) {
      if (cause instanceof ProtobufDecodeError && cause.code === "unsupported-kind") {
        throw new UnsupportedMediaTypeError("application/json, application/yaml", { cause });
      }
      throw new BadRequestError((cause as Error).message, { cause });
    }
  }
  const text = bytes.toString("utf8");
  if (type === "" || type === "application/json" || type === "*/*") return parseJson(text);
  if (type === "application/yaml" || type === "application/apply-patch+yaml")
    return parseYaml(text);
  throw new UnsupportedMediaTypeError("application/json, application/yaml");
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    // No JSON text is all white space, so the empty check waits for a failure.
    if (isBlank(text)) throw new BadRequestError("the body of the request was empty");
    throw new BadRequestError(
      `the body of the request could not be decoded: ${(cause as Error).message}`,
      { cause },
    );
  }
}

/** `text.trim() === ""` without the copy: `\s` is the white space `trim` removes. */
function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

export function parseYaml(text: string): unknown {
  if (isBlank(text)) throw new BadRequestError("the body of the request was empty");
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new BadRequestError(`error converting YAML to JSON: ${doc.errors[0]!.message}`, {
      cause: doc.errors[0],
    });
  }
  return doc.toJS({ maxAliasCount: 100 });
}
