/**
 * Storage's own typed errors. The apiserver turns them into API errors at its
 * boundary, where it knows which resource a key belongs to.
 */
import type { KeyValue } from "./backend.js";

export class KeyExistsError extends Error {
  constructor(readonly key: string) {
    super(`key exists: ${key}`);
    this.name = "KeyExistsError";
  }
}

export class KeyNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
    this.name = "KeyNotFoundError";
  }
}

export class RevisionMismatchError extends Error {
  constructor(
    readonly key: string,
    readonly current: KeyValue,
  ) {
    super(`revision mismatch on ${key}: current is ${current.modRevision}`);
    this.name = "RevisionMismatchError";
  }
}

export class CompactedError extends Error {
  constructor(
    readonly requested: number,
    readonly compacted: number,
  ) {
    super(`required revision ${requested} has been compacted (compacted at ${compacted})`);
    this.name = "CompactedError";
  }
}

/** The backend was closed while a call or a watch was in flight. */
export class BackendClosedError extends Error {
  constructor() {
    super("storage backend is closed");
    this.name = "BackendClosedError";
  }
}
