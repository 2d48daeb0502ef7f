/**
 * The DataStore controller's view of its ContentRefs (read by
 * content-ref.ts, from the Manager's cache): a miss as a typed "not Ready"
 * naming the Secret, the key and the field that points at it, so the
 * DataStore's `Ready` condition can say exactly what to create; and the
 * Secrets to watch.
 */
import { ContentRefMissingError } from "./content-ref.js";
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
 * What `reading` resolves to; a ContentRef that names nothing there
 * (content-ref.ts's ContentRefMissingError) becomes ContentNotFound, the
 * condition's reason saying which: `SecretNotFound` for a missing Secret or
 * key, `InvalidContent` for a reference with neither content nor Secret.
 */
export async function notReadyIfMissing<T>(reading: Promise<T>): Promise<T> {
  try {
    return await reading;
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
