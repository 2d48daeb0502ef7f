/**
 * The names of ControllerRevisions, as kube's controller history computes them:
 * FNV-32a over the revision's data (and the owner's collisionCount, when set),
 * its decimal form spelled in `rand.SafeEncodeString`'s alphabet (no vowels, no
 * look-alikes), so `web-7b9c6d5f8` names one template.
 */
import { stableJson } from "./stable-json.js";

const SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

function fnv32a(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: each character of `s` mapped into the safe alphabet. */
function safeEncode(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

/** HashControllerRevision: the hash of `data`, salted by `collisionCount` when given. */
export function revisionHash(data: unknown, collisionCount?: number): string {
  let h = fnv32a(new TextEncoder().encode(stableJson(data)));
  if (collisionCount !== undefined && collisionCount !== 0) {
    const salt = new Uint8Array(4);
    new DataView(salt.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(salt, h);
  }
  return safeEncode(String(h));
}

/** ControllerRevisionName: `<prefix>-<hash>`, the prefix cut so the name fits 253. */
export function revisionName(prefix: string, hash: string): string {
  const max = 253 - 1 - hash.length;
  return `${prefix.length > max ? prefix.slice(0, max) : prefix}-${hash}`;
}
