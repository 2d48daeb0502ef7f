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

export async function readBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    req.resume();
    throw new RequestEntityTooLargeError(`Request entity too large: limit is ${limit}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new RequestEntityTooLargeError(`Request entity too large: limit is ${limit}`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
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
  if (text.trim() === "") throw new BadRequestError("the body of the request was empty");
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new BadRequestError(
      `the body of the request could not be decoded: ${(cause as Error).message}`,
      { cause },
    );
  }
}

export function parseYaml(text: string): unknown {
  if (text.trim() === "") throw new BadRequestError("the body of the request was empty");
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new BadRequestError(`error converting YAML to JSON: ${doc.errors[0]!.message}`, {
      cause: doc.errors[0],
    });
  }
  return doc.toJS({ maxAliasCount: 100 });
}
