/**
 * Service names to addresses, as cluster DNS would answer, for Hearth's own
 * components (third-party binaries are given addresses instead):
 *
 *   <svc>.<ns>.svc[.cluster.local]        → the ClusterIP, or the ready pod IPs
 *                                           of a headless Service
 *   <pod>.<svc>.<ns>.svc[.cluster.local]  → that pod's IP: the ready endpoint
 *                                           whose hostname (pod `hostname` with
 *                                           `subdomain: <svc>`) or pod name it is
 *   <svc>.<ns>, or <svc> with a namespace  → as the first form (DNS search paths)
 *
 * It reads the Service and its Endpoints through any Reader (a client or a cache).
 */
import { getOptional, type Reader } from "../../client/index.js";
import { type Endpoints, isHeadless, type Service } from "./types.js";

export interface ResolveOptions {
  /** The namespace of a bare `<svc>` name. */
  namespace?: string;
  /** Default `cluster.local`. */
  clusterDomain?: string;
}

export class ResolveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ResolveError";
  }
}

interface ServiceName {
  service: string;
  namespace: string;
  /** The `<pod>` label of a pod name. */
  pod?: string;
}

/** Splits a service DNS name into its parts; throws ResolveError when it is not one. */
export function parseServiceName(name: string, opts: ResolveOptions = {}): ServiceName {
  const domain = `.svc.${opts.clusterDomain ?? "cluster.local"}`;
  let rest = name.replace(/\.$/, "").toLowerCase();
  if (rest.endsWith(domain)) rest = `${rest.slice(0, -domain.length)}.svc`;
  const parts = rest.split(".");
  if (parts.some((p) => p === ""))
    throw new ResolveError(`${JSON.stringify(name)} is not a service name`);
  if (parts[parts.length - 1] === "svc") {
    parts.pop();
    if (parts.length === 2) return { service: parts[0]!, namespace: parts[1]! };
    if (parts.length === 3) return { pod: parts[0]!, service: parts[1]!, namespace: parts[2]! };
  } else if (parts.length === 2) {
    return { service: parts[0]!, namespace: parts[1]! };
  } else if (parts.length === 1 && opts.namespace) {
    return { service: parts[0]!, namespace: opts.namespace };
  }
  throw new ResolveError(`${JSON.stringify(name)} is not a service name`);
}

async function getOrUndefined<T extends Service | Endpoints>(
  reader: Reader,
  kind: string,
  name: string,
  namespace: string,
): Promise<T | undefined> {
  return getOptional<T>(reader, { apiVersion: "v1", kind, name, namespace });
}

/**
 * The addresses of a service name (see the module comment). A headless Service
 * with no ready pod resolves to no address; an unknown Service or pod is a
 * ResolveError.
 */
export async function resolveService(
  reader: Reader,
  name: string,
  opts: ResolveOptions = {},
): Promise<string[]> {
  const n = parseServiceName(name, opts);
  const svc = await getOrUndefined<Service>(reader, "Service", n.service, n.namespace);
  if (!svc)
    throw new ResolveError(
      `cannot resolve ${name}: service "${n.namespace}/${n.service}" not found`,
    );
  if (!n.pod && !isHeadless(svc)) return svc.spec?.clusterIP ? [svc.spec.clusterIP] : [];
  const ep = await getOrUndefined<Endpoints>(reader, "Endpoints", n.service, n.namespace);
  const ready = (ep?.subsets ?? []).flatMap((s) => s.addresses ?? []);
  if (!n.pod) return [...new Set(ready.map((a) => a.ip))].sort();
  const match =
    ready.find((a) => a.hostname === n.pod) ?? ready.find((a) => a.targetRef?.name === n.pod);
  if (!match)
    throw new ResolveError(
      `cannot resolve ${name}: no ready pod "${n.pod}" behind service "${n.namespace}/${n.service}"`,
    );
  return [match.ip];
}

/** An IP literal or `localhost` as it is, anything else through `resolveService`. */
export async function resolveHost(
  reader: Reader,
  host: string,
  opts: ResolveOptions = {},
): Promise<string[]> {
  if (host === "localhost" || /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":"))
    return [host];
  return resolveService(reader, host, opts);
}
