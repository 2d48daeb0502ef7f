/**
 * A DataStore's credentials read from its ContentRefs: inline `content`
 * (base64, as Kamaji's `[]byte`) or a key of a Secret, read from the
 * Manager's cache. A miss is a typed failure naming the Secret, the key and
 * the field that points at it, so the DataStore's `Ready` condition can say
 * exactly what to create.
 */
import type { Reader } from "../../client/index.js";
import { ContentRefMissingError, resolveContentRef } from "./content-ref.js";
import type { ContentRef } from "./crd.js";

/** Why a DataStore is not Ready, as its condition says. */
export interface NotReady {
  reason: string;
  message: string;
}

export class ContentNotFound extends Error {
  constructor(readonly notReady: NotReady) {
    super(notReady.message);
    this.name = "ContentNotFound";
  }
}

/**
 * The text `ref` holds (content-ref.ts reads it); throws ContentNotFound when
 * its Secret or key is missing, the condition's reason saying which.
 */
export async function readContent(
  reader: Pick<Reader, "get">,
  ref: ContentRef,
  field: string,
  signal?: AbortSignal,
): Promise<string> {
  try {
    return (await resolveContentRef(reader, ref, field, signal ? { signal } : undefined)).toString(
      "utf8",
    );
  } catch (e) {
    if (!(e instanceof ContentRefMissingError)) throw e;
    const reason =
      e.reason === "NoContent"
        ? "InvalidContent"
        : e.reason === "KeyNotFound"
          ? "SecretNotFound"
          : e.reason;
    throw new ContentNotFound({ reason, message: e.message });
  }
}

/** Every Secret (`namespace/name`) the DataStore's spec points at. */
export function referencedSecrets(refs: readonly (ContentRef | undefined)[]): string[] {
  const keys = refs
    .map((r) => r?.secretReference)
    .filter((s) => s !== undefined)
    .map((s) => `${s.namespace}/${s.name}`);
  return [...new Set(keys)];
}
