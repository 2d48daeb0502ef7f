/**
 * Reading a DataStore's ContentRef (Kamaji's `GetContent`): the inline
 * `content` (base64 in the object, bytes here), else the key `keyPath` of the
 * Secret `secretReference` names. A failure is one of two typed errors, so a
 * controller can tell the cases apart:
 *
 * - ContentRefMissingError: what the reference names is not there — no
 *   content and no reference, the Secret absent, the key absent or empty, or
 *   reading it forbidden. Retrying changes nothing until someone creates it;
 *   a deletion must not wait on it for ever.
 * - ContentRefUnreadableError: the Secret could not be read now (the API
 *   unreachable, a 5xx, a timeout); worth trying again.
 */
import { hasCode, type KubeObject } from "../../api/index.js";
import { type CallOptions, errorText, type Reader } from "../../client/index.js";
import type { ContentRef } from "./crd.js";

export type ContentRefMissingReason =
  | "NoContent"
  | "SecretNotFound"
  | "KeyNotFound"
  | "SecretForbidden";

interface SecretKey {
  namespace: string;
  name: string;
  key: string;
}

/** What a ContentRef names is not there; `field` is where the reference sits. */
export class ContentRefMissingError extends Error {
  constructor(
    readonly reason: ContentRefMissingReason,
    readonly field: string,
    readonly secret?: SecretKey,
    options?: { cause?: unknown },
  ) {
    super(missingMessage(reason, field, secret), options);
    this.name = "ContentRefMissingError";
  }
}

/** The Secret a ContentRef names could not be read now; try again. */
export class ContentRefUnreadableError extends Error {
  constructor(
    readonly field: string,
    readonly secret: SecretKey,
    cause: unknown,
  ) {
    super(`cannot read ${field}: Secret ${secret.namespace}/${secret.name}: ${errorText(cause)}`, {
      cause,
    });
    this.name = "ContentRefUnreadableError";
  }
}

function missingMessage(reason: ContentRefMissingReason, field: string, s?: SecretKey): string {
  const secret = s ? `Secret ${s.namespace}/${s.name}` : "";
  switch (reason) {
    case "NoContent":
      return `${field}: neither content nor secretReference is set`;
    case "SecretNotFound":
      return `${field}: ${secret} not found (key ${JSON.stringify(s?.key)})`;
    case "KeyNotFound":
      return `${field}: ${secret} has no key ${JSON.stringify(s?.key)} (or it is empty)`;
    case "SecretForbidden":
      return `${field}: reading ${secret} is forbidden`;
  }
}

interface SecretData extends KubeObject {
  data?: Record<string, string>;
}

/**
 * The bytes `ref` names. `field` (default `contentRef`) names the reference
 * in error messages, e.g. `spec.tlsConfig.certificateAuthority.privateKey`.
 */
export async function resolveContentRef(
  reader: Pick<Reader, "get">,
  ref: ContentRef | undefined,
  field = "contentRef",
  opts?: CallOptions,
): Promise<Buffer> {
  if (ref?.content) return Buffer.from(ref.content, "base64");
  const r = ref?.secretReference;
  if (!r) throw new ContentRefMissingError("NoContent", field);
  const secret = { namespace: r.namespace, name: r.name, key: r.keyPath };
  let obj: SecretData;
  try {
    obj = await reader.get<SecretData>(
      { apiVersion: "v1", kind: "Secret", namespace: r.namespace, name: r.name },
      opts,
    );
  } catch (e) {
    if (hasCode(e, 404))
      throw new ContentRefMissingError("SecretNotFound", field, secret, { cause: e });
    if (hasCode(e, 403))
      throw new ContentRefMissingError("SecretForbidden", field, secret, { cause: e });
    throw new ContentRefUnreadableError(field, secret, e);
  }
  const value = obj.data?.[r.keyPath];
  if (!value) throw new ContentRefMissingError("KeyNotFound", field, secret);
  return Buffer.from(value, "base64");
}
