/**
 * Which revision a read is served at, shared by the backends: the requested one,
 * or the current one for 0/absent; older than the compacted revision is an error
 * the apiserver turns into 410 Expired, newer than the current one is refused.
 */
import { CompactedError } from "./errors.js";

export function readRevision(
  requested: number | undefined,
  current: number,
  compacted: number,
): number {
  const revision = requested && requested > 0 ? requested : current;
  if (revision < compacted) throw new CompactedError(revision, compacted);
  if (revision > current) {
    throw new RangeError(`revision ${revision} is newer than the current revision ${current}`);
  }
  return revision;
}
