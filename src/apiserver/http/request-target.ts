/**
 * Splits a request's target (`req.url`) into its path and query exactly as
 * `new URL(target, "https://hearth")` reads them (`pathname`, `searchParams`),
 * without building a URL for the common target: a path of plain characters with
 * no dot segments and a printable-ASCII query. Anything else (dot segments,
 * backslashes, characters the URL parser would escape or strip, a fragment,
 * `//`, absolute-form targets) goes through the URL parser.
 */

export interface RequestTarget {
  /** The URL's `pathname`, as the WHATWG parser gives it. */
  pathname: string;
  query: URLSearchParams;
}

/** Characters the parser leaves as they are in a path: RFC 3986 unreserved, sub-delims, `:@/%`. */
const PLAIN_PATH = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/%")
  PLAIN_PATH[c.charCodeAt(0)] = 1;

const QUESTION = 0x3f;
const HASH = 0x23;
const SLASH = 0x2f;

export function parseRequestTarget(target: string): RequestTarget {
  const queryAt = plainQueryStart(target);
  if (queryAt < 0) {
    const url = new URL(target, "https://hearth");
    return { pathname: url.pathname, query: url.searchParams };
  }
  if (queryAt === target.length) return { pathname: target, query: new URLSearchParams() };
  return {
    pathname: target.slice(0, queryAt),
    query: new URLSearchParams(target.slice(queryAt + 1)),
  };
}

/** Where the `?` of a plain target is (its length when it has no query); -1 when not plain. */
function plainQueryStart(target: string): number {
  if (target.charCodeAt(0) !== SLASH || target.charCodeAt(1) === SLASH) return -1;
  let i = 0;
  for (; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === QUESTION) break;
    if (c >= 128 || PLAIN_PATH[c] === 0) return -1;
    // `/.`, `/..`, `/%2e`… are dot segments the parser resolves.
    if (c === SLASH && (target.charCodeAt(i + 1) === 0x2e || isEncodedDot(target, i + 1)))
      return -1;
  }
  if (i === target.length) return i;
  // URLSearchParams given a string drops one leading `?`; the URL parser keeps a second one.
  if (target.charCodeAt(i + 1) === QUESTION) return -1;
  for (let j = i + 1; j < target.length; j++) {
    const c = target.charCodeAt(j);
    if (c <= 0x20 || c >= 0x7f || c === HASH) return -1;
  }
  return i;
}

function isEncodedDot(target: string, at: number): boolean {
  return (
    target.charCodeAt(at) === 0x25 &&
    target.charCodeAt(at + 1) === 0x32 &&
    (target.charCodeAt(at + 2) | 0x20) === 0x65
  );
}
