/**
 * A DataStore's credentials read from its ContentRefs: inline `content`
 * (base64, as Kamaji's `[]byte`) or a key of a Secret, read from the
 * Manager's cache. A miss is a typed failure naming the Secret, the key and
 * the field that points at it, so the DataStore's `Ready` condition can say
 * exactly what to create.
 */
import type { KubeObject } from "../../api/index.js";
import { isNotFound, type Reader } from "../../client/index.js";
import type { ContentRef } from "./crd.js";

/** Why a DataStore is not Ready, as its condition says. */
export interface NotReady {
  reason: string;
  message: string;
}

interface SecretData {
  data?: Record<string, string>;
}

export class ContentNotFound extends Error {
  constructor(readonly notReady: NotReady) {
    super(notReady.message);
    this.name = "ContentNotFound";
  }
}

/** The text `ref` holds; throws ContentNotFound when its Secret or key is missing. */
export async function readContent(
  reader: Pick<Reader, "get">,
  ref: ContentRef,
  field: string,
  signal?: AbortSignal,
): Promise<string> {
  if (ref.content !== undefined) return Buffer.from(ref.content, "base64").toString("utf8");
  const s = ref.secretReference;
  if (!s)
    throw new ContentNotFound({ reason: "InvalidContent", message: `${field} names no content` });
  const named = `Secret ${s.namespace}/${s.name}`;
  let secret: SecretData;
  try {
    secret = await reader.get<SecretData & KubeObject>(
      { apiVersion: "v1", kind: "Secret", namespace: s.namespace, name: s.name },
      signal ? { signal } : {},
    );
  } catch (e) {
    if (!isNotFound(e)) throw e;
    throw new ContentNotFound({
      reason: "SecretNotFound",
      message: `${named} (key "${s.keyPath}", for ${field}) not found`,
    });
  }
  const value = secret.data?.[s.keyPath];
  if (value === undefined)
    throw new ContentNotFound({
      reason: "SecretNotFound",
      message: `${named} has no key "${s.keyPath}" (for ${field})`,
    });
  return Buffer.from(value, "base64").toString("utf8");
}

/** Every Secret (`namespace/name`) the DataStore's spec points at. */
export function referencedSecrets(refs: readonly (ContentRef | undefined)[]): string[] {
  const keys = refs
    .map((r) => r?.secretReference)
    .filter((s) => s !== undefined)
    .map((s) => `${s.namespace}/${s.name}`);
  return [...new Set(keys)];
}
