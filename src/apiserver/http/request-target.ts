/**
 * Splits a request's target (`req.url`) into its path and query the way Go's
 * `url.ParseRequestURI` reads a request line for kube-apiserver: the path is
 * taken as sent — never resolved (`.`/`..` stay segments, `//` stays an empty
 * segment) and decoded exactly once, segment by segment, by `decodePath`.
 * Origin form (`/p?q`), absolute form (`http://host/p?q`) and `*` are read;
 * anything else is a 400, as Go's server answers.
 */
import { BadRequestError } from "../../api/index.js";

export interface RequestTarget {
  /** The path as sent, still percent-encoded (`*` for the asterisk form). */
  pathname: string;
  query: URLSearchParams;
}

export interface DecodedPath {
  /** The path with each segment percent-decoded once and trailing slashes removed. */
  path: string;
  /**
   * The segments after the leading `/`, each decoded once; an empty string for
   * each empty segment (`//`), so an empty segment never shifts the others.
   */
  segments: string[];
}

const QUESTION = 0x3f;
const SLASH = 0x2f;

export function parseRequestTarget(target: string): RequestTarget {
  let rest = target;
  if (rest.charCodeAt(0) !== SLASH && rest !== "*") {
    const authority = absoluteFormPathStart(rest);
    if (authority < 0)
      throw new BadRequestError(`invalid URI for request: ${JSON.stringify(target)}`);
    rest = authority === rest.length ? "/" : rest.slice(authority);
    if (rest.charCodeAt(0) === QUESTION) rest = `/${rest}`;
  }
  const queryAt = rest.indexOf("?");
  if (queryAt < 0) return { pathname: rest, query: new URLSearchParams() };
  return {
    pathname: rest.slice(0, queryAt),
    // A string given to URLSearchParams loses one leading `?`: the query keeps any second one, as Go does.
    query: new URLSearchParams(rest.slice(queryAt + 1).replace(/^\?/, "%3F")),
  };
}

/** Where the path of an absolute-form target (`http://host/p`) starts; -1 when the target is not one. */
function absoluteFormPathStart(target: string): number {
  const scheme = /^https?:\/\//i.exec(target);
  if (!scheme) return -1;
  const start = scheme[0].length;
  for (let i = start; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === SLASH || c === QUESTION) return i;
  }
  return target.length;
}

/**
 * Decodes the path once, segment by segment; a malformed escape (`%zz`) or one
 * that is not UTF-8 (`%e0%a4`) is a 400 BadRequest, as Go's server refuses a
 * request line it cannot unescape.
 */
export function decodePath(pathname: string): DecodedPath {
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === SLASH) end--;
  const trimmed = end === pathname.length ? pathname : pathname.slice(0, end);
  if (trimmed === "/" || trimmed.charCodeAt(0) !== SLASH) return { path: trimmed, segments: [] };
  const segments = trimmed.slice(1).split("/");
  if (!trimmed.includes("%")) return { path: trimmed, segments };
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.includes("%")) segments[i] = decodeSegment(s);
  }
  return { path: `/${segments.join("/")}`, segments };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (cause) {
    throw new BadRequestError(`invalid URL escape in path segment ${JSON.stringify(segment)}`, {
      cause,
    });
  }
}
